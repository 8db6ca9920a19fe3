"""Dominion text bot: uniformly random legal choices (``--seed N`` to repeat a game)."""

from __future__ import annotations

import random

from arena_dominion_text.bot import TextPlayer, run
from arena_dominion_text.players import RandomStrategy


def make(seed: int | None = None) -> TextPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return TextPlayer(RandomStrategy(random.Random(seed)))


if __name__ == "__main__":
    run(RandomStrategy, seeded=True)
