"""Dominion S-expression bot (v1+). Big Money: Province at $8+, Gold at $6-7, Silver at $3-5."""

from __future__ import annotations

from arena_dominion_sexpr.bot import SexprPlayer, run
from arena_dominion_text.players import BigMoney


def make() -> SexprPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return SexprPlayer(BigMoney())


if __name__ == "__main__":
    run(BigMoney)
