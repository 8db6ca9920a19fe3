"""Dominion text bot. Big Money Ultimate: Big Money that buys Duchies and Estates
as the Provinces run out."""

from __future__ import annotations

from arena_dominion_text.bot import TextPlayer, run
from arena_dominion_text.players import BigMoneyUltimate


def make() -> TextPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return TextPlayer(BigMoneyUltimate())


if __name__ == "__main__":
    run(BigMoneyUltimate)
