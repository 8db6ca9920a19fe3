"""A hostile Nim bot for the sandbox's catalog (tests/system/sandbox/test_hostile_catalog.py).

It makes the attacks its arguments name, then plays Nim correctly (the test game's
protocol, kernel/arena_kernel/testing/nim.py). Each attempt says on stderr what became of it, one
``attack <target>: <outcome>`` line: ``ok``, ``read``, ``connected``, how far it got, or the
error's own words (``No such file or directory``).

What it aims at comes from its environment, never its arguments (a path a bot's command
names is shown to it): the opponent's source, the database and the logs, the mailbox
folder where the test posts the opponent's process id and the opponent its port, a port
the test listens on, the organiser's home and a secret file there, the name and size of
the files it writes.

Without a sandbox it stays harmless to the machine: it connects to 127.0.0.1 only, signals
only the process id it is handed, gives up at 200 processes and 200 MiB written, and sets
a kernel setting only to the value it has.
"""

import os
import signal
import socket
import sys
import time
from collections.abc import Callable

MAX_PROCESSES = 200
MAX_WRITTEN_MB = 200
FILE_MB = 8
"""Its writes go to files of 8 MiB, below any per-file limit a test sets."""
HOLD = 2.0
"""How long it keeps its processes before it plays on, as a fork bomb would; long enough
for the test to count them."""
SETTING = "/proc/sys/vm/overcommit_ratio"
"""A kernel setting it writes (its own value back)."""
WAIT = 30.0
"""How long it waits for what is posted to the mailbox."""

env = os.environ
written_mb = 0


def report(target: str, outcome: str) -> None:
    print(f"attack {target}: {outcome}", file=sys.stderr, flush=True)


def attempt(target: str, action: Callable[[], str]) -> None:
    """Report what ``action`` returns, or the error that stopped it."""
    try:
        outcome = action()
    except OSError as exc:
        outcome = exc.strerror or str(exc)
    report(target, outcome)


def show(path: str) -> str:
    """Read a file and print it: the leak itself."""
    with open(path) as f:
        print(f.read(), file=sys.stderr, flush=True)
    return "read"


def posted(name: str) -> int:
    """A number posted to the mailbox."""
    path = os.path.join(env["MAILBOX"], name)
    deadline = time.monotonic() + WAIT
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise TimeoutError(f"nothing posted as {name}")
        time.sleep(0.05)
    with open(path) as f:
        return int(f.read())


def source() -> None:
    attempt("source", lambda: show(env["OPPONENT_SOURCE"]))


def database() -> None:
    def wreck() -> str:
        with open(env["DATABASE"], "r+b") as f:
            f.write(b"garbage!" * 12)  # the header (which SQLite may write back)
        os.unlink(env["DATABASE"])  # the arena writes on to a file nobody will find
        return "overwritten and deleted"

    def forge() -> str:
        with open(os.path.join(env["LOGS"], "forged.stderr"), "w") as f:
            f.write("a forged log\n")
        return "ok"

    attempt("database", wreck)
    attempt("logs", forge)


def kill() -> None:
    def shoot() -> str:
        pid = posted("pid")
        if pid <= 1:  # never a broadcast, a group or init, whatever is posted
            return f"refused to signal {pid}"
        os.kill(pid, signal.SIGKILL)
        return "ok"

    attempt("kill", shoot)


def connect(port: int) -> str:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    return "connected"


def network() -> None:
    attempt("service", lambda: connect(int(env["SERVICE_PORT"])))
    attempt("opponent", lambda: connect(posted("port")))


def fork() -> None:
    made = 0
    try:
        while made < MAX_PROCESSES:
            if os.fork() == 0:
                time.sleep(300)
                os._exit(0)
            made += 1
        outcome = f"gave up after {made} processes"
    except OSError as exc:
        outcome = f"{exc.strerror} after {made} processes"
    report("fork", outcome)
    time.sleep(HOLD)


def fill(target: str, folder: str, cap_mb: int) -> None:
    """Write 1 MiB at a time into ``folder`` until an error, ``cap_mb`` or the ceiling."""
    global written_mb
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a per-file limit is an error, not death
    chunk = b"x" * (1 << 20)
    done = 0
    try:
        while done < cap_mb and written_mb < MAX_WRITTEN_MB:
            name = os.path.join(folder, f"{env['FILL_NAME']}-{done // FILE_MB}")
            with open(name, "ab") as f:
                f.write(chunk)
                f.flush()
            done += 1
            written_mb += 1
        outcome = f"gave up after {done} MiB"
    except OSError as exc:
        outcome = f"{exc.strerror} after {done} MiB"
    report(target, outcome)


def writes() -> None:
    cap_mb = int(env["FILL_MB"])
    fill("tmp", "/tmp", cap_mb)
    fill("folder", ".", cap_mb)


def home() -> None:
    organiser = env["ORGANISER_HOME"]
    secret = env["SECRET_NAME"]
    attempt("home", lambda: "secret listed" if secret in os.listdir(organiser) else "not listed")
    attempt("home secret", lambda: show(os.path.join(organiser, secret)))


def sysctl() -> None:
    """Set a kernel setting of the whole machine, to the value it has: a no-op, but any
    other value would be taken too (``kernel.core_pattern`` among them, whose program the
    kernel runs as root outside every namespace when a process dumps core)."""

    def write_back() -> str:
        fd = os.open(SETTING, os.O_RDWR)
        try:
            os.pwrite(fd, os.pread(fd, 64, 0), 0)
        finally:
            os.close(fd)
        return "wrote back"

    attempt("sysctl", write_back)


def limits() -> None:
    """Lift its own memory and file-size limits back to unlimited."""
    import resource

    def lift(which: int) -> str:
        try:
            resource.setrlimit(which, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        except ValueError as exc:  # Python's word for EPERM here
            return str(exc)
        return "lifted"

    attempt("memory limit", lambda: lift(resource.RLIMIT_DATA))
    attempt("file size limit", lambda: lift(resource.RLIMIT_FSIZE))


def secrets() -> None:
    """Look for the organiser's secret in its own environment and in every process's it
    can see."""
    name = env["SECRET_VARIABLE"]
    attempt("environment", lambda: "read" if name in os.environ else "not there")

    def scan() -> str:
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    if f"{name}=".encode() in f.read():
                        return "read"
            except OSError:
                continue
        return "not there"

    attempt("process environments", scan)


def root_files() -> None:
    """Open a file only root may read, and a file another bot keeps to itself in the
    folder both may write; say so without printing them."""

    def opened(path: str) -> str:
        with open(path, "rb"):
            return "opened"

    attempt("root file", lambda: opened("/etc/shadow"))
    attempt("neighbour file", lambda: show(os.path.join(env["MAILBOX"], posted_name())))


def posted_name() -> str:
    """The name of the victim's private note, once it is there."""
    path = os.path.join(env["MAILBOX"], "note")
    deadline = time.monotonic() + WAIT
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise TimeoutError("no note posted")
        time.sleep(0.05)
    return "note"


ATTACKS = {
    "limits": limits,
    "secrets": secrets,
    "root files": root_files,
    "source": source,
    "database": database,
    "kill": kill,
    "network": network,
    "fork": fork,
    "writes": writes,
    "home": home,
    "sysctl": sysctl,
}


def main() -> None:
    report("uid", str(os.getuid()))
    for name in sys.argv[1:]:
        ATTACKS[name]()
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["move"]:
            print(f"take {int(words[1]) % 4 or 1}", flush=True)


if __name__ == "__main__":
    main()
