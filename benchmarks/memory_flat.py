"""Whether a run's memory stays flat over a million games: the resident memory of a run of
in-process Nim games as its games end, from the first thousand to the last.

    python benchmarks/memory_flat.py [--games 1000000] [--concurrency 8] [--keep DIR]

The run is ``run_prepared`` of a match file (what ``arena run`` does, in this process and
without its progress line), two built-in bots in process, one referee process (so that
every game's referee, its channels, timers, event logs and store writes are this
process's), every game stored in a fresh database. An observer notes, as the 1,000th,
10,000th, 100,000th game and every further 100,000th end, the resident memory of the
process (``/proc/self/statm``: what it holds now, not its peak), the games per second and
the CPU time per game so far, and prints them as it goes; at the end, the resident memory
after the last game against after the 10,000th. A game that keeps something alive after it
ended (a cancelled timer holding its channel, connection and log, as one did) shows as
memory that grows with the games.

A million games take a while: at about 1.5 ms of CPU each, some 25 minutes of one core
(and the database, some 0.5 GB, in a temporary folder unless ``--keep``).
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from nim_match import in_process_nim

from arena_kernel.markers import hookimpl
from arena_kernel.runner.api import prepare, run_prepared

PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE / 2**20


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Checkpoints:
    """Notes the memory as games end (see the module's docstring)."""

    def __init__(self, games: int) -> None:
        self.games = games
        self.ended = 0
        self.began = time.perf_counter()
        self.cpu = cpu()
        self.seen: dict[int, float] = {}

    def due(self, count: int) -> bool:
        return count in (1_000, 10_000) or count % 100_000 == 0 or count == self.games

    @hookimpl
    def arena_game_end(self) -> None:
        self.ended += 1
        if not self.due(self.ended):
            return
        rss = self.seen[self.ended] = resident_mb()
        wall = time.perf_counter() - self.began
        per_game = (cpu() - self.cpu) / self.ended * 1e3
        print(
            f"{self.ended:>9} games: {rss:7.1f} MB resident, {self.ended / wall:6.0f} games/s,"
            f" {per_game:.3f} ms of CPU a game, {wall / 60:6.1f} min",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--keep", type=Path, help="make the database here, and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        match = folder / "nim.toml"
        match.write_text(in_process_nim(args.games, args.concurrency, referees=1, seed=11))
        checkpoints = Checkpoints(args.games)
        print(
            f"{args.games} in-process Nim games, concurrency {args.concurrency}, one referee "
            f"process; {resident_mb():.1f} MB resident before the run",
            flush=True,
        )
        summary = run_prepared(prepare(match), [checkpoints])
        assert summary.played == args.games, summary
        seen = checkpoints.seen
        if 10_000 in seen:
            last = max(seen)
            print(
                f"resident after {last} games: {seen[last]:.1f} MB, after 10,000: "
                f"{seen[10_000]:.1f} MB ({seen[last] / seen[10_000] - 1:+.1%})"
            )


if __name__ == "__main__":
    main()
