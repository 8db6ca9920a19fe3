"""Liar's Dice bot: the contest's sample strategy (``--seed N``).

Whenever a bid exists it challenges one time in five, on its turn or not; otherwise, on
its turn, it bids the last face with one die more.
"""

from __future__ import annotations

from arena_liarsdice.bot import DiceBot, run
from arena_liarsdice.players import BasicPlayer


def make(seed: int | None = None) -> DiceBot:
    return DiceBot(BasicPlayer(seed))


if __name__ == "__main__":
    run(BasicPlayer)
