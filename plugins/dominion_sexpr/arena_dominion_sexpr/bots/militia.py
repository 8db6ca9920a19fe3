"""Dominion S-expression bot (v3). Militia-BM: Big Money Ultimate with up to two Militias,
always played."""

from __future__ import annotations

from arena_dominion_sexpr.bot import SexprPlayer, run
from arena_dominion_text.players import DoubleMilitia


def make() -> SexprPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return SexprPlayer(DoubleMilitia())


if __name__ == "__main__":
    run(DoubleMilitia)
