"""Win, loss and tie rates of one built-in strategy against another, in process.

    python plugins/dominion_text/benchmarks/matchup.py militia bmu [--games 10000] [--seed 0]

Plays ``--games`` two-player games with :func:`arena_dominion_text.simulate.simulate`, once
with both bots as published and once with both doing the simulators' suicide check (never
buy a card that ends the game while losing), and prints each set of figures. Seats are
randomised by the engine's first-player draw; every game has its own seed, the same in
both sets.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

from arena_dominion_text.players import STRATEGIES, Strategy
from arena_dominion_text.simulate import simulate

FIGURES = ("A wins", "B wins", "ties", "first seat wins", "second seat wins")


def measure(
    make_a: Callable[[], Strategy], make_b: Callable[[], Strategy], games: int, seed: int
) -> dict[str, float]:
    """Percentages of each of :data:`FIGURES` over ``games`` games, A in seat 0."""
    counts = dict.fromkeys(FIGURES, 0)
    for game_seed in range(seed, seed + games):
        result = simulate([make_a(), make_b()], game_seed)
        winners = result.winners
        if len(winners) == 2:
            counts["ties"] += 1
            continue
        counts["A wins" if winners[0] == 0 else "B wins"] += 1
        counts["first seat wins" if winners[0] == result.first else "second seat wins"] += 1
    return {figure: 100 * count / games for figure, count in counts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", choices=sorted(STRATEGIES))
    parser.add_argument("b", choices=sorted(STRATEGIES))
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    a, b = STRATEGIES[args.a], STRATEGIES[args.b]
    print(f"A = {args.a}, B = {args.b}: {args.games} games each, 2 players, seats randomised")
    print(f"{'suicide check':<14} " + " ".join(f"{figure:>16}" for figure in FIGURES))
    for check in (False, True):
        start = time.perf_counter()
        make_a = partial(a, suicide_check=check)
        make_b = partial(b, suicide_check=check)
        measured = measure(make_a, make_b, args.games, args.seed)
        elapsed = time.perf_counter() - start
        cells = " ".join(f"{measured[figure]:>15.2f}%" for figure in FIGURES)
        print(f"{'on' if check else 'off':<14} {cells}   ({elapsed:.1f} s)")


if __name__ == "__main__":
    main()
