"""Speed Clue bot: a full knowledge base; asks about the likeliest envelope cards (``--seed N``)."""

from __future__ import annotations

from arena_speedclue.bot import ClueBot, run
from arena_speedclue.players import Deducer


def make(seed: int | None = None) -> ClueBot:
    return ClueBot(Deducer(seed))


if __name__ == "__main__":
    run(lambda args: Deducer(args.seed))
