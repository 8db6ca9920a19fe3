"""Dominion text bot. Big Money: Province at $8+, Gold at $6-7, Silver at $3-5, nothing else."""

from __future__ import annotations

from arena_dominion_text.player import TextPlayer, bot_main, make_bot


def make() -> TextPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return make_bot("bigmoney")


if __name__ == "__main__":
    bot_main("bigmoney")
