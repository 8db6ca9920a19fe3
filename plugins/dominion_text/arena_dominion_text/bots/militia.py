"""Dominion text bot. Dominiate's "DoubleMilitia": Big Money Ultimate with up to two
Militias (bought just above Silver), always played. ``--suicide-check`` turns on the
simulators' check: never buy a card that ends the game while this bot would lose."""

from __future__ import annotations

from arena_dominion_text.player import TextPlayer, bot_main, make_bot


def make() -> TextPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return make_bot("militia")


if __name__ == "__main__":
    bot_main("militia")
