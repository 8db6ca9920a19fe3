"""How the dask executor scales from 1 to 4 workers on machines of their own, what the
coordinator spends per game, and how many games a second it can store.

    sudo python benchmarks/cluster_scale.py [--games 120] [--trials 3] [--workers 1,2,3,4]

Needs root: the workers run on the test bed of separate machines
(:mod:`arena_kernel.testing.separate_machines`: a network and a mount namespace each, a
veth link to a private bridge, a copy of the match folder), one worker of one thread per
machine. For each number of machines a cluster is started, warmed up by one small run,
and ``--trials`` trials each run, in an order rotated per trial, what a user runs, the
``arena run`` command:

- ``local``: the local executor on this machine, ``concurrency = 2`` (the baseline, in
  the same conditions);
- ``nim``: the dask executor, Nim games between bots that are processes (a game is a
  session: the ``concurrency`` key does not matter);
- ``rps xK``: the dask executor, rock-paper-scissors (bots connected for a session of
  games), ``concurrency`` K times the cluster's threads;
- ``quick``: the dask executor, Nim between bots in the worker's own process, five times
  as many games: each game is a millisecond's work, so what is timed is the way of a
  session through Dask and the coordinator, the ceiling of a cluster of any size.

Each figure is a median over the trials: games per second (wall time of the command), and
the coordinator's CPU time per game (the command's own user and system time, from
``wait4``: on the cluster its bots run on the workers). Apart, the coordinator's store
limit: the sessions of a run played first in this process (by the same calls a worker
makes), then handed to a fresh run's results as the coordinator does when they come back
(:func:`~arena_kernel.executors.remote.deliver`: logs written, each game stored in a
transaction of its own), timed alone.

Measured here (2026-12-01, 2 cores, Python 3.11.7, 3 trials of 60 games, ``quick`` 300;
four other sessions ran tests on the same machine, a load average near 15, and every
machine of the test bed shares its two cores: take the ratios and the CPU times, not the
rates). Games per second and the command's CPU ms per game (the local one's with its
bots), first run (``--workers 1,2,3,4``, before ``quick`` was added):

    machines  local        nim         rps x1       rps x2
           1  1.6 / 164.3  1.7 / 18.2  12.5 / 18.2  14.1 / 17.3
           2  1.3 / 147.8  1.8 / 19.5   9.5 / 16.3   7.7 / 16.9
           3  1.2 / 167.2  2.0 / 21.8   8.3 / 20.3   7.0 / 18.6
           4  1.0 / 158.7  2.3 / 22.8   7.5 / 21.9   5.9 / 21.6

Second run (``--workers 1,4``), with what each game adds past the command's start:

    machines  run     games/s  CPU ms/game  a game more
           1  nim         0.9         26.4          8.2
           1  rps x1     13.5         20.2          1.2
           1  rps x2      9.5         18.7         -1.6
           1  quick      20.3          6.9          3.0
           4  nim         2.9         24.5          6.2
           4  rps x1     12.4         17.3          2.5
           4  rps x2      8.5         17.2         -1.4
           4  quick      30.3          6.4          2.3
    storing alone: 0.25 ms CPU a game (0.36 in the first run)

The coordinator spends about a second on a run's start, then 2 to 8 ms of CPU a game
(a session's way through Dask more than its storing): one coordinator keeps up with some
125 to 500 games a second. "A game more" of a run of session games is within the noise
of the command's start (one second, give or take a quarter). Twice as many sessions as
threads (``rps x2``) played fewer games a second in five of six measurements: each session
starts its bots anew. On one machine's two cores more workers cannot play more games.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

PYTHON = sys.executable
NIM = f"""plugins = ["arena_kernel.testing.games"]
game = "nim"
seed = 1
rounds = {{rounds}}
concurrency = 2
database = "OUT/games.sqlite"
logs = "OUT/logs"
[game_options]
pile = 15
spread = 10
[[bots]]
name = "a"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.nim_bot", "random", "--seed", "1"]
[[bots]]
name = "b"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.nim_bot", "random", "--seed", "2"]
[[bots]]
name = "c"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.nim_bot", "optimal"]
"""
"""Three bots, two seats, seats swapped: six games a round."""

RPS = f"""plugins = ["arena_kernel.testing.games"]
game = "rps"
seed = 1
rounds = {{rounds}}
concurrency = {{concurrency}}
database = "OUT/games.sqlite"
logs = "OUT/logs"
[[bots]]
name = "a"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.rps_bot", "random", "--seed", "1"]
[[bots]]
name = "b"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.rps_bot", "random", "--seed", "2"]
[[bots]]
name = "c"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.rps_bot", "rock"]
"""

QUICK = """plugins = ["arena_kernel.testing.games"]
game = "nim"
seed = 1
rounds = {rounds}
database = "OUT/games.sqlite"
logs = "OUT/logs"
[[bots]]
name = "a"
builtin = "random"
inproc = true
[[bots]]
name = "b"
builtin = "optimal"
inproc = true
[[bots]]
name = "c"
builtin = "random"
inproc = true
"""
"""Nim between bots in the worker's process: games of a millisecond, so that what is timed
is the cost of a session's way through Dask and the coordinator."""

GAMES_PER_ROUND = 6

NAMES = ("local", "nim", "rps x1", "rps x2", "quick")
"""The runs of a trial, as the report names them."""


def command(match: Path, scheduler: str | None) -> tuple[int, float, float]:
    """``arena run -q MATCH`` (on the cluster at ``scheduler``, or locally): its games,
    wall seconds and CPU seconds (its own and what it waited for)."""
    argv = [PYTHON, "-m", "arena_kernel.cli.main", "run", "-q", str(match)]
    if scheduler is not None:
        argv += ["--executor", "dask", "--scheduler", scheduler]
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    errors = process.stderr.read().decode()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {errors}")
    database = match.parent / "out" / "games.sqlite"
    with sqlite3.connect(database) as conn:
        (games,) = conn.execute("SELECT count(*) FROM games").fetchone()
    return games, wall, usage.ru_utime + usage.ru_stime


def one_run(folder: Path, text: str, scheduler: str | None) -> tuple[int, float, float]:
    """``text`` as a match file of a fresh run in ``folder`` (its results in ``out/``,
    removed after), played by :func:`command`."""
    out = folder / "out"
    shutil.rmtree(out, ignore_errors=True)
    match = folder / "match.toml"
    match.write_text(text.replace("OUT", str(out)))
    try:
        return command(match, scheduler)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def store_limit(folder: Path, rounds: int) -> tuple[int, float, float]:
    """The coordinator's part alone: games, wall and CPU seconds of storing a run's
    sessions as they come back from workers."""
    import dataclasses
    import resource

    from arena_kernel.executors.remote import WorkerSetup, close_run, deliver, play_session
    from arena_kernel.match.schedule import Pending, Schedule, Sessions
    from arena_kernel.registries.observers import Observers
    from arena_kernel.runner.api import prepare
    from arena_kernel.runner.results import RunResults
    from arena_kernel.store import Store

    out = folder / "limit"
    out.mkdir()
    match = folder / "limit.toml"
    match.write_text(NIM.replace("OUT", str(out)).format(rounds=rounds))
    prepared = prepare(match)
    spec = prepared.spec
    setup = WorkerSetup("limit", spec, ("arena_kernel.testing.games",))
    sessions = Sessions(Pending(Schedule(spec), []), "game", 1)
    played = [play_session(setup, session, frozenset()) for session in sessions]
    close_run("limit")
    with Store(spec.database) as store:
        run = store.open_run("limit", "limit", "nim", {}, len(played))
        observers = Observers(prepared.pm)
        results = RunResults(store, run, observers, None, out / "logs")
        usage = resource.getrusage(resource.RUSAGE_SELF)
        start = time.perf_counter()
        for result in played:
            deliver(dataclasses.replace(result), results)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime
    return results.played, wall, cpu


def matches(rounds: int, threads: int) -> dict[str, tuple[str, bool]]:
    """Each run of a trial: its match file's text of ``rounds`` rounds (the quick one five
    times as many), and whether it plays on the cluster (of ``threads`` threads)."""
    texts = (
        NIM.format(rounds=rounds),
        NIM.format(rounds=rounds),
        RPS.format(rounds=rounds, concurrency=threads),
        RPS.format(rounds=rounds, concurrency=2 * threads),
        QUICK.format(rounds=5 * rounds),
    )
    clustered = (False, True, True, True, True)
    return dict(zip(NAMES, zip(texts, clustered, strict=True), strict=True))


def main() -> None:
    from arena_kernel.testing.separate_machines import SeparateMachines, unavailable

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120, help="games per run")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--workers", default="1,2,3,4", help="the numbers of machines")
    args = parser.parse_args()
    why = unavailable()
    if why is not None:
        raise SystemExit(f"cannot run here: {why}")
    rounds = max(1, round(args.games / GAMES_PER_ROUND))
    work = Path(tempfile.mkdtemp(prefix="arena-scale-"))
    rows = []
    try:
        contest = work / "contest"  # the match files; each machine has a copy of it
        for name in NAMES:
            (contest / name.replace(" ", "-")).mkdir(parents=True)
        for count in (int(n) for n in args.workers.split(",")):
            runs = matches(rounds, count)
            with (
                SeparateMachines() as bed,
                bed.cluster(work / f"cluster-{count}", count, {contest: contest}) as (cluster, _),
            ):
                address = cluster.scheduler_address
                warm = {}
                for name, (small, on_cluster) in matches(1, count).items():  # a worker prepares
                    folder = contest / name.replace(" ", "-")
                    warm[name] = one_run(folder, small, address if on_cluster else None)
                names = list(runs)
                figures: dict[str, list[tuple[int, float, float]]] = {n: [] for n in names}
                for trial in range(args.trials):
                    turn = trial % len(names)
                    for name in names[turn:] + names[:turn]:
                        text, on_cluster = runs[name]
                        folder = contest / name.replace(" ", "-")
                        figures[name].append(one_run(folder, text, address if on_cluster else None))
            for name in names:
                games = figures[name][0][0]
                rate = median(g / wall for g, wall, _ in figures[name])
                cost = median(cpu / g * 1000 for g, _, cpu in figures[name])
                # Less the small run's: the command's start and set-up, paid once a run.
                small_games, _, small_cpu = warm[name]
                more = median(
                    (cpu - small_cpu) / (g - small_games) * 1000 for g, _, cpu in figures[name]
                )
                rows.append((count, name, games, rate, cost, more))
                print(
                    f"{count} machine(s) {name:8} {games} games {rate:6.1f} games/s "
                    f"{cost:6.1f} CPU ms/game",
                    flush=True,
                )
        games, wall, cpu = store_limit(work, rounds)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    python = sys.version.split()[0]
    print(f"\n{args.trials} trials, medians; Python {python}, {os.cpu_count()} cores")
    print("CPU ms/game: the command's CPU time (the local one's with its bots) per game;")
    print("a game more: what each game adds to it, past the command's start and set-up")
    head = f"{'machines':>8}  {'run':8}{'games':>6}{'games/s':>9}"
    print(f"{head}{'CPU ms/game':>13}{'a game more':>13}")
    for count, name, games_run, rate, cost, more in rows:
        print(f"{count:>8}  {name:8}{games_run:>6}{rate:>9.1f}{cost:>13.1f}{more:>13.1f}")
    print(
        f"\nstoring alone: {games} games in {wall:.2f} s wall, {cpu / games * 1000:.2f} ms CPU "
        f"a game: the coordinator stores at most about {games / cpu:.0f} games/s"
    )


if __name__ == "__main__":
    main()
