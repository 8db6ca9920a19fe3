"""How strong the ``search`` bot is: games against the random, the greedy and the Python
search bot (``search-py``, at the same time per move).

    python plugins/stones/benchmarks/strength.py [--games 100] [--time 1.0] [--workers 2]
        [--opponents random,greedy,search-py] [--setup fixed|random] [--clock wall|cpu]

Each opponent plays ``--games`` games against the searcher in process (the bots still
speak the protocol's messages and every reply is judged) on a pool of worker processes.
Games go in pairs: the same start (a random set-up is drawn once per pair), the searcher
White in one and Black in the other. Both searchers get ``--time`` seconds: the searcher
as its reply limit, the Python search as its budget per move. On the wall clock (the
default) that is what a match gives them, but a loaded machine decides how much either
really thinks; ``--clock cpu`` measures both by CPU time instead (the searcher as on a
match's CPU-time clock, the Python search by its thread's CPU time), so that the figure
does not depend on the load. Prints the searcher's win rate overall and per colour, the
longest move it took against its limit (on that clock), the depth it reached, and how it
lost.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from arena_kernel.plugin import BotClocks
from arena_stones.bot import StonesBot
from arena_stones.bots import greedy, search_py
from arena_stones.bots import random as random_bot
from arena_stones.players import SearchPlayer
from arena_stones.rules import BLACK, WHITE, Position
from arena_stones.simulate import duel

OPPONENTS: dict[str, Callable[[int, float, bool], StonesBot]] = {
    "random": lambda game, seconds, cpu: random_bot.make(seed=game),
    "greedy": lambda game, seconds, cpu: greedy.make(seed=game),
    "search-py": lambda game, seconds, cpu: search_py.make(seconds, cpu=cpu),
}


@dataclass
class Result:
    opponent: str
    searcher_color: int
    won: bool
    longest_move: float
    depths: list[int]
    reason: str


class Timed(StonesBot):
    """The searcher's bot, recording how long each of its moves took (on the clock it
    plays by) and how deep it went."""

    def __init__(self, seconds: float, cpu: bool) -> None:
        self.search = SearchPlayer(seconds)
        super().__init__(self.search)
        if cpu:
            self.search.clocks(BotClocks(reply=seconds, first_reply=seconds, mode="cpu"))
        self.clock = time.process_time if cpu else time.perf_counter
        self.times: list[float] = []
        self.depths: list[int] = []

    def on_message(self, message):  # type: ignore[no-untyped-def]
        start = self.clock()
        replies = super().on_message(message)
        if replies:
            self.times.append(self.clock() - start)
            self.depths.append(self.search.depth)
        return replies


def play(opponent: str, game: int, seconds: float, setup: str, cpu: bool) -> Result:
    searcher = Timed(seconds, cpu)
    other = OPPONENTS[opponent](game, seconds, cpu)
    color = WHITE if game % 2 == 0 else BLACK
    white, black = (searcher, other) if color == WHITE else (other, searcher)
    start = Position.initial(setup, random.Random(game // 2))
    end = duel(white, black, start)
    return Result(
        opponent,
        color,
        end.winner() == color,
        max(searcher.times, default=0.0),
        searcher.depths,
        end.reason(),
    )


def report(results: list[Result], seconds: float, opponents: list[str], clock: str) -> None:
    print(f"{seconds:.3f} s a move by the {'CPU-time' if clock == 'cpu' else 'wall'} clock")
    for opponent in opponents:
        mine = [r for r in results if r.opponent == opponent]
        if not mine:
            continue
        wins = sum(r.won for r in mine)
        by_color = {
            c: (
                sum(r.won for r in mine if r.searcher_color == c),
                sum(r.searcher_color == c for r in mine),
            )
            for c in (WHITE, BLACK)
        }
        depths = [d for r in mine for d in r.depths]
        print(
            f"search vs {opponent:<6} {wins:>3}/{len(mine)} = {wins / len(mine):6.1%}"
            f"  as white {by_color[WHITE][0]}/{by_color[WHITE][1]}"
            f"  as black {by_color[BLACK][0]}/{by_color[BLACK][1]}"
            f"  mean depth {sum(depths) / max(len(depths), 1):.2f}"
            f"  longest move {max(r.longest_move for r in mine):.3f}s of {seconds:.3f}s"
        )
        for reason, count in Counter(r.reason for r in mine if not r.won).most_common():
            print(f"    lost {count}: {reason}")


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="per opponent (100)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move (1.0)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--setup", choices=("fixed", "random"), default="fixed")
    parser.add_argument(
        "--opponents", default=",".join(OPPONENTS), help="comma-separated (all three)"
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what --time measures: the wall clock, as a match's default, or CPU time, "
        "which the machine's load does not change (wall)",
    )
    args = parser.parse_args()
    opponents = args.opponents.split(",")
    unknown = set(opponents) - set(OPPONENTS)
    if unknown:
        parser.error(f"no such opponent: {', '.join(sorted(unknown))}")
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [
            pool.submit(play, opponent, game, args.time, args.setup, args.clock == "cpu")
            for opponent in opponents
            for game in range(args.games)
        ]
        results = [f.result() for f in futures]
    report(results, args.time, opponents, args.clock)
    print(f"{len(results)} games in {time.perf_counter() - started:.0f}s, load average {load()}")


if __name__ == "__main__":
    main()
