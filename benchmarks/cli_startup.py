"""How long the ``arena`` command takes to start and answer: ``arena --help``, ``arena
plugins`` (from its cache, as every listing but the first after a change is, and made
afresh) and ``arena standings`` of a run of 10,000 stored games, against ``python -c
pass`` in the same run.

    python benchmarks/cli_startup.py [--trials 21] [--games 10000] [--compare DIR]

Each trial runs every command, in an order shuffled per trial so that a busy moment of the
machine does not land on one command only, and takes its wall clock and its CPU time (the
process's and its children's: ``arena plugins`` starts a sandbox probe). The report gives
medians, the spread between the quartiles, and each command's CPU time as a multiple of
``python -c pass`` (the interpreter's own start, site-packages and the editable installs'
finders included): the CPU time moves less with what else the machine runs. ``arena
--help`` imports no plugin and no game; ``arena plugins`` serves the listing kept in its
cache folder (here one of the run's own) while the installed plugins are as they were, and
otherwise imports every installed plugin, so that it grows with them (measured with a
cache folder that cannot be made); ``arena standings`` of this run (wins and Elo, both
order-free) reads the run's tally of results, a few rows, and checks the tables it reads
(not the whole 15 MB file), with the built-in scorers taken without the plugin manager.
The database is filled first (the games of ``resume_speed.py``'s sample stored again and
again), with byte code cached as in a user's install.

``--compare DIR`` runs every ``arena`` command with the ``arena_kernel`` package found in
DIR too (a copy of the kernel from before a change, first on ``PYTHONPATH``), in the same
trials, ``arena standings`` on a database that kernel filled (its own schema): its lines
are marked ``(DIR)``, their ratios to the same ``python -c pass``.

Where it stands: 21 trials on this 2-core machine at a load of 9.9 to 10.2 (other
benchmarks and tests beside it), the kernel of 9b9f5b3 in the same trials: ``arena
standings`` 2.37x (2.99x before), ``arena --help`` 2.38x (2.86x), ``arena plugins`` 2.34x
(2.88x), afresh 7.24x (8.37x); another 21 trials at a load of 5.4 to 5.7 gave
``standings`` 2.23x (2.96x), ``--help`` 2.29x (2.79x), ``plugins`` 2.35x (2.66x), afresh
6.83x (7.65x). Instructions counted by callgrind (the process alone, not
the bwrap ``arena plugins`` starts; no load to move them), as multiples of ``python -c
pass``: ``standings`` 2.50x (2.99x), ``--help`` 2.57x (2.87x), ``plugins`` 2.36x (2.77x),
``--version`` 2.02x (2.31x). The aim, ``standings`` and ``plugins`` at most 3x, is met
with a margin by both.

What is left is nearly all imports: click alone is 2.1x (a little less with the garbage
collector off while it is imported, as ``arena`` has it: see
:mod:`arena_kernel.cli.main`). Of ``standings``, the store's run reads with json and
sqlite3 are 0.2x, the model's tables, the scorers and ``standings``' own modules 0.15x,
and the command itself (click's parsing, the quick checks of the tables it reads, the
reads, the scoring, the output) 0.2x, whatever the number of games. No dataclass is made
on either path: the model's records there are slotted classes
(:mod:`arena_kernel.model.values`). ``arena plugins`` adds the listing's cache (json) and
the sandbox trial, bwrap started around ``/bin/sh -c :`` (with subprocess and shutil,
0.17x).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median, quantiles

from baseline import python_env, run_worker
from resume_speed import SPARE, match_file


def arena_command() -> list[str]:
    """The installed ``arena`` script next to this interpreter (what users run), or
    ``python -m arena_kernel.cli.main`` when there is none."""
    script = Path(sys.executable).with_name("arena")
    return [str(script)] if script.exists() else [sys.executable, "-m", "arena_kernel.cli.main"]


NO_CACHE = "no-cache"
"""The first word of a command run with no cache folder (its ``ARENA_CACHE_DIR`` a file)."""


def timed(argv: list[str], cwd: Path, tree: Path | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (the process and its children) of running ``argv``, its
    caches in ``cwd/cache`` (or none: see :data:`NO_CACHE`), with the kernel of ``tree``
    (None: this one)."""
    cache = cwd / "cache"
    if argv[0] == NO_CACHE:
        argv, cache = argv[1:], cwd / "none"
        cache.touch()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(
        argv,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
        env={**python_env(tree), "ARENA_CACHE_DIR": str(cache)},
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu


def stored_run(folder: Path, games: int, tree: Path | None) -> Path:
    """A database of one run of ``games`` stored games (see ``resume_speed.py``) in a new
    ``folder``, written by the kernel of ``tree`` (None: this one), so that each kernel
    reads a file of its own schema."""
    script = Path(__file__).with_name("resume_speed.py")
    folder.mkdir()
    match = match_file(folder, games + SPARE)
    run_worker(str(script), ["build", str(match), str(games)], tree, folder)
    return folder / "stones.sqlite"


def arena_commands(arena: list[str], database: Path, games: int) -> dict[str, list[str]]:
    """The ``arena`` commands measured, by label, ``arena standings`` of ``database``."""
    return {
        "arena --help": [*arena, "--help"],
        "arena plugins": [*arena, "plugins"],
        "arena plugins (not kept)": [NO_CACHE, *arena, "plugins"],
        f"arena standings ({games} games)": [*arena, "standings", str(database)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=21)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--compare", metavar="DIR", type=Path, help="also this arena_kernel")
    args = parser.parse_args()
    arena = arena_command()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        baseline = "python -c pass (baseline)"
        ours = arena_commands(arena, stored_run(folder / "this", args.games, None), args.games)
        commands: dict[str, tuple[list[str], Path | None]] = {
            baseline: ([sys.executable, "-c", "pass"], None),
            **{label: (argv, None) for label, argv in ours.items()},
        }
        if args.compare is not None:
            tag = f" ({args.compare.name})"
            database = stored_run(folder / "compare", args.games, args.compare)
            theirs = arena_commands(arena, database, args.games)
            commands.update({label + tag: (argv, args.compare) for label, argv in theirs.items()})
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
        for argv, tree in commands.values():
            timed(argv, folder, tree)  # the file cache warm, the byte code cached
        for _ in range(args.trials):
            order = list(commands.items())
            random.shuffle(order)
            for label, (argv, tree) in order:
                times[label].append(timed(argv, folder, tree))
    print(f"{args.trials} trials, {os.cpu_count()} CPUs (shared), {' '.join(arena)}")
    print(f"{'command':44} {'wall s':>7} {'q1-q3 s':>13} {'CPU s':>7} {'x python':>9}")
    base = median(cpu for _, cpu in times[baseline])
    for label, samples in times.items():
        walls = [wall for wall, _ in samples]
        q1, _, q3 = quantiles(walls, n=4)
        cpu = median(c for _, c in samples)
        print(f"{label:44} {median(walls):7.3f} {q1:6.3f}-{q3:6.3f} {cpu:7.3f} {cpu / base:8.2f}x")


if __name__ == "__main__":
    main()
