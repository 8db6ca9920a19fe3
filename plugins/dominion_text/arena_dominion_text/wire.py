"""The line protocol's words (``dominion_text.txt``): the lines the referee sends, the
reading of the replies bots send, and the action replies the built-in bots write.

A reply is invalid when it is not one of the spec's forms, and that includes words after
a complete one (``play-reply pass now``, ``play-reply action smithy estate``): every card
has a fixed number of arguments (:data:`ARGUMENTS`) except Cellar, whose list the spec
cuts at the first word that is not a card left in the hand. An invalid reply is an
:class:`Invalid`, which the referee turns into the spec's penalty.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena_dominion_text import cards
from arena_dominion_text.cards import CELLAR, MINE, REMODEL, WORKSHOP
from arena_dominion_text.players import Play

VERSION = "1"
"""The only version of the protocol there is."""

ARGUMENTS = {MINE: 2, REMODEL: 2, WORKSHOP: 1}
"""The most words that may follow each Action card in its reply (the card to trash, the
card to gain); every other card but Cellar takes none."""

PASS = "play-reply pass"


class Invalid(Exception):
    """A play-turn reply the spec calls invalid: why (for the record) and the Action card
    it named, if any (the penalty consumes that card)."""

    def __init__(self, reason: str, card: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.card = card


def seat_name(seat: int) -> str:
    """The protocol's name of a seat: 1 -> ``player2``."""
    return f"player{seat + 1}"


def seat_index(seat: str) -> int:
    """``player3`` -> 2."""
    return int(seat.removeprefix("player")) - 1


def names(card_ids: Sequence[int]) -> str:
    return " ".join(cards.name(c) for c in card_ids)


# -- what the referee sends ------------------------------------------------------------------


def supply_line(supply: Sequence[int]) -> str:
    """``supply <card> <count> ...``: every pile of the game, empty ones included."""
    return "supply " + " ".join(
        f"{cards.name(c)} {supply[c]}" for c in range(len(supply)) if supply[c] >= 0
    )


def play_turn_request(actions: int, buys: int, coins: int, hand: Sequence[int]) -> str:
    return (
        f"play-request play-turn actions {actions} buys {buys} "
        f"extra-money {coins} hand {names(hand)}".rstrip()
    )


def attack_request(discard: int, hand: Sequence[int]) -> str:
    return f"play-request attack discard {discard} hand {names(hand)}"


# -- what a bot sends ------------------------------------------------------------------------


def bought_cards(words: Sequence[str]) -> list[int]:
    """The cards of ``play-reply buy <cards>`` up to the first word that is no card."""
    wanted = []
    for word in words:
        card = cards.lookup(word)
        if card is None:
            break
        wanted.append(card)
    return wanted


def action_card(words: Sequence[str]) -> int:
    """The card ``play-reply action <card> ...`` plays."""
    if len(words) < 3:
        raise Invalid("play-reply action names no card")
    card = cards.lookup(words[2])
    if card is None:
        raise Invalid(f"unknown card {words[2]!r}")
    return card


def action_arguments(words: Sequence[str], card: int) -> list[int]:
    """The cards after ``card`` in ``play-reply action <card> ...``, at most as many as it
    takes (:data:`ARGUMENTS`); not for Cellar, whose list :func:`cellar_discards` reads."""
    most = ARGUMENTS.get(card, 0)
    if len(words) > 3 + most:
        raise Invalid(extra_words(words, 3 + most), card)
    args = []
    for word in words[3:]:
        arg = cards.lookup(word)
        if arg is None:
            raise Invalid(f"{words[2]}: unknown card {word!r}", card)
        args.append(arg)
    return args


def cellar_discards(hand: Sequence[int], words: Sequence[str]) -> tuple[list[int], str | None]:
    """The named cards up to the first word that is not a card left in the hand besides
    the played Cellar (the spec's rule), and what is wrong with that word (None if every
    word was discarded)."""
    left = list(hand)
    left.remove(CELLAR)
    chosen = []
    for word in words:
        card = cards.lookup(word)
        if card is None:
            return chosen, f"{word!r} is not a card"
        if card not in left:
            return chosen, f"no {word} left in the hand"
        left.remove(card)
        chosen.append(card)
    return chosen, None


def extra_words(words: Sequence[str], complete: int) -> str:
    """The fault of a reply whose first ``complete`` words make a whole reply."""
    return (
        f"extra words after the complete reply {' '.join(words[:complete])!r}: "
        f"{' '.join(words[complete:])!r}"
    )


def action_reply(play: Play) -> str:
    """The reply playing ``(card, cards, gain)``; which arguments follow depends on the card:
    Cellar its discards, Mine and Remodel the trashed card then the gain, Workshop the gain.
    An argument the strategy leaves out (nothing to trash or gain) is left off the line."""
    action, chosen, gain = play
    args: list[int] = []
    if action == CELLAR:
        args = list(chosen)
    elif action in (MINE, REMODEL):
        args = list(chosen[:1])
        if gain is not None:
            args.append(gain)
    elif action == WORKSHOP and gain is not None:
        args = [gain]
    return " ".join(["play-reply action", cards.name(action), *(cards.name(c) for c in args)])
