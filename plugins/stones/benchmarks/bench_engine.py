"""How fast the stones rules engine is, in process and without I/O.

    python plugins/stones/benchmarks/bench_engine.py [--seconds 3] [--seed 1]

Prints the move generator's rate (positions and moves per second, over positions taken
from random games from the fixed start), apply+undo pairs per second, the referee's
judge on generated moves, and whole random-vs-random games per second. These bound how
deep a built-in bot can search and how many games a simulation can play.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from arena_stones.rules import Position, move_to_xy


def sample_positions(count: int, rng: random.Random) -> list[Position]:
    """Positions from random games, every request of each game until ``count``."""
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.initial()
        while moves := position.legal_moves():
            positions.append(position.copy())
            position.apply(rng.choice(moves))
    return positions[:count]


def timed(seconds: float, batch: Callable[[], tuple[int, int]]) -> tuple[int, int, float]:
    """Run ``batch()`` (which returns (items, subitems)) until ``seconds`` have passed."""
    items = subitems = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        a, b = batch()
        items += a
        subitems += b
    return items, subitems, elapsed


def bench_generation(positions: list[Position], seconds: float) -> None:
    def batch() -> tuple[int, int]:
        moves = 0
        for position in positions:
            moves += len(position.legal_moves())
        return len(positions), moves

    count, moves, elapsed = timed(seconds, batch)
    print(
        f"legal_moves:   {count / elapsed:>10,.0f} positions/s  {moves / elapsed:>12,.0f} moves/s"
        f"  ({moves / count:.1f} moves per request)"
    )


def bench_apply_undo(positions: list[Position], seconds: float) -> None:
    pairs = [(position, position.legal_moves()) for position in positions]

    def batch() -> tuple[int, int]:
        done = 0
        for position, moves in pairs:
            apply, undo = position.apply, position.undo
            for move in moves:
                undo(apply(move))
            done += len(moves)
        return done, 0

    count, _, elapsed = timed(seconds, batch)
    print(f"apply+undo:    {count / elapsed:>10,.0f} pairs/s")


def bench_judge(positions: list[Position], seconds: float) -> None:
    cases = [(p, [move_to_xy(m) for m in p.legal_moves()[:20]]) for p in positions[:500]]

    def batch() -> tuple[int, int]:
        done = 0
        for position, moves in cases:
            for move in moves:
                position.judge(*move)
            done += len(moves)
        return done, 0

    count, _, elapsed = timed(seconds, batch)
    print(f"judge:         {count / elapsed:>10,.0f} moves/s (the referee's check of a reply)")


def bench_games(seconds: float, rng: random.Random) -> None:
    def batch() -> tuple[int, int]:
        position = Position.initial()
        plies = 0
        while moves := position.legal_moves():
            position.apply(rng.choice(moves))
            plies += 1
        assert position.winner()
        return 1, plies

    games, plies, elapsed = timed(seconds, batch)
    print(
        f"random games:  {games / elapsed:>10,.1f} games/s      "
        f"{plies / elapsed:>12,.0f} requests/s ({plies / games:.1f} requests per game)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure (3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    positions = sample_positions(5000, rng)
    bench_generation(positions, args.seconds)
    bench_apply_undo(positions, args.seconds)
    bench_judge(positions, args.seconds)
    bench_games(args.seconds, rng)


if __name__ == "__main__":
    main()
