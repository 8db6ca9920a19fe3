"""Reproduce the rules file's reference table with the engine and the reference bots.

    python plugins/dominion_text/benchmarks/reference_table.py [--games 5000] [--seed 0]

Independent public simulators agree on these figures, so matching them within 2.5
percentage points is evidence that the rules engine and the bots are right together.
Seats are randomised by the engine's first-player draw; every game has its own seed.
The last row is the BMU mirror with the simulators' suicide check on both sides, whose
ties the rules file gives separately. Exits 1 if any figure is off by more than the
tolerance.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial

from matchup import measure

from arena_dominion_text.players import BigMoney, BigMoneyUltimate, SmithyBigMoney, Strategy

TOLERANCE = 2.5

# (label, bot A, bot B, {figure: reference percentage}); a range's midpoint is the reference.
ROWS: list[tuple[str, Callable[[], Strategy], Callable[[], Strategy], dict[str, float]]] = [
    (
        "BM mirror",
        BigMoney,
        BigMoney,
        {
            "A wins": 33.0,
            "B wins": 33.0,
            "ties": 33.0,
            "first seat wins": 24.0,
            "second seat wins": 43.0,
        },
    ),
    (
        "BMU mirror",
        BigMoneyUltimate,
        BigMoneyUltimate,
        {"A wins": 46.0, "B wins": 46.0, "ties": 8.0, "first seat wins": 51.5},
    ),
    ("BMU vs BM", BigMoneyUltimate, BigMoney, {"A wins": 80.5, "B wins": 15.5, "ties": 3.5}),
    ("Smithy-BM vs BM", SmithyBigMoney, BigMoney, {"A wins": 93.7, "B wins": 5.0, "ties": 1.3}),
    (
        "BMU mirror, check",
        partial(BigMoneyUltimate, suicide_check=True),
        partial(BigMoneyUltimate, suicide_check=True),
        {"ties": 8.5},
    ),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    worst = 0.0
    print(f"{args.games} games per row, 2 players, official rules, seats randomised")
    print(f"{'matchup':<17} {'figure':<17} {'measured':>9} {'reference':>10} {'diff':>6}")
    for label, a, b, reference in ROWS:
        start = time.perf_counter()
        measured = measure(a, b, args.games, args.seed)
        elapsed = time.perf_counter() - start
        for figure, expected in reference.items():
            diff = measured[figure] - expected
            worst = max(worst, abs(diff))
            flag = "" if abs(diff) <= TOLERANCE else "  OFF"
            print(
                f"{label:<17} {figure:<17} {measured[figure]:>8.1f}% {expected:>9.1f}%"
                f" {diff:>+6.1f}{flag}"
            )
        print(f"{'':<17} ({elapsed:.1f} s)")
    verdict = "within" if worst <= TOLERANCE else "NOT within"
    print(f"largest difference {worst:.1f} points: {verdict} {TOLERANCE} points")
    return 0 if worst <= TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main())
