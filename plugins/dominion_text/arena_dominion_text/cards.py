"""The 17 supply cards of the base set (1st edition) as data.

A card is a small int: index into the parallel tuples below. Simulations touch card
properties millions of times, and a tuple lookup by int is the cheapest way Python offers;
protocols speak names, so :data:`NAMES` and :func:`card` translate at the edge.
"""

from __future__ import annotations

CURSE = 0
COPPER = 1
SILVER = 2
GOLD = 3
ESTATE = 4
DUCHY = 5
PROVINCE = 6
CELLAR = 7
MARKET = 8
MILITIA = 9
MINE = 10
MOAT = 11
REMODEL = 12
SMITHY = 13
VILLAGE = 14
WOODCUTTER = 15
WORKSHOP = 16

NAMES: tuple[str, ...] = (
    "curse",
    "copper",
    "silver",
    "gold",
    "estate",
    "duchy",
    "province",
    "cellar",
    "market",
    "militia",
    "mine",
    "moat",
    "remodel",
    "smithy",
    "village",
    "woodcutter",
    "workshop",
)
"""Lower-case names, as both protocols spell them, in the text protocol's supply order."""

CARDS: tuple[int, ...] = tuple(range(len(NAMES)))
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}

KINGDOM: tuple[int, ...] = (
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
"""The ten kingdom cards of the text protocol, the default kingdom."""

COST: tuple[int, ...] = (0, 0, 3, 6, 2, 5, 8, 2, 5, 4, 5, 2, 4, 4, 3, 3, 3)
COINS: tuple[int, ...] = (0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
"""Coins a Treasure adds when played (Market and Militia's coins are in :data:`PLUS_COINS`)."""
VP: tuple[int, ...] = (-1, 0, 0, 0, 1, 3, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

IS_TREASURE: tuple[bool, ...] = tuple(c in (COPPER, SILVER, GOLD) for c in CARDS)
IS_VICTORY: tuple[bool, ...] = tuple(c in (ESTATE, DUCHY, PROVINCE) for c in CARDS)
IS_ACTION: tuple[bool, ...] = tuple(c in KINGDOM for c in CARDS)

# The "+" effects every Action applies first, in the order the card text lists them;
# Cellar, Militia, Mine, Remodel and Workshop then do their special part in the engine.
PLUS_CARDS: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 3, 1, 0, 0)
PLUS_ACTIONS: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 2, 0, 0)
PLUS_BUYS: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0)
PLUS_COINS: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 2, 0)

STARTING_DECK: tuple[int, ...] = (COPPER,) * 7 + (ESTATE,) * 3
"""Every player's ten cards at the start, in the order the engine shuffles them."""

GAIN_BONUS: dict[int, int] = {MINE: 3, REMODEL: 2}
"""How much more than the trashed card the gain of Mine and Remodel may cost."""
WORKSHOP_MAX = 4
"""Workshop gains a card costing up to this much."""
KEEP_AFTER_ATTACK = 3
"""Militia makes the other players discard down to this many cards."""


def card(name: str) -> int:
    """The card id of a protocol name; ValueError names the unknown card."""
    try:
        return INDEX[name]
    except KeyError:
        raise ValueError(f"unknown card {name!r}") from None


def name(card_id: int) -> str:
    """The protocol name of a card id."""
    return NAMES[card_id]


def lookup(word: str) -> int | None:
    """The card id of a protocol name in any letter case, or None for no card."""
    return INDEX.get(word.lower())
