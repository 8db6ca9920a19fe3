"""Dominion S-expression bot (v1+). Mine-BM: Big Money with one Mine bought at $5, played to
turn Silver into Gold or Copper into Silver."""

from __future__ import annotations

from arena_dominion_sexpr.bot import SexprPlayer, run
from arena_dominion_sexpr.players import MineBigMoney


def make() -> SexprPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return SexprPlayer(MineBigMoney())


if __name__ == "__main__":
    run(MineBigMoney)
