"""Dominion S-expression bot (v1+). Big Money: Province at $8+, Gold at $6-7, Silver at $3-5."""

from __future__ import annotations

from arena_dominion_sexpr.player import SexprPlayer, bot_main, make_bot


def make() -> SexprPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return make_bot("bigmoney")


if __name__ == "__main__":
    bot_main("bigmoney")
