"""Game of Stones bot: a uniformly random legal move (``--seed N`` to repeat a game)."""

from __future__ import annotations

import random

from arena_stones.engine import Move, Position
from arena_stones.players import Player, run


class RandomPlayer(Player):
    """The baseline every other bot must beat, and a cheap opponent for rules tests."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def choose(self, position: Position) -> Move:
        return self.rng.choice(position.legal_moves())


def make(seed: int | None = None) -> RandomPlayer:
    return RandomPlayer(seed)


if __name__ == "__main__":
    run(lambda args: make(args.seed), seeded=True)
