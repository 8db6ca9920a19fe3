"""The 21 Speed Clue cards, their wire abbreviations and categories.

The contest's bots compare abbreviations exactly, so :data:`CARDS` holds the case the server
sends; the protocol says input is not case-sensitive, so :func:`parse_card` accepts any case
and returns the canonical spelling. Everything else in the plugin handles cards as these
canonical strings, which keeps logs, tests and wire messages identical.
"""

from __future__ import annotations

from collections.abc import Sequence

SUSPECT = "suspect"
WEAPON = "weapon"
ROOM = "room"
CATEGORIES: tuple[str, str, str] = (SUSPECT, WEAPON, ROOM)
"""In suggestion order: a suggestion and an accusation are always ``suspect weapon room``."""

SUSPECTS: tuple[str, ...] = ("Gr", "Mu", "Pe", "Pl", "Sc", "Wh")
WEAPONS: tuple[str, ...] = ("Ca", "Kn", "Pi", "Re", "Ro", "Wr")
ROOMS: tuple[str, ...] = ("Ba", "Bi", "Co", "Di", "Ha", "Ki", "Li", "Lo", "St")
BY_CATEGORY: dict[str, tuple[str, ...]] = {SUSPECT: SUSPECTS, WEAPON: WEAPONS, ROOM: ROOMS}
CARDS: tuple[str, ...] = SUSPECTS + WEAPONS + ROOMS
"""All 21 cards; a card's position here is its index in the bots' bit masks."""
INDEX: dict[str, int] = {card: i for i, card in enumerate(CARDS)}

NAMES: dict[str, str] = {
    "Gr": "Green",
    "Mu": "Mustard",
    "Pe": "Peacock",
    "Pl": "Plum",
    "Sc": "Scarlet",
    "Wh": "White",
    "Ca": "Candlestick",
    "Kn": "Knife",
    "Pi": "Lead Pipe",
    "Re": "Revolver",
    "Ro": "Rope",
    "Wr": "Wrench",
    "Ba": "Ballroom",
    "Bi": "Billiard Room",
    "Co": "Conservatory",
    "Di": "Dining Room",
    "Ha": "Hall",
    "Ki": "Kitchen",
    "Li": "Library",
    "Lo": "Lounge",
    "St": "Study",
}
CATEGORY: dict[str, str] = {card: cat for cat, cards in BY_CATEGORY.items() for card in cards}

_CANONICAL: dict[str, str] = {card.lower(): card for card in CARDS}

Triple = tuple[str, str, str]
"""``(suspect, weapon, room)`` in canonical spelling: a suggestion, accusation or solution."""


class CardError(ValueError):
    """A token is not a card, or a card sits in the wrong category's slot."""


def parse_card(token: str) -> str:
    """The canonical abbreviation of ``token`` in any case; :class:`CardError` if unknown."""
    card = _CANONICAL.get(token.lower())
    if card is None:
        raise CardError(f"{token!r} is not a card abbreviation")
    return card


def parse_triple(tokens: Sequence[str]) -> Triple:
    """Three tokens as a ``(suspect, weapon, room)`` triple, checking count and categories.

    The contest server refused a suggestion naming a room as the suspect, so the order is part
    of validity, not just the set of cards.
    """
    if len(tokens) != 3:
        raise CardError(f"expected suspect, weapon and room, got {len(tokens)} token(s)")
    cards = tuple(parse_card(token) for token in tokens)
    for card, category in zip(cards, CATEGORIES, strict=True):
        if CATEGORY[card] != category:
            raise CardError(f"{card} ({NAMES[card]}) is a {CATEGORY[card]}, not a {category}")
    return cards  # type: ignore[return-value]


def all_triples() -> list[Triple]:
    """Every one of the 6 * 6 * 9 = 324 possible solutions, in a fixed order."""
    return [(s, w, r) for s in SUSPECTS for w in WEAPONS for r in ROOMS]
