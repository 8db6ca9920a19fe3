"""Speed Clue bot: random new suggestions, an accusation only when certain (``--seed N``)."""

from __future__ import annotations

from arena_speedclue.bot import ClueBot, run
from arena_speedclue.players import RandomPlayer


def make(seed: int | None = None) -> ClueBot:
    return ClueBot(RandomPlayer(seed))


if __name__ == "__main__":
    run(lambda args: RandomPlayer(args.seed))
