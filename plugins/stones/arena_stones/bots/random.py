"""Game of Stones bot: a uniformly random legal move (``--seed N`` to repeat a game)."""

from __future__ import annotations

from arena_stones.bot import StonesBot, run
from arena_stones.players import RandomPlayer


def make(seed: int | None = None) -> StonesBot:
    return StonesBot(RandomPlayer(seed))


if __name__ == "__main__":
    run(lambda args: RandomPlayer(args.seed), seeded=True)
