"""The hostile catalog: a bot that plays Nim correctly but first attacks (its opponent's
source, the database and the logs, its opponent's process and port, a service of the
machine, the process table, the disk, the organiser's home, the kernel's settings) is
contained under ``mode = "required"``: every attempt fails, by its own report and as seen
from outside, its opponent plays a clean game, the store is intact. Under ``mode =
"none"`` the same attack does its harm, so the sandbox is what stops it; the bots' own
caps (loopback only, a signal only to the process id they are handed, 200 processes,
200 MiB, a kernel setting written only to the value it has) keep that harmless.

The layout is an organiser's: each bot in a folder of its own (its cwd), the match file,
database and logs beside them; one case has both bots in the match file's folder (the
default for a ``cmd``). The bots are tests/system/sandbox/bots/hostile.py and victim.py.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from as_user import USER_ID, UserArena

from arena_kernel.sandbox import uids
from arena_kernel.testkit import RunSummary, Store, run_match, stored_games

BOTS = Path(__file__).parent / "bots"
PROCESSES = 32
"""``[limits] processes``: the cap a sandboxed bot's cgroup holds, for root too."""
TMP_MB = 16
"""``[sandbox] tmp_mb``: the size of a bot's private /tmp."""
FILL_MB = 24
"""What the writing bot writes to /tmp and to its folder, each: more than ``TMP_MB``, and
little for the disk when nothing stops it."""
SECRET = "victim's secret opening book: 0c5e7a"
"""A line of the victim's source."""
HOME_SECRET = "the organiser's secret"
"""What the test writes to a file in the organiser's home."""
NOT_THERE = "No such file or directory"
NOT_RAISED = "not allowed to raise maximum limit"
"""What Python says when setrlimit refuses to raise a hard limit."""
NOTE = "victim's private note: 9d41b2"
"""What the victim keeps, readable by its own user only, in the folder both bots write."""
SECRET_VARIABLE = "ARENA_TEST_ORGANISER_TOKEN"
"""A variable of the organiser's environment (this test's), which no bot may learn."""
AS_ROOT = os.geteuid() == 0


@dataclass(frozen=True)
class Played:
    """A game between the victim and a hostile bot, as the test sees it afterwards."""

    folder: Path
    """The match file's folder, where the database and the logs are."""
    hostile: Path
    """The hostile bot's folder."""
    summary: RunSummary
    hostile_log: str
    victim_log: str
    service_reached: bool
    """Whether a connection arrived at the test's own listener on 127.0.0.1."""
    peak: int
    """The most processes of the hostile bot the test saw at once."""
    fill_name: str

    def reports(self) -> dict[str, str]:
        """What the hostile bot says became of each attempt: target -> outcome."""
        return dict(re.findall(r"^attack ([a-z ]+): (.*)$", self.hostile_log, re.MULTILINE))

    def user_ids(self) -> tuple[int, int]:
        """The user ids the hostile bot and the victim ran as (each says so; with no user
        namespace, or bwrap's, which maps the arena's user to itself, the machine's id)."""
        (victim,) = re.findall(r"^victim uid: (\d+)$", self.victim_log, re.MULTILINE)
        return int(self.reports()["uid"]), int(victim)

    def victim_faults(self) -> str:
        return " ".join(
            fault.detail
            for result, detail, _events in stored_games(self.summary)
            for fault in detail.faults
            if result.seating[fault.seat] == "victim"
        )


def leaked(text: str) -> Callable[[Played], bool]:
    """Whether the hostile bot printed ``text`` (it prints what it reads)."""
    return lambda played: text in played.hostile_log


def database_lost(played: Played) -> bool:
    return not (played.folder / "results.sqlite").exists()


def log_forged(played: Played) -> bool:
    return (played.folder / "logs" / "forged.stderr").exists()


def tmp_filled(played: Played) -> bool:
    return any(Path("/tmp").glob(f"{played.fill_name}-*"))


def folder_filled(played: Played) -> bool:
    return any(played.hostile.glob(f"{played.fill_name}-*"))


def up_to(n: int) -> str:
    """A regular expression for a number from 0 to ``n``."""
    return f"({'|'.join(map(str, range(n + 1)))})"


@dataclass(frozen=True)
class Attack:
    """``args``: the hostile bot's arguments (its attacks). ``said``: per target, what it
    reports under ``mode = "required"`` and under ``"none"`` (regular expressions).
    ``harm``: per target, whether the harm is seen from outside; it must be only under
    ``"none"``. ``shared_folder``: both bots run in the match file's folder."""

    args: tuple[str, ...]
    said: dict[str, tuple[str, str]]
    harm: dict[str, Callable[[Played], bool]]
    shared_folder: bool = False


CATALOG = {
    "reads its opponent's source": Attack(
        ("source",), {"source": (NOT_THERE, "read")}, {"source": leaked(SECRET)}
    ),
    "wrecks the database and forges a log": Attack(
        ("database",),
        {"database": (NOT_THERE, "overwritten and deleted"), "logs": (NOT_THERE, "ok")},
        {"database": database_lost, "logs": log_forged},
    ),
    "does both from the match file's folder, which its opponent's program is in": Attack(
        ("source", "database"),
        {
            "source": (NOT_THERE, "read"),
            "database": (NOT_THERE, "overwritten and deleted"),
            "logs": (NOT_THERE, "ok"),
        },
        {"source": leaked(SECRET), "database": database_lost, "logs": log_forged},
        shared_folder=True,
    ),
    "kills its opponent by its process id": Attack(
        ("kill",),
        {"kill": ("No such process", "ok")},
        {"kill": lambda played: "killed by SIGKILL" in played.victim_faults()},
    ),
    "connects to a service of the machine and to its opponent's port": Attack(
        ("network",),
        {
            "service": ("Connection refused", "connected"),
            "opponent": ("Connection refused", "connected"),
        },
        {
            "service": lambda played: played.service_reached,
            "opponent": lambda played: "victim: a connection arrived" in played.victim_log,
        },
    ),
    "forks without end": Attack(
        ("fork",),
        {
            "fork": (
                f"Resource temporarily unavailable after {up_to(PROCESSES)} processes",
                "gave up after 200 processes",
            )
        },
        {"fork": lambda played: played.peak > PROCESSES},
    ),
    "writes without end to /tmp and to its folder": Attack(
        ("writes",),
        {
            "tmp": (
                f"No space left on device after {up_to(TMP_MB)} MiB",
                f"gave up after {FILL_MB} MiB",
            ),
            # Into its private copy of its folder, which the organiser never sees change.
            "folder": (f"gave up after {FILL_MB} MiB", f"gave up after {FILL_MB} MiB"),
        },
        {"tmp": tmp_filled, "folder": folder_filled},
    ),
    "reads the organiser's home": Attack(
        ("home",),
        {"home": (f"not listed|{NOT_THERE}", "secret listed"), "home secret": (NOT_THERE, "read")},
        {"home secret": leaked(HOME_SECRET)},
    ),
    "lifts its own limits": Attack(
        ("limits",),
        {
            "memory limit": (NOT_RAISED, NOT_RAISED),
            "file size limit": (NOT_RAISED, NOT_RAISED),
        },
        {},
    ),
    "looks for the organiser's secrets": Attack(
        ("secrets",),
        {"environment": ("not there", "not there"), "process environments": ("not there", "read")},
        {"process environments": lambda played: "process environments: read" in played.hostile_log},
    ),
    "reads a root-only file and its neighbour's private file": Attack(
        ("root files",),
        {
            "root file": ("Permission denied", "opened" if AS_ROOT else "Permission denied"),
            "neighbour file": ("Permission denied", "read"),
        },
        {"neighbour file": leaked(NOTE)},
    ),
    "sets a kernel setting of the machine": Attack(
        ("sysctl",),
        # Only root may (arena run as root: a container, a CI box). The bot writes back the
        # value there is, so nothing is seen from outside: its report is the evidence.
        {
            "sysctl": (
                "Read-only file system|Permission denied",
                "wrote back" if os.geteuid() == 0 else "Permission denied",
            )
        },
        {},
    ),
}


@pytest.mark.parametrize("name", list(CATALOG))
def test_the_sandbox_contains_the_attack(
    name, sandbox, tmp_path, write_match, fill_name, home_secret, no_leftover_processes
) -> None:
    attack = CATALOG[name]
    played = play(attack, "required", tmp_path, write_match, fill_name, home_secret)
    no_leftover_processes()
    assert said(attack, played, "required"), played.hostile_log
    assert harm(attack, played) == dict.fromkeys(attack.harm, False)
    if AS_ROOT:
        hostile, victim = played.user_ids()
        assert hostile >= uids.FIRST and victim != hostile, (hostile, victim)
    summary = played.summary
    assert summary.errors == [] and summary.played == 1
    ((result, detail, events),) = stored_games(summary)
    assert result.reason.startswith("took the last stone"), "a whole game"
    assert not detail.faults, detail.faults
    victim = result.seating.index("victim")
    assert [e for e in events if e.kind == "recv" and e.seat == victim], "the victim played"
    with Store(summary.run.database) as store:
        store.check_intact()


USER_HOLES = frozenset({"neighbour file"})
"""What the sandbox cannot keep from a bot when arena runs as an ordinary user: every bot
is that user, so a file one bot writes where another may read (a shared ``read_write``
folder) is readable by both whatever its mode (docs/sandbox.md)."""


@pytest.mark.parametrize("name", list(CATALOG))
def test_as_an_ordinary_user_the_sandbox_contains_the_attack(
    name, sandbox, tmp_path, write_match, fill_name, home_secret, no_leftover_processes
) -> None:
    if not AS_ROOT:
        pytest.skip("the test runs as root to become an ordinary user; it already is one")
    attack = CATALOG[name]
    user = UserArena()
    try:
        played = play(attack, "required", tmp_path, write_match, fill_name, home_secret, user)
        no_leftover_processes()
        reports = played.reports()
        for target, (pattern, _) in attack.said.items():
            if target not in USER_HOLES:
                assert re.fullmatch(pattern, reports.get(target, "")), played.hostile_log
        for target, seen in attack.harm.items():
            assert target in USER_HOLES or not seen(played), target
        summary = played.summary
        assert summary.errors == [] and summary.played == 1, summary.errors
        ((result, _detail, _events),) = stored_games(summary)
        assert result.reason.startswith("took the last stone"), "a whole game"
        assert result.sandbox == "bwrap"
        assert played.user_ids() == (USER_ID, USER_ID), "the arena's user, in a user namespace"
        with Store(summary.run.database) as store:
            store.check_intact()
    finally:
        user.remove()


@pytest.mark.parametrize("name", list(CATALOG))
def test_without_the_sandbox_the_attack_does_harm(
    name, tmp_path, write_match, fill_name, home_secret, no_leftover_processes
) -> None:
    attack = CATALOG[name]
    played = play(attack, "none", tmp_path, write_match, fill_name, home_secret)
    no_leftover_processes()
    assert said(attack, played, "none"), played.hostile_log
    assert harm(attack, played) == dict.fromkeys(attack.harm, True)


def said(attack: Attack, played: Played, mode: str) -> bool:
    """Whether the hostile bot's report of every target is what ``mode`` should give."""
    column = ("required", "none").index(mode)
    reports = played.reports()
    return all(
        re.fullmatch(patterns[column], reports.get(target, "")) is not None
        for target, patterns in attack.said.items()
    )


def harm(attack: Attack, played: Played) -> dict[str, bool]:
    return {target: seen(played) for target, seen in attack.harm.items()}


@pytest.fixture
def fill_name(tmp_path: Path) -> Iterator[str]:
    """The name of the files the writing bot makes; they are removed after the test, from
    the machine's /tmp too (where it writes when nothing stops it)."""
    name = f"arena-hostile-{secrets.token_hex(4)}"
    yield name
    for written in [*Path("/tmp").glob(f"{name}-*"), *tmp_path.glob(f"**/{name}-*")]:
        written.unlink()


@pytest.fixture(autouse=True)
def organiser_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """A secret in the organiser's environment, as an exported token would be."""
    monkeypatch.setenv(SECRET_VARIABLE, secrets.token_hex(8))


@pytest.fixture
def home_secret() -> Iterator[Path]:
    """A file in the organiser's (this test's) home, removed after the test."""
    path = Path.home() / f".arena-test-secret-{secrets.token_hex(4)}"
    path.write_text(HOME_SECRET)
    yield path
    path.unlink()


def play(
    attack: Attack,
    mode: str,
    tmp_path: Path,
    write_match,
    fill_name: str,
    home_secret: Path,
    user: UserArena | None = None,
) -> Played:
    """One game between the victim and the hostile bot under sandbox ``mode``, with what
    the attacks aim at in place: a mailbox folder both bots may write (where the test
    posts the victim's process id and the victim its port), a listener of the test's.
    ``user``: the arena runs as that ordinary user, in its folder, with its home."""
    home = Path.home()
    if user is not None:
        tmp_path, home = user.folder, user.home
        shutil.copy(home_secret, home / home_secret.name)
    folders = {
        name: tmp_path if attack.shared_folder else tmp_path / name
        for name in ("victim", "hostile")
    }
    for name, folder in folders.items():
        folder.mkdir(exist_ok=True)
        shutil.copy(BOTS / f"{name}.py", folder)
    mailbox = tmp_path / "mailbox"
    mailbox.mkdir()
    mailbox.chmod(0o777)  # as root, each bot runs as a user of its own
    with socket.create_server(("127.0.0.1", 0)) as service:
        service.setblocking(False)
        # Paths in the environment, not in the command: a path a command names is shown.
        aims = {
            "OPPONENT_SOURCE": str(folders["victim"] / "victim.py"),
            "DATABASE": str(tmp_path / "results.sqlite"),
            "LOGS": str(tmp_path / "logs"),
            "MAILBOX": str(mailbox),
            "SERVICE_PORT": str(service.getsockname()[1]),
            "ORGANISER_HOME": str(home),
            "SECRET_NAME": home_secret.name,
            "FILL_NAME": fill_name,
            "FILL_MB": str(FILL_MB),
            "SECRET_VARIABLE": SECRET_VARIABLE,
        }
        listen = {"POST_PORT_TO": str(mailbox)} if "network" in attack.args else {}
        if "root files" in attack.args:
            listen["KEEP_NOTE_IN"] = str(mailbox)

        def bot(name: str, args: tuple[str, ...], env: dict[str, str]) -> str:
            cwd = "" if attack.shared_folder else f'cwd = "{name}"\n'
            cmd = json.dumps([sys.executable, f"{name}.py", *args])
            table = ", ".join(f"{key} = {json.dumps(value)}" for key, value in env.items())
            return f'[[bots]]\nname = "{name}"\ncmd = {cmd}\n{cwd}env = {{ {table} }}\n'

        path = write_match(
            f"""\
game = "nim"
games = 1
startup_failures = "forfeit"  # a victim killed before it answers loses the game
database = "results.sqlite"
logs = "logs"
[clock]
startup = 30
reply = 30
[limits]
processes = {PROCESSES}
memory_mb = 1024
write_mb = {FILL_MB}
[sandbox]
mode = "{mode}"
tmp_mb = {TMP_MB}
read_write = ["mailbox"]
"""
            + bot("victim", (), listen)
            + bot("hostile", attack.args, aims)
        )
        watch = Watch(mailbox, (folders["victim"], "victim.py"), (folders["hostile"], "hostile.py"))
        watch.start()
        try:
            if user is None:
                summary = run_match(path)
            else:
                path = path.rename(tmp_path / path.name)
                user.give(tmp_path)
                mailbox.chmod(0o777)
                secret = {SECRET_VARIABLE: os.environ[SECRET_VARIABLE]}
                summary = user.run_match(path, env=secret)
        finally:
            watch.done.set()
            watch.join()
        return Played(
            folder=tmp_path,
            hostile=folders["hostile"],
            summary=summary,
            hostile_log=stderr_log(tmp_path, "hostile"),
            victim_log=stderr_log(tmp_path, "victim"),
            service_reached=reached(service),
            peak=watch.peak,
            fill_name=fill_name,
        )


class Watch(threading.Thread):
    """Watches the machine's processes while a game plays: hands the victim's process id
    to the hostile bot (posts it to the mailbox), and counts the hostile bot's processes at
    their most. A bot's processes are known by their script and folder."""

    def __init__(self, mailbox: Path, victim: tuple[Path, str], hostile: tuple[Path, str]):
        super().__init__(daemon=True)
        self.mailbox = mailbox
        self.victim = victim
        self.hostile = hostile
        self.peak = 0
        self.done = threading.Event()

    def run(self) -> None:
        posted = False
        while not self.done.wait(0.05):
            found = [(pid, (cwd, argv[1])) for pid, argv, cwd in python_scripts()]
            self.peak = max(self.peak, sum(bot == self.hostile for _, bot in found))
            victims = [pid for pid, bot in found if bot == self.victim]
            if victims and not posted:
                (self.mailbox / "pid.new").write_text(str(victims[0]))
                (self.mailbox / "pid.new").rename(self.mailbox / "pid")
                posted = True


def python_scripts() -> Iterator[tuple[int, list[str], Path]]:
    """(pid, argv, folder) of the processes running this test's Python with arguments."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    argv = f.read().decode(errors="replace").split("\0")
                if len(argv) > 1 and argv[0] == sys.executable:
                    yield int(entry), argv, Path(os.readlink(f"/proc/{entry}/cwd"))
            except OSError:
                continue


def reached(service: socket.socket) -> bool:
    try:
        service.accept()[0].close()
    except BlockingIOError:
        return False
    return True


def stderr_log(folder: Path, name: str) -> str:
    logs = list((folder / "logs").glob(f"**/*-{name}.stderr"))
    return logs[0].read_text() if logs else ""
