"""How strong the probability player is against the contest's sample strategy.

    python plugins/liarsdice/benchmarks/strength.py [--games 500] [--seed 2023] [--dice 6]

Plays in process with the rules engine (:func:`arena_liarsdice.simulate.play_game`), judged
as the referee judges: ``prob`` against one ``basic`` (target: at least 75 % wins), against
three ``basic`` (target: at least 60 %), and against ``random`` for reference. Each game draws
``prob``'s seat and the playing order. Prints the win rate per line-up with its 95 % margin,
the rounds per game and the time per game.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

try:
    import arena_liarsdice  # noqa: F401
except ImportError:  # run from a checkout without the plugin installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena_liarsdice.players import Player, make_player
from arena_liarsdice.simulate import play_game

LINEUPS: tuple[tuple[str, int, float | None], ...] = (
    ("basic", 2, 0.75),
    ("basic", 4, 0.60),
    ("random", 2, None),
    ("random", 4, None),
)
"""``(opponent, players, target win rate)``."""


def lineup(opponent: str, n: int, games: int, seed: int, dice: int) -> tuple[int, int, float]:
    """``(prob's wins, rounds, seconds)`` over ``games`` games of ``prob`` and ``n - 1``
    ``opponent`` players."""
    rng = random.Random(seed)
    wins = rounds = 0
    start = time.perf_counter()
    for _ in range(games):
        players: list[Player] = [make_player(opponent, rng.getrandbits(32)) for _ in range(n)]
        seat = rng.randrange(n)
        players[seat] = make_player("prob", rng.getrandbits(32))
        result = play_game(players, rng, dice)
        wins += result.winner == seat
        rounds += result.rounds
    return wins, rounds, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2023)
    parser.add_argument("--dice", type=int, default=6, help="dice per player")
    args = parser.parse_args()
    missed = False
    for opponent, n, target in LINEUPS:
        wins, rounds, seconds = lineup(opponent, n, args.games, args.seed, args.dice)
        rate = wins / args.games
        margin = 1.96 * math.sqrt(rate * (1 - rate) / args.games)
        verdict = ""
        if target is not None:
            verdict = f" (target {target:.0%}: {'met' if rate >= target else 'MISSED'})"
            missed |= rate < target
        print(
            f"prob vs {n - 1} {opponent}: {wins}/{args.games} = {rate:.1%} "
            f"± {margin:.1%}{verdict}; {rounds / args.games:.1f} rounds, "
            f"{seconds / args.games * 1000:.2f} ms per game"
        )
    if missed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
