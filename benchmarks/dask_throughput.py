"""Games per second of the dask executor on a cluster of this machine, against the local one.

    python benchmarks/dask_throughput.py [--games 120] [--trials 3]

The same schedule for every executor: a round robin of three Nim bots (the kernel's test
game) that are real subprocesses (``arena_kernel.testing.nim_bot``: two random, one
optimal), two seats, six games a round, enough rounds for ``--games`` games, each run on
a fresh database and logs folder. Three ways of playing it:

- ``local``: the local executor, two games at once (``concurrency = 2``);
- ``dask 1x2``: the dask executor on a cluster of one worker process of two threads;
- ``dask 2x1``: the dask executor on a cluster of two worker processes of one thread each.

Both clusters are started once, outside this process (``distributed.cli.dask_scheduler``
and ``distributed.cli.dask_worker`` as subprocesses), so that the CPU time measured here
is the coordinator's own and not the scheduler's; each is warmed up by one small run
before the first timed one (a worker prepares a run on first use), and both are stopped
at the end. A trial runs the three in turn, in an order rotated per trial; the report
gives medians of the games per second (wall time of ``run_prepared``) and of this
process's CPU time per game (user and system, ``getrusage(RUSAGE_SELF)``: the coordinator,
which alone writes the store); apart, the CPU time of the bots that this process started
and waited for (``RUSAGE_CHILDREN``: the local executor's bots; a cluster's bots run under
its workers and are not counted here).

Why: the dask executor sends every session to a worker and gets its records back, which
the local executor does not pay; on one machine, it shows what that costs in throughput
and what the coordinator still spends per game when it no longer plays the games.

Measured here (2026-11-27, 2 cores, Python 3.11.7, 3 trials of 120 games; a test suite
ran on the same machine at the time, so take the ratios, not the rates):

    executor    games/s  wall s  CPU ms/game  + bots
    local          20.8    5.78         20.5    30.2
    dask 1x2       14.4    8.33          6.1     0.0
    dask 2x1       14.5    8.29          6.3     0.0

On two cores the cluster plays about 30 % fewer games a second than the local executor:
its workers, the scheduler and the coordinator share the cores with the bots, and each
session's record travels back through the scheduler before the next one is submitted
(one session per worker thread at a time). One worker of two threads does as well as two
of one; the coordinator spends under a third of the local executor's CPU time per game
(it stores the games but plays none), which is what lets one coordinator feed many
machines.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from statistics import median
from typing import Any

from arena_kernel.runner.api import prepare, run_prepared

PYTHON = sys.executable
BOT = f'cmd = ["{PYTHON}", "-m", "arena_kernel.testing.nim_bot", '
MATCH = f"""plugins = ["arena_kernel.testing.games"]
game = "nim"
seed = 1
rounds = {{rounds}}
concurrency = 2
database = "{{folder}}/games.sqlite"
logs = "{{folder}}/logs"
[game_options]
pile = 15
spread = 10
[[bots]]
name = "a"
{BOT}"random", "--seed", "1"]
[[bots]]
name = "b"
{BOT}"random", "--seed", "2"]
[[bots]]
name = "c"
{BOT}"optimal"]
"""

GAMES_PER_ROUND = 6
"""Three bots, two seats, seats swapped: six games a round."""

CLUSTERS = {"dask 1x2": (1, 2), "dask 2x1": (2, 1)}
"""Worker processes and threads of each cluster, by the name in the report."""

SCHEDULER = (PYTHON, "-m", "distributed.cli.dask_scheduler", "--port", "0", "--no-dashboard")
WORKER = (PYTHON, "-m", "distributed.cli.dask_worker", "--no-dashboard")

Timing = tuple[float, float, float]
"""Of one run: wall seconds, the coordinator's CPU seconds, its children's CPU seconds."""


def cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def play(work: Path, rounds: int, options: dict[str, Any] | None) -> tuple[int, Timing]:
    """One run of ``rounds`` rounds on a fresh database in a new folder of ``work``, by the
    local executor (``options`` None) or the dask one; only ``run_prepared`` is timed."""
    folder = Path(tempfile.mkdtemp(dir=work))
    match = folder / "match.toml"
    match.write_text(MATCH.format(rounds=rounds, folder=folder))
    if options is None:
        prepared = prepare(match, executor="local")
    else:
        prepared = prepare(match, executor="dask", executor_options=options)
    own, children = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    summary = run_prepared(prepared)
    wall = time.perf_counter() - wall
    own = cpu(resource.RUSAGE_SELF) - own
    children = cpu(resource.RUSAGE_CHILDREN) - children
    if summary.errors:
        raise SystemExit(f"the run failed: {summary.errors}")
    shutil.rmtree(folder)
    return summary.played, (wall, own, children)


@contextmanager
def cluster(work: Path, name: str, workers: int, threads: int) -> Iterator[str]:
    """A scheduler and ``workers`` worker processes of ``threads`` threads, as subprocesses
    (their output in ``work``), stopped on exit; yields the scheduler's address."""
    import distributed

    slug = name.replace(" ", "-")
    scheduler_file = work / f"{slug}-scheduler.json"
    processes: list[subprocess.Popen[bytes]] = []
    try:
        with open(work / f"{slug}-scheduler.log", "wb") as log:
            processes.append(
                subprocess.Popen(
                    [*SCHEDULER, "--scheduler-file", str(scheduler_file)],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            if processes[0].poll() is not None or time.monotonic() > deadline:
                output = Path(log.name).read_text(errors="replace")[-2000:]
                raise SystemExit(f"the scheduler of {name} did not start:\n{output}")
            time.sleep(0.1)
        address: str = json.loads(scheduler_file.read_text())["address"]
        with open(work / f"{slug}-workers.log", "wb") as log:
            processes.append(
                subprocess.Popen(
                    [*WORKER, address, "--nworkers", str(workers), "--nthreads", str(threads)],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120, help="games per run")
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    rounds = max(1, round(args.games / GAMES_PER_ROUND))
    work = Path(tempfile.mkdtemp(prefix="arena-dask-bench-"))
    try:
        options: dict[str, dict[str, Any] | None] = {"local": None}
        with (
            cluster(work, "dask 1x2", *CLUSTERS["dask 1x2"]) as one,
            cluster(work, "dask 2x1", *CLUSTERS["dask 2x1"]) as two,
        ):
            options["dask 1x2"] = {"scheduler": one}
            options["dask 2x1"] = {"scheduler": two}
            for executor in options.values():
                play(work, 1, executor)
            names = list(options)
            timings: dict[str, list[Timing]] = {name: [] for name in names}
            played = 0
            for trial in range(args.trials):
                turn = trial % len(names)
                for name in names[turn:] + names[:turn]:
                    played, timing = play(work, rounds, options[name])
                    timings[name].append(timing)
        python = sys.version.split()[0]
        print(f"{args.trials} trials of {played} Nim games (bots as subprocesses), Python {python}")
        print(f"{'executor':10}{'games/s':>9}{'wall s':>8}{'CPU ms/game':>13}{'+ bots':>8}")
        for name in names:
            runs = timings[name]
            print(
                f"{name:10}{median(played / wall for wall, _, _ in runs):>9.1f}"
                f"{median(wall for wall, _, _ in runs):>8.2f}"
                f"{median(1000 * own / played for _, own, _ in runs):>13.1f}"
                f"{median(1000 * bots / played for _, _, bots in runs):>8.1f}"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
