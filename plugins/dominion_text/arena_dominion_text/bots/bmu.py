"""Dominion text bot. Big Money Ultimate: Big Money that buys Duchies and Estates
as the Provinces run out."""

from __future__ import annotations

from arena_dominion_text.player import TextPlayer, bot_main, make_bot


def make() -> TextPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return make_bot("bmu")


if __name__ == "__main__":
    bot_main("bmu")
