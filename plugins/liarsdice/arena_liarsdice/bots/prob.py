"""Liar's Dice bot: the binomial odds of each bid from its own dice (``--seed N``).

It challenges unlikely bids and makes the likeliest raise.
"""

from __future__ import annotations

from arena_liarsdice.bot import DiceBot, run
from arena_liarsdice.players import ProbPlayer


def make(seed: int | None = None) -> DiceBot:
    return DiceBot(ProbPlayer(seed))


if __name__ == "__main__":
    run(ProbPlayer)
