"""What each version of the S-expression protocol plays on THE Dominion engine of
:mod:`arena_dominion_text.rules`: its kingdom, and where the course's reference server
differed from the official rules.

``rules = "course"`` has no Curse pile in any version and, from v2 on, lets an
``(add treasure)`` through only while a buy is left; the engine's own ``course`` rules end
the game only with the Province pile and let equal VP share the win.
"""

from __future__ import annotations

from arena_dominion_text.cards import (
    CELLAR,
    MARKET,
    MILITIA,
    MINE,
    MOAT,
    REMODEL,
    SMITHY,
    VILLAGE,
    WOODCUTTER,
    WORKSHOP,
)
from arena_dominion_text.rules import COURSE

KINGDOMS = {
    1: (MINE,),
    2: (MINE, CELLAR, MARKET, REMODEL, SMITHY, VILLAGE, WOODCUTTER, WORKSHOP),
    3: (MINE, CELLAR, MARKET, REMODEL, SMITHY, VILLAGE, WOODCUTTER, WORKSHOP, MILITIA, MOAT),
}
"""The kingdom of each protocol version: v1 is Mine only, v2 adds seven actions, v3 the
attack and its reaction."""


def has_curses(version: int, rules: str) -> bool:
    """Whether a game has a Curse pile: from version 2 on, under the official rules only."""
    return version > 1 and rules != COURSE


def why_no_curses(version: int, rules: str) -> str | None:
    """Why ``curse`` is not a card of a game (None when it is one)."""
    if has_curses(version, rules):
        return None
    return (
        "no version of the course protocol has curses"
        if rules == COURSE
        else "version 1 has no curses"
    )


def add_needs_a_buy(version: int, rules: str) -> bool:
    """Whether an ``(add treasure)`` needs a buy left: the course rules, from version 2 on."""
    return rules == COURSE and version > 1
