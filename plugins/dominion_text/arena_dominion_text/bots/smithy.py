"""Dominion text bot. Smithy-BM: Big Money Ultimate with one Smithy per 11
Treasures, always played."""

from __future__ import annotations

from arena_dominion_text.bot import TextPlayer, run
from arena_dominion_text.players import SmithyBigMoney


def make() -> TextPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return TextPlayer(SmithyBigMoney())


if __name__ == "__main__":
    run(SmithyBigMoney)
