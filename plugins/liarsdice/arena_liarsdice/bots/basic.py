"""Liar's Dice bot: the contest's sample strategy (``--seed N``).

Challenge one time in five, else raise the count by one.
"""

from __future__ import annotations

from arena_liarsdice.bot import DiceBot, run
from arena_liarsdice.players import BasicPlayer


def make(seed: int | None = None) -> DiceBot:
    return DiceBot(BasicPlayer(seed))


if __name__ == "__main__":
    run(BasicPlayer)
