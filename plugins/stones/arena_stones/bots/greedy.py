"""Game of Stones bot: the move with the best material one request ahead (``--seed N``)."""

from __future__ import annotations

from arena_stones.bot import StonesBot, run
from arena_stones.players import GreedyPlayer


def make(seed: int | None = None) -> StonesBot:
    return StonesBot(GreedyPlayer(seed))


if __name__ == "__main__":
    run(lambda args: GreedyPlayer(args.seed), seeded=True)
