"""Does interrupting arena at a random moment ever leave a bot process behind?

    python benchmarks/interrupt_leaks.py [--trials 20] [--seed 1] [--latest 1.5]
                                         [--transport stdio|tcp] [--signal SIGINT|SIGTERM]

Each trial runs ``arena run`` as a real process on 4-player Nim games played three at a
time, so that bots are being started almost all the time; the bots are real processes
(three built-in bots and tests/bots/escaper.py, which leaves a child in a session of its
own), over stdio or TCP. A random delay (0 to ``--latest`` s) after its first bot started,
while games start and end, arena gets SIGINT or SIGTERM; once it has exited, every
process that inherited the trial's LEAK_PROBE variable or wrote a pid file and is still
alive a few seconds later (LINGER) is a leak (and is killed). ``--trials`` trials per
transport and signal; 0 leaks expected. The exit status counts the leaks, so a script can
run this as a check.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from arena_kernel.processes.procfs import Stat, read_stat, with_environ
from arena_kernel.processes.tree_kill import signal_process

ESCAPER = Path(__file__).resolve().parents[1] / "tests" / "bots" / "escaper.py"
PROBE = "LEAK_PROBE"
EXIT_LIMIT = 60.0
"""Seconds arena may take to exit after the signal before the trial counts as hung."""

LINGER = 5.0
"""Seconds a process may take to end after arena has exited: a sandboxed bot is ended by
its sandbox's parent-death signal as arena exits, which the kernel carries out a moment
later, and longer on a loaded machine. One still there after that is a leak."""


@dataclass
class Trial:
    transport: str
    signal: signal.Signals
    delay: float
    exit_code: int | None = None
    leaks: list[str] = field(default_factory=list)


def match_file(folder: Path, transport: str, probe: str, piddir: Path) -> Path:
    """Four bots in 4-seat Nim games, 12 games, 3 at once; every bot carries ``probe``."""
    tcp = transport == "tcp"
    escaper = [sys.executable, str(ESCAPER), "setsid", str(piddir), *(["--tcp"] if tcp else [])]
    builtin_args = 'args = ["--tcp", "{host}", "{port}"]\n' if tcp else ""
    bots = [f'[[bots]]\nname = "escaper"\ncmd = {json.dumps(escaper)}\n']
    for name, builtin in (("first", "optimal"), ("second", "random"), ("third", "optimal")):
        bots.append(f'[[bots]]\nname = "{name}"\nbuiltin = "{builtin}"\n{builtin_args}')
    env = f'env = {{ {PROBE} = "{probe}" }}\n'
    path = folder / "match.toml"
    path.write_text(
        textwrap.dedent(
            f"""
            plugins = ["arena_kernel.testing.games"]
            game = "nim"
            transport = "{transport}"
            seats = 4
            rounds = 3
            concurrency = 3
            database = "{folder / "results.sqlite"}"
            logs = "{folder / "logs"}"
            [clock]
            startup = 10
            reply = 2
            """
        )
        + "\n".join(bot + env for bot in bots)
    )
    return path


def interrupted_run(folder: Path, trial: Trial) -> Trial:
    """Run arena in ``folder``, interrupt it ``trial.delay`` s after its first bot started
    with ``trial.signal``, record its exit code and what it left alive (killing that, so
    that the next trial starts clean)."""
    probe = uuid.uuid4().hex
    piddir = folder / "pids"
    piddir.mkdir()
    path = match_file(folder, trial.transport, probe, piddir)
    arena = subprocess.Popen(
        [sys.executable, "-m", "arena_kernel.cli.main", "run", "--quiet", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    # The delay counts from the first bot's start: the moments of interest are those when
    # bots are being started and ended (a signal before that has no bot to leak).
    while arena.poll() is None and not with_environ(PROBE, probe.__eq__):
        time.sleep(0.005)
    time.sleep(trial.delay)
    arena.send_signal(trial.signal)
    try:
        trial.exit_code = arena.wait(EXIT_LIMIT)
    except subprocess.TimeoutExpired:
        arena.kill()
        trial.exit_code = arena.wait()
        trial.leaks.append(f"arena itself did not exit within {EXIT_LIMIT:g} s")
    deadline = time.monotonic() + LINGER
    left = alive(probe, piddir)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = alive(probe, piddir)
    for pid, stat in sorted(left.items()):
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        roles = [note.stem for note in piddir.glob(f"*.{pid}")]
        trial.leaks.append(f"pid {pid} {roles}: {cmdline.strip()}")
        signal_process(stat, signal.SIGKILL)
    return trial


def alive(probe: str, piddir: Path) -> dict[int, Stat]:
    """The processes alive now that carry ``probe`` or wrote a pid file in ``piddir``."""
    left = {stat.pid: stat for stat in with_environ(PROBE, probe.__eq__)}
    for note in piddir.iterdir():
        stat = read_stat(int(note.suffix[1:]))
        if stat is not None and not stat.dead:
            left[stat.pid] = stat
    return left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20, help="per transport and signal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--latest", type=float, default=1.5, help="latest signal, seconds")
    parser.add_argument("--transport", choices=["stdio", "tcp"], action="append")
    parser.add_argument("--signal", choices=["SIGINT", "SIGTERM"], action="append")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    kinds = [
        (transport, signal.Signals[name])
        for transport in args.transport or ("stdio", "tcp")
        for name in args.signal or ("SIGINT", "SIGTERM")
    ]
    trials = [
        Trial(transport, sig, rng.uniform(0, args.latest))
        for _ in range(args.trials)
        for transport, sig in kinds
    ]
    for trial in trials:
        with tempfile.TemporaryDirectory() as folder:
            interrupted_run(Path(folder), trial)
        mark = "LEAK" if trial.leaks else "ok"
        print(
            f"{trial.transport:5} {trial.signal.name:7} at {trial.delay:5.2f} s: "
            f"exit {trial.exit_code}, {mark}",
            flush=True,
        )
        for leak in trial.leaks:
            print(f"    {leak}", flush=True)
    print()
    leaked = 0
    for transport, sig in kinds:
        these = [t for t in trials if (t.transport, t.signal) == (transport, sig)]
        leaks = sum(len(t.leaks) for t in these)
        leaked += leaks
        codes = Counter(t.exit_code for t in these)
        print(
            f"{transport:5} {sig.name:7}: {len(these)} trials, {leaks} processes leaked; "
            f"exit codes {dict(sorted(codes.items()))}"
        )
    sys.exit(min(leaked, 100))


if __name__ == "__main__":
    main()
