"""How strong the deducer is: 3-player games against two random bots, rotating seats.

    python plugins/speedclue/benchmarks/strength.py [--games 300] [--inproc] [--simulate]

By default the games go through the real referee: a match of the ``deducer`` and two
``random`` bots as TCP programs, seats rotating (game ``g`` is rotation ``g % 3``), stored in
a SQLite file in a temporary folder. ``--inproc`` runs the bots in the arena's process
instead; ``--simulate`` skips the referee and plays the players directly (the rules engine's
speed). The deducer should win at least 70 % of its games. Prints the win rate overall and
per seat, how the games ended, and the time per game.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections import Counter
from pathlib import Path

from arena_kernel.testkit import run_match, stored_games
from arena_speedclue.players import Deducer, Player, RandomPlayer
from arena_speedclue.simulate import play_game

TARGET = 0.70

MATCH = """\
game = "speedclue"
seats = 3
games = {games}
seed = {seed}
concurrency = 2
scorers = ["wins"]
database = "strength.sqlite"

[[bots]]
name = "deducer"
builtin = "deducer"{inproc}

[[bots]]
name = "random-1"
builtin = "random"{inproc}

[[bots]]
name = "random-2"
builtin = "random"{inproc}
"""


def through_referee(games: int, seed: int, inproc: bool) -> tuple[Counter, Counter, Counter]:
    """``(wins by seat, games by seat, endings)`` of the deducer in a real arena run."""
    wins: Counter[int] = Counter()
    played: Counter[int] = Counter()
    endings: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "strength.toml"
        flag = "\ninproc = true" if inproc else ""
        path.write_text(MATCH.format(games=games, seed=seed, inproc=flag))
        summary = run_match(path)
        if summary.errors:
            raise SystemExit("\n".join(summary.errors))
        for result, _detail, _events in stored_games(summary):
            if result.void:
                raise SystemExit(f"game {result.index} is void: {result.reason}")
            seat = result.seating.index("deducer")
            played[seat] += 1
            won = result.ranks[seat] == 1
            wins[seat] += won
            how = "accusation" if "accused" in result.reason else "last standing"
            endings[f"{'won' if won else 'lost'}, {how}"] += 1
    return wins, played, endings


def simulated(games: int, seed: int) -> tuple[Counter, Counter, Counter]:
    rng = random.Random(seed)
    wins: Counter[int] = Counter()
    played: Counter[int] = Counter()
    endings: Counter[str] = Counter()
    for g in range(games):
        seat = g % 3
        players: list[Player] = [RandomPlayer(rng.getrandbits(32)) for _ in range(3)]
        players[seat] = Deducer(rng.getrandbits(32))
        result = play_game(players, rng)
        played[seat] += 1
        won = result.winner == seat
        wins[seat] += won
        how = "accusation" if result.by_accusation else "last standing"
        endings[f"{'won' if won else 'lost'}, {how}"] += 1
    return wins, played, endings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2014)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--inproc", action="store_true", help="bots in the arena's process")
    mode.add_argument("--simulate", action="store_true", help="no referee: players only")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    start = time.perf_counter()
    if args.simulate:
        wins, played, endings = simulated(args.games, args.seed)
        how = "simulated (no referee)"
    else:
        wins, played, endings = through_referee(args.games, args.seed, args.inproc)
        how = "referee, in-process bots" if args.inproc else "referee, TCP bot programs"
    elapsed = time.perf_counter() - start
    total = sum(played.values())
    rate = sum(wins.values()) / total
    print(f"deducer vs 2 random, {total} games ({how}): win rate {rate:.1%} (target {TARGET:.0%})")
    for seat in sorted(played):
        print(f"  seat {seat}: {wins[seat]}/{played[seat]} = {wins[seat] / played[seat]:.1%}")
    for ending, count in endings.most_common():
        print(f"  {ending}: {count}")
    print(f"  {elapsed:.1f} s in all, {elapsed / total * 1000:.1f} ms per game")


if __name__ == "__main__":
    main()
