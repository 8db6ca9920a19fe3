"""Dominion S-expression bot (v2+). Smithy-BM: Big Money Ultimate with one Smithy per 11
Treasures, always played."""

from __future__ import annotations

from arena_dominion_sexpr.bot import SexprPlayer, run
from arena_dominion_text.players import SmithyBigMoney


def make() -> SexprPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return SexprPlayer(SmithyBigMoney())


if __name__ == "__main__":
    run(SmithyBigMoney)
