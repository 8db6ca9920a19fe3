"""How strong the deducer is: 3-player games against two random players, rotating seats.

    PYTHONPATH=plugins/speedclue python plugins/speedclue/benchmarks/strength.py [--games 300]

Game ``g`` puts the deducer in seat ``g % 3``, so every seat (and the first-move advantage)
is played equally often. The issue's target is a win rate of at least 70 %. Prints the win
rate overall and per seat, how the deducer's games ended and the time per game.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from arena_speedclue.players import Deducer, Player, RandomPlayer
from arena_speedclue.simulate import play_game

TARGET = 0.70


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2014)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    wins: Counter[int] = Counter()
    played: Counter[int] = Counter()
    endings: Counter[str] = Counter()
    turns = 0
    start = time.perf_counter()
    for g in range(args.games):
        seat = g % 3
        players: list[Player] = [RandomPlayer(rng.getrandbits(32)) for _ in range(3)]
        players[seat] = Deducer(rng.getrandbits(32))
        result = play_game(players, rng)
        played[seat] += 1
        turns += result.turns
        if result.winner == seat:
            wins[seat] += 1
            endings["won by accusation" if result.by_accusation else "won, last standing"] += 1
        else:
            endings["lost to a random player's accusation"] += 1
    elapsed = time.perf_counter() - start
    rate = sum(wins.values()) / args.games
    print(f"deducer vs 2 random, {args.games} games: win rate {rate:.1%} (target {TARGET:.0%})")
    for seat in sorted(played):
        print(f"  seat {seat}: {wins[seat]}/{played[seat]} = {wins[seat] / played[seat]:.1%}")
    for ending, count in endings.most_common():
        print(f"  {ending}: {count}")
    print(f"  {turns / args.games:.1f} turns and {elapsed / args.games * 1000:.1f} ms per game")


if __name__ == "__main__":
    main()
