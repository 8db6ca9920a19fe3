"""Dominion text bot. Big Money: Province at $8+, Gold at $6-7, Silver at $3-5, nothing else."""

from __future__ import annotations

from arena_dominion_text.bot import TextPlayer, run
from arena_dominion_text.players import BigMoney


def make() -> TextPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return TextPlayer(BigMoney())


if __name__ == "__main__":
    run(BigMoney)
