"""Dominion S-expression bot (v1+). Mine-BM: Big Money with one Mine bought at $5, played to
turn Silver into Gold or Copper into Silver."""

from __future__ import annotations

from arena_dominion_sexpr.player import SexprPlayer, bot_main, make_bot


def make() -> SexprPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return make_bot("mine")


if __name__ == "__main__":
    bot_main("mine")
