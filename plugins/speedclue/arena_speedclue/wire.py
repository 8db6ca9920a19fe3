"""The Speed Clue messages, both ways: what the referee writes and how a reply is read.

The referee and the built-in bots format and parse through this one module, so the two
sides cannot drift apart. Input is read leniently where the spec allows it (keywords and
cards in any case, any run of spaces between words); output uses the exact spelling the
contest server sent, because the contest's bots compare it byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena_speedclue.cards import CardError, Triple, parse_card, parse_triple

NOBODY = "-"
"""Written where a disprover would be when nobody could disprove, and the ``accuse``
answer that declines to accuse."""


class WireError(ValueError):
    """A message that does not have the shape its request calls for."""


def reset(n_players: int, seat: int, hand: Sequence[str]) -> str:
    return f"reset {n_players} {seat} {' '.join(hand)}"


def disprove(suggester: int, triple: Triple) -> str:
    return f"disprove {suggester} {' '.join(triple)}"


def suggestion(active: int, triple: Triple, disprover: int | None, card: str | None) -> str:
    """The broadcast; pass ``card`` only for the suggester's and the disprover's copy."""
    text = f"suggestion {active} {' '.join(triple)} {NOBODY if disprover is None else disprover}"
    return f"{text} {card}" if card is not None and disprover is not None else text


def accusation(player: int, triple: Triple, correct: bool) -> str:
    return f"accusation {player} {' '.join(triple)} {'+' if correct else '-'}"


def alive(identifier: str) -> str:
    return f"{identifier} alive"


# -- reading ------------------------------------------------------------------------


def words(message: str, keyword: str, count: int) -> list[str]:
    """The words after ``keyword``, checking the keyword (any case) and the word count."""
    parts = message.split()
    if not parts or parts[0].lower() != keyword:
        raise WireError(f"expected {keyword!r}, got {_quote(message)}")
    if len(parts) != count + 1:
        raise WireError(
            f"{keyword!r} takes {count} word(s) after it, got {len(parts) - 1}: {_quote(message)}"
        )
    return parts[1:]


def read_ok(message: str, answer: str = "ok") -> None:
    if message.strip().lower() != answer:
        raise WireError(f"expected {answer!r}, got {_quote(message)}")


def read_triple(message: str, keyword: str) -> Triple:
    """``suggest S W R`` or ``accuse S W R``: the triple, checked card by card."""
    try:
        return parse_triple(words(message, keyword, 3))
    except CardError as error:
        raise WireError(f"{error} in {_quote(message)}") from None


def read_disprove(message: str) -> tuple[int, Triple]:
    """``disprove P S W R`` as a bot reads it: the suggester and the suggested triple."""
    suggester, *cards = words(message, "disprove", 4)
    try:
        triple = parse_triple(cards)
        return int(suggester), triple
    except (CardError, ValueError) as error:
        raise WireError(f"{error} in {_quote(message)}") from None


def read_show(message: str) -> str:
    (card,) = words(message, "show", 1)
    try:
        return parse_card(card)
    except CardError as error:
        raise WireError(f"{error} in {_quote(message)}") from None


def read_accuse(message: str) -> Triple | None:
    """``-`` (no accusation) or ``accuse S W R``."""
    if message.strip() == NOBODY:
        return None
    return read_triple(message, "accuse")


def read_alive(message: str, identifier: str) -> None:
    """The handshake, in any case like every other message (the contest server compared
    the whole line ignoring case, so a bot that changes its identifier's case was in)."""
    parts = message.split()
    if len(parts) != 2 or parts[1].lower() != "alive":
        raise WireError(f"expected '{alive(identifier)}', got {_quote(message)}")
    if parts[0].lower() != identifier.lower():
        raise WireError(
            f"wrong identifier {parts[0]!r} in {_quote(message)}, expected {identifier!r}"
        )


@dataclass(frozen=True)
class Suggestion:
    """A ``suggestion`` broadcast as a bot reads it."""

    player: int
    triple: Triple
    disprover: int | None
    card: str | None


def read_suggestion(message: str) -> Suggestion:
    parts = message.split()
    if len(parts) not in (6, 7) or parts[0].lower() != "suggestion":
        raise WireError(f"not a suggestion broadcast: {_quote(message)}")
    try:
        triple = parse_triple(parts[2:5])
        disprover = None if parts[5] == NOBODY else int(parts[5])
        card = parse_card(parts[6]) if len(parts) == 7 else None
        return Suggestion(int(parts[1]), triple, disprover, card)
    except (CardError, ValueError) as error:
        raise WireError(f"{error} in {_quote(message)}") from None


def read_accusation(message: str) -> tuple[int, Triple, bool]:
    player, *cards, result = words(message, "accusation", 5)
    if result not in ("+", "-"):
        raise WireError(f"an accusation ends with + or -, not {result!r}")
    try:
        return int(player), parse_triple(cards), result == "+"
    except (CardError, ValueError) as error:
        raise WireError(f"{error} in {_quote(message)}") from None


def _quote(message: str, limit: int = 80) -> str:
    return repr(message if len(message) <= limit else message[:limit] + "...")
