"""How strong the probability player is against the contest's sample strategy.

    python plugins/liarsdice/benchmarks/strength.py [--games 500] [--seed 2023] [--dice 6]
                                                    [--referee]

``prob`` against one ``basic`` (target: at least 75 % wins), against three ``basic``
(target: at least 60 %), and against ``random`` for reference. By default the games are
played in process with the rules engine (:func:`arena_liarsdice.simulate.play_game`), judged
as the referee judges, each drawing ``prob``'s seat and the playing order. ``--referee``
plays them through the real referee instead: the built-in bots as TCP programs in one
session per worker, seats rotating, results in a SQLite file in a temporary folder. Prints
the win rate per line-up with its 95 % margin, the rounds per game and the time per game.
"""

from __future__ import annotations

import argparse
import math
import random
import tempfile
import time
from pathlib import Path

from arena_kernel.testkit import run_match, stored_games
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


def through_referee(
    opponent: str, n: int, games: int, seed: int, dice: int
) -> tuple[int, int, float]:
    """The same as :func:`lineup`, played by the arena: ``prob`` and ``n - 1`` opponents."""
    bots = [("prob", "prob")] + [(f"{opponent}-{i}", opponent) for i in range(1, n)]
    lines = [
        'game = "liarsdice"',
        f"seats = {n}",
        f"games = {games}",
        f"seed = {seed}",
        "concurrency = 2",
        'scorers = ["wins"]',
        'database = "strength.sqlite"',
        f"[game_options]\ndice = {dice}",
        *(f'[[bots]]\nname = "{name}"\nbuiltin = "{kind}"' for name, kind in bots),
    ]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "strength.toml"
        path.write_text("\n".join(lines) + "\n")
        summary = run_match(path)
        if summary.errors:
            raise SystemExit("\n".join(summary.errors))
        wins = rounds = 0
        for result, detail, _events in stored_games(summary):
            wins += result.ranks[result.seating.index("prob")] == 1
            rounds += detail.details["rounds"]
    return wins, rounds, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2023)
    parser.add_argument("--dice", type=int, default=6, help="dice per player")
    parser.add_argument("--referee", action="store_true", help="through the real referee")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    play = through_referee if args.referee else lineup
    missed = False
    for opponent, n, target in LINEUPS:
        wins, rounds, seconds = play(opponent, n, args.games, args.seed, args.dice)
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
