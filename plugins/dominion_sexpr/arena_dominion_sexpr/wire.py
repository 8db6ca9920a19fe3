"""The S-expression protocol's messages: the data the referee sends (states, ``moved`` and
``defended`` broadcasts) and the reading of a bot's play or defence as its words.

A reply that is not a datum of the grammar is a :class:`BadPlay`, as is a play the rules
forbid now; the referee turns either into a fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena_dominion_text import cards
from arena_dominion_text.rules import Dominion
from arena_kernel.plugin import Symbol

SEAT_NAMES = ("playera", "playerb", "playerc", "playerd")
"""The grammar's names are letters only."""


class BadPlay(Exception):
    """A reply that is not a datum of the grammar, or a play the rules forbid now."""


def sym(*words: str) -> list[Symbol]:
    return [Symbol(w) for w in words]


MILITIA_PLAY = sym("act", "militia")
"""The one attack of the protocol: every other player answers it, whatever its hand."""


def card_list(head: str, card_ids: Sequence[int]) -> list[Any]:
    return [Symbol(head), *(Symbol(cards.name(c)) for c in card_ids)]


def state(game: Dominion, seat: int) -> list[Any]:
    """``seat``'s view: players from ``seat`` on (bots learn their own name from it),
    every supply copy, the trash top first, the turn's counters and play area (zeros
    and none for a victim of an attack, whose turn it is not), its own sorted deck,
    hand and discards (top first)."""
    n = game.players
    own_turn = seat == game.current
    supply: list[Any] = [Symbol("supply")]
    for card in range(len(game.supply)):
        supply.extend([Symbol(cards.name(card))] * max(game.supply[card], 0))
    return [
        [Symbol("players"), *(Symbol(SEAT_NAMES[(seat + i) % n]) for i in range(n))],
        supply,
        card_list("trash", list(reversed(game.trash))),
        [Symbol("actions"), game.actions if own_turn else 0],
        [Symbol("buys"), game.buys if own_turn else 0],
        [Symbol("coins"), game.coins if own_turn else 0],
        card_list("deck", sorted(game.decks[seat], key=cards.name)),
        card_list("hand", game.hand(seat)),
        card_list("plays", game.in_play if own_turn else []),
        card_list("discards", list(reversed(game.discards[seat]))),
    ]


def play_words(datum: Any, case_sensitive: bool) -> list[str]:
    """A play or a defence as its lower-case words: a non-empty list of symbols. The course
    server read Racket symbols, which are case-sensitive, so there (``case_sensitive``)
    ``(ADD COPPER)`` is not a play; otherwise any letter case is read."""
    if not isinstance(datum, list) or not datum or not all(isinstance(w, Symbol) for w in datum):
        raise BadPlay(f"not a play: {show(datum)}")
    spelled = [str(w) for w in datum]
    if not case_sensitive:
        return [w.lower() for w in spelled]
    if any(w != w.lower() for w in spelled):
        raise BadPlay(
            f"not a play: {show(datum)} (the course rules read case-sensitive symbols, "
            "and the protocol's are lower case)"
        )
    return spelled


def show(datum: Any) -> str:
    """A datum as the record quotes it."""
    if isinstance(datum, list):
        return "(" + " ".join(show(d) for d in datum) + ")"
    return str(datum)
