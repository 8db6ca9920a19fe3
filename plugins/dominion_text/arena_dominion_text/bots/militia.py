"""Dominion text bot. Dominiate's "DoubleMilitia": Big Money Ultimate with up to two
Militias (bought just above Silver), always played. ``--suicide-check`` turns on the
simulators' check: never buy a card that ends the game while this bot would lose."""

from __future__ import annotations

from arena_dominion_text.bot import TextPlayer, run
from arena_dominion_text.players import DoubleMilitia


def make() -> TextPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return TextPlayer(DoubleMilitia())


if __name__ == "__main__":
    run(DoubleMilitia)
