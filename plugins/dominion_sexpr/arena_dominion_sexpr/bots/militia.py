"""Dominion S-expression bot (v3). Militia-BM: Big Money Ultimate with up to two Militias,
always played."""

from __future__ import annotations

from arena_dominion_sexpr.player import SexprPlayer, bot_main, make_bot


def make() -> SexprPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return make_bot("militia")


if __name__ == "__main__":
    bot_main("militia")
