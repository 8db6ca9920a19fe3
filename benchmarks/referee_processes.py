"""What several referee processes (``referees`` in the match file) buy a run whose referee
is the busy part: ``arena run`` of in-process Nim games with one process and with two.

    python benchmarks/referee_processes.py [--games 2000] [--trials 5] [--concurrency 8]
        [--compare DIR]

Each trial runs ``arena run -q`` (the console script, as users run it) on a fresh database
for every ``--referees`` count in turn, in an order rotated per trial, the same match file
but for ``referees`` (``--concurrency`` games at once in all, the bots ``inproc = true``),
once with ``--games`` games and once with twice as many. For each run it measures the wall
clock, the CPU time of every process of the run together (the run's process and the
referee processes it started, which it waits for) and, by ``cpu_probe.py`` (a plugin given
with ``-p``), the run's own process's part: what is left is the other referee
processes' (the workers').

The difference between the two lengths is what a game costs once the processes are up
(each more referee process costs some 0.3 s of CPU to start, the run's process its own
start): the steady figure, which a long run sees. The machine is shared, so the wall clock
says how fast the run went here (over the longer run, and steady: the difference), and the CPU
times what it costs wherever it runs. From
the steady CPU times, the games per second ``--cores`` free cores would play: at best
(``balanced``) the cores over the CPU time per game of all the processes together, which
the sessions reach when they go to whichever process is free first, as they do; and as
the processes shared the games here (``as here``), one over the CPU time per game of the
busiest one (the run's own, which also stores every game, or a worker: theirs taken as
even). Those figures take a process never to wait: the ``free`` one counts the waits
too. It is the wall clock less the time the run's processes were ready to run and waited
for a CPU held by others (the least of their main threads', from ``/proc``'s schedstat
through the probe): what the run would have taken on cores of its own, its waits for the
disk and for one another included. Medians over the trials, and the medians of the
per-trial ratios to one process.

What the machine allows is measured too, in each trial: the CPU time of a fixed piece of
Python work much like a referee's (making and reading small dicts, lists and strings), done
in one process alone and in ``--cores`` processes at once. Cores that share a cache, a
memory bus or, on a virtual machine, a physical core do that work slower together than
alone, whatever the program; ``ceiling`` is the games per second ``--cores`` such
processes could play against one, had the runs no cost of their own in sharing the games.

``--compare DIR`` runs every run of a trial again with the ``arena_kernel`` package found
in DIR (a copy of the kernel from before a change, first on ``PYTHONPATH``), and reports
its table too.

Where it stands (two cores of a virtual machine that other work loaded, load 5 to 11,
so that every figure below moved 20-40 % from run to run): a worker's messages leave a
few turns of its event loop to a frame while it has sessions in hand (``Wire.holding``),
1.55 frames per game it plays before, 0.59 after (counted in a loaded run of 2000 games).
Two runs of 3 trials of 2000 and 4000 games against the kernel of before in the same runs
gave 1.48x and 1.56x balanced (the kernel before: 1.23x and 1.86x), 1.47x and 1.55x as
here (1.18x, 1.81x), ceilings 2.01x and 1.98x: at this load the table cannot tell the
two apart. Paired, in two sets of 7 interleaved runs of 3000 games with two processes, the
CPU time of the whole run was 0.94 and 0.95 of the kernel before's (medians; 0.83 to 1.05,
less in 11 runs of 14). Instructions
(callgrind, 300 and 900 games, which the load does not move): one process 5.23 M a game
steady, two 5.93 M before and 5.87 M after: what the frames cost is, it seems, mostly
the operating system's (system calls, wake-ups), which callgrind does not count. Two
processes thus execute 12-13 % more a game than one (a game's events made into objects
in the worker, pickled as columns and made again in the run's process, which stores
them), while on a quiet machine, before, their CPU time a game was 24 % more (2.943 ms
against 2.370: 1.54x balanced, ceiling 2.00x): the rest is the two cores slowing each
other down, which the ceiling's small allocating work does not show.

On the quiet machine again later (load near 1, nothing else running; this kernel with
the stones referee's one loop turn a request and the event log's events made in C), two
runs of 3 trials of 2000 and 4000 games: 2.06x free, 2.16x balanced, 2.11x as here, with
the kernel of 9b9f5b3 at 1.94x, 2.02x and 2.01x in the same run (ceiling 1.86x); and, this
kernel alone, 1.87x free, 1.95x balanced, 1.93x as here (ceiling 1.89x). A game cost
1.52-1.53 ms of CPU in one process and 1.33-1.42 ms steady in two: the same machine, an
hour before, took 2.37 ms in one. How fast the two cores are together moves with what
else their host runs, more than with this kernel: 1.8x is reached when the host is
quiet and was not an hour before.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

from cli_startup import arena_command
from nim_match import in_process_nim

BENCHMARKS = Path(__file__).resolve().parent


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_run(
    folder: Path, games: int, concurrency: int, referees: int, tree: Path | None = None
) -> dict[str, float]:
    """``arena run`` of a fresh match in ``folder`` (with the kernel in ``tree``, None:
    this one); its figures."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    match = folder / "nim.toml"
    match.write_text(in_process_nim(games, concurrency, referees))
    paths = [str(BENCHMARKS)] if tree is None else [str(tree), str(BENCHMARKS)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte code cached, as in a user's install
    before, began = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [*arena_command(), "run", "-q", "-p", "cpu_probe", str(match)],
        env=env,
        capture_output=True,
        text=True,
        cwd=folder,
        check=False,
    )
    wall, total = time.perf_counter() - began, children_cpu() - before
    if done.returncode != 0 or f"{games} games played now" not in done.stdout:
        raise SystemExit(f"the run failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    probes = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    own = probes[-1]["exit"]
    free = wall - min(probe["waited"] for probe in probes)
    return {"wall": wall, "free": free, "total": total, "own": own, "referees": total - own}


def referee_like_work(start: Any, times: Any) -> None:
    """Once ``start`` lets it, a fixed piece of allocating Python work; its CPU seconds
    into ``times``."""
    start.wait()
    began = time.process_time()
    for _round in range(20):
        made = [{"a": i, "b": str(i), "c": [i, i + 1]} for i in range(20_000)]
        sum(len(item["b"]) for item in made)
    times.put(time.process_time() - began)


def work_times(processes: int) -> list[float]:
    """The CPU seconds of the work in each of ``processes`` doing it at once."""
    context = multiprocessing.get_context("fork")
    start, times = context.Barrier(processes), context.Queue()
    workers = [
        context.Process(target=referee_like_work, args=(start, times)) for _ in range(processes)
    ]
    for worker in workers:
        worker.start()
    found = [times.get() for _ in workers]
    for worker in workers:
        worker.join()
    return found


def ceiling(cores: int) -> float:
    """``cores`` times the CPU time of the work alone over its mean CPU time in ``cores``
    processes at once (medians of three, alternated)."""
    alone, together = [], []
    for _ in range(3):
        alone += work_times(1)
        together += work_times(cores)
    return cores * median(alone) / median(together)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--referees", default="1,2", help="the counts to compare (1,2)")
    parser.add_argument("--cores", type=int, default=2, help="the free cores to figure for")
    parser.add_argument("--compare", metavar="DIR", type=Path, help="also this arena_kernel")
    args = parser.parse_args()
    counts = [int(n) for n in args.referees.split(",")]
    games = args.games
    trees: list[Path | None] = [None] if args.compare is None else [None, args.compare]
    measured: dict[Path | None, dict[int, list[dict[str, float]]]] = {
        tree: {n: [] for n in counts} for tree in trees
    }
    ceilings: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        for tree in trees:
            one_run(Path(scratch) / "warm", 50, args.concurrency, 1, tree)  # byte code made
        for trial in range(args.trials):
            ceilings.append(ceiling(args.cores))
            order = counts[trial % len(counts) :] + counts[: trial % len(counts)]
            for n in order:
                for tree in trees:
                    short = one_run(Path(scratch) / f"r{n}", games, args.concurrency, n, tree)
                    long = one_run(Path(scratch) / f"r{n}", 2 * games, args.concurrency, n, tree)
                    steady = {f"steady {k}": (long[k] - short[k]) / games for k in short}
                    whole = {f"whole {k}": long[k] / (2 * games) for k in long}
                    measured[tree][n].append({**whole, **steady})
    print(
        f"ceiling: {args.cores} processes of allocating Python work do it "
        f"{median(ceilings):.2f}x as fast as one (per trial: "
        + ", ".join(f"{c:.2f}" for c in ceilings)
        + ")"
    )
    for tree in trees:
        if args.compare is not None:
            print("this arena_kernel:" if tree is None else f"arena_kernel in {tree}:")
        table(measured[tree], counts, args)


def table(runs: dict[int, list[dict[str, float]]], counts: list[int], args: Any) -> None:
    """The figures of one kernel's runs."""
    games = args.games

    def free_cores(run: dict[str, float], n: int) -> tuple[float, float]:
        """Games per second the steady CPU times allow on ``args.cores`` free cores:
        balanced, and with the processes' shares as here."""
        own, others = run["steady own"], run["steady referees"]
        processes = min(n, args.cores)
        balanced = processes / run["steady total"]
        as_here = 1 / max(own, others / (n - 1)) if n > 1 else 1 / run["steady total"]
        return balanced, min(balanced, as_here)

    print(
        f"In-process Nim games, concurrency {args.concurrency}, {args.trials} interleaved "
        f"trials of {games} and {2 * games} games, {os.cpu_count()} CPUs here (shared); "
        "medians, CPU in ms per game:"
    )
    print(
        f"{'referees':>8} {'games/s here':>13} {'steady':>7} {'free':>5} {'CPU, whole run':>15}"
        f" {'CPU, steady':>12}"
        f" {'run process':>12} {'workers':>8}"
        f" {f'games/s on {args.cores} free cores: balanced, as here':>44}"
        f" {'ratios to ' + str(counts[0]) + ': free, balanced, as here':>34}"
    )
    base = runs[counts[0]]
    for n in counts:
        results = runs[n]
        figures = [free_cores(r, n) for r in results]
        bases = [free_cores(b, counts[0]) for b in base]
        balanced = median(f[0] / b[0] for f, b in zip(figures, bases, strict=True))
        as_here = median(f[1] / b[1] for f, b in zip(figures, bases, strict=True))
        free = median(
            b["steady free"] / r["steady free"] for r, b in zip(results, base, strict=True)
        )
        print(
            f"{n:>8} {median(1 / r['whole wall'] for r in results):13.0f}"
            f" {median(1 / r['steady wall'] for r in results):7.0f}"
            f" {median(1 / r['steady free'] for r in results):5.0f}"
            f" {median(r['whole total'] for r in results) * 1e3:15.3f}"
            f" {median(r['steady total'] for r in results) * 1e3:12.3f}"
            f" {median(r['steady own'] for r in results) * 1e3:12.3f}"
            f" {median(r['steady referees'] for r in results) * 1e3:8.3f}"
            f" {median(f[0] for f in figures):36.0f} {median(f[1] for f in figures):7.0f}"
            f" {free:17.2f}x {balanced:5.2f}x {as_here:5.2f}x"
        )


if __name__ == "__main__":
    main()
