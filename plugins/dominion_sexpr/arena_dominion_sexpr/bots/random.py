"""Dominion S-expression bot: uniformly random legal choices (``--seed N`` to repeat a game)."""

from __future__ import annotations

import random

from arena_dominion_sexpr.bot import SexprPlayer, run
from arena_dominion_text.players import RandomStrategy


def make(seed: int | None = None) -> SexprPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return SexprPlayer(RandomStrategy(random.Random(seed)))


if __name__ == "__main__":
    run(RandomStrategy, seeded=True)
