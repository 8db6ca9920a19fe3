"""Liar's Dice bot: random raises near the last bid, a challenge now and then (``--seed N``)."""

from __future__ import annotations

from arena_liarsdice.bot import DiceBot, run
from arena_liarsdice.players import RandomPlayer


def make(seed: int | None = None) -> DiceBot:
    return DiceBot(RandomPlayer(seed))


if __name__ == "__main__":
    run(RandomPlayer)
