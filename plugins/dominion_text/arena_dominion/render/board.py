"""What the report knows of a Dominion game at one moment, built from the wire alone.

The stored log does not hold the shuffles' outcome for every player (the seed is not
part of a replay, and the protocols show only the mover's hand), so the board tracks
what the messages prove: the supply (resynchronised whenever the referee lists it), the
cards each player owns (the starting deck plus every gain, minus every trash, hence the
VP), who is out, and the current turn's hand, plays, gains, trashes and attack answers.
A protocol's log reader feeds it; :meth:`Board.picture` is the small JSON the drawing
script draws.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena_dominion import cards
from arena_dominion.cards import KEEP_AFTER_ATTACK, STARTING_DECK, VP

MAX_WHY = 160
"""A reason quoted in a caption is cut to this many characters: bots write part of it."""


def card_ids(words: Iterable[str]) -> list[int]:
    """The cards among ``words`` (protocol names, any case); other words are skipped."""
    found = []
    for word in words:
        card = cards.lookup(word)
        if card is not None:
            found.append(card)
    return found


def card_names(card_list: Iterable[int]) -> list[str]:
    return [cards.NAMES[c] for c in card_list]


def shorten(text: str) -> str:
    """One line of at most :data:`MAX_WHY` characters."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_WHY else line[: MAX_WHY - 1] + "…"


@dataclass
class Attack:
    """One victim's answer to a Militia: a Moat, or the cards seen discarded.

    The line protocol shows every discarded card. The S-expression protocol shows the
    others only the top one (``top_only``); ``count`` is how many went when the victim's
    hand size says so (it was asked, with its hand), and None where the log does not say.
    """

    seat: int
    moat: bool = False
    discarded: list[int] = field(default_factory=list)
    count: int | None = None
    top_only: bool = False

    @property
    def total(self) -> int | None:
        """How many cards went (None: more than the one seen, perhaps)."""
        if self.count is None and self.top_only and self.discarded:
            return None
        return max(self.count or 0, len(self.discarded))

    def picture(self) -> dict[str, Any]:
        if self.moat:
            return {"seat": self.seat, "moat": True}
        return {"seat": self.seat, "discarded": card_names(self.discarded), "count": self.total}


@dataclass
class Turn:
    """One turn as far as the log shows it. ``seat`` is None until the log names the mover;
    ``hand``/``deck``/``discard`` are what the mover held at the turn's start, None where
    the protocol does not say."""

    seat: int | None
    number: int = 0
    hand: list[int] | None = None
    deck: int | None = None
    discard: int | None = None
    played: list[int] = field(default_factory=list)
    bought: list[int] = field(default_factory=list)
    gained: list[int] = field(default_factory=list)
    trashed: list[int] = field(default_factory=list)
    attacks: list[Attack] = field(default_factory=list)
    ended: bool = False

    def attack_of(self, seat: int) -> Attack:
        """The answer record of ``seat`` to this turn's latest attack (made on first use)."""
        for attack in reversed(self.attacks):
            if attack.seat == seat:
                return attack
        attack = Attack(seat)
        self.attacks.append(attack)
        return attack

    def picture(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "number": self.number,
            "hand": None if self.hand is None else card_names(self.hand),
            "deck": self.deck,
            "discard": self.discard,
            "played": card_names(self.played),
            "bought": card_names(self.bought),
            "gained": card_names(self.gained),
            "trashed": card_names(self.trashed),
            "attacks": [a.picture() for a in self.attacks],
        }


class Board:
    """The tracked state of one game of ``players`` seats (see the module doc).

    ``supply`` maps the card of every pile of the game (those of ``start_supply``, the
    game's own starting piles) to the copies left; piles the log names that the start
    did not are added. Counts never go below zero whatever a log says.
    """

    def __init__(self, players: int, start_supply: Mapping[int, int]) -> None:
        self.players = players
        self.supply: dict[int, int] = dict(sorted(start_supply.items()))
        self.owned: list[list[int]] = []
        for _ in range(players):
            owned = [0] * len(cards.NAMES)
            for c in STARTING_DECK:
                owned[c] += 1
            self.owned.append(owned)
        self.trash = 0
        self.turns = [0] * players
        self.out: dict[int, str] = {}
        """Seats put out of the game, and why."""
        self.new_out: list[int] = []
        """Seats put out since the last step, in order."""
        self.faults: list[tuple[int, str]] = []
        """The faults recorded since the last step: the seat, and the fault as the log
        says it (kind: detail), shortened."""
        self.turn: Turn | None = None
        self.played_turns = 0

    # -- what the readers report -----------------------------------------------------------

    def seat(self, seat: int | None) -> int | None:
        """``seat`` if it is one of this game's, else None."""
        return seat if seat is not None and 0 <= seat < self.players else None

    def begin_turn(self, seat: int | None) -> Turn:
        self.played_turns += 1
        self.turn = Turn(None)
        self.set_mover(seat)
        return self.turn

    def set_mover(self, seat: int | None) -> None:
        """The current turn is ``seat``'s (a log may name the mover after the turn began)."""
        turn = self.turn
        seat = self.seat(seat)
        if turn is None or seat is None or turn.seat is not None:
            return
        turn.seat = seat
        self.turns[seat] += 1
        turn.number = self.turns[seat]

    def sync_supply(self, counts: Mapping[int, int], complete: bool) -> None:
        """The referee's own list of the piles. ``complete``: a pile it leaves out is
        empty (the S-expression state lists copies, so an empty pile is absent)."""
        if complete:
            for card in self.supply:
                self.supply[card] = 0
        for card, left in counts.items():
            self.supply[card] = max(left, 0)
        self.supply = dict(sorted(self.supply.items()))

    def sync_owned(self, seat: int | None, owned: Iterable[int]) -> None:
        """Every card ``seat`` owns, as a state the referee sent it lists them."""
        seat = self.seat(seat)
        if seat is None:
            return
        counts = [0] * len(cards.NAMES)
        for card in owned:
            counts[card] += 1
        self.owned[seat] = counts

    def gain(self, seat: int | None, card: int, bought: bool = False) -> None:
        """``seat`` gained ``card`` from the supply (``bought``: by a buy, where the
        protocol tells buys apart)."""
        seat = self.seat(seat)
        if seat is None:
            return
        self.owned[seat][card] += 1
        if card in self.supply:
            self.supply[card] = max(self.supply[card] - 1, 0)
        turn = self.turn
        if turn is not None and turn.seat == seat:
            (turn.bought if bought else turn.gained).append(card)

    def trash_card(self, seat: int | None, card: int) -> None:
        seat = self.seat(seat)
        if seat is None:
            return
        if self.owned[seat][card] > 0:
            self.owned[seat][card] -= 1
        self.trash += 1
        turn = self.turn
        if turn is not None and turn.seat == seat:
            turn.trashed.append(card)

    def play(self, seat: int | None, played: Sequence[int]) -> None:
        turn = self.turn
        if turn is not None and turn.seat is not None and turn.seat == self.seat(seat):
            turn.played.extend(played)

    def attacked(self, seat: int | None, hand: int) -> None:
        """``seat`` is asked to answer a Militia holding ``hand`` cards."""
        seat = self.seat(seat)
        if seat is not None and self.turn is not None:
            self.turn.attack_of(seat).count = max(hand - KEEP_AFTER_ATTACK, 0)

    def defend(
        self, seat: int | None, moat: bool, discarded: Sequence[int] = (), top_only: bool = False
    ) -> None:
        """A Militia victim's answer: a Moat, or the discards seen (``top_only``: only the
        top one of them is shown)."""
        seat = self.seat(seat)
        if seat is None or self.turn is None:
            return
        attack = self.turn.attack_of(seat)
        attack.moat = attack.moat or moat
        attack.discarded.extend(discarded)
        attack.top_only = attack.top_only or top_only

    def put_out(self, seat: int | None, why: str) -> None:
        seat = self.seat(seat)
        if seat is not None and seat not in self.out:
            self.out[seat] = shorten(why)
            self.new_out.append(seat)

    def fault(self, seat: int | None, text: str) -> None:
        """A fault the log recorded for ``seat`` (its text, ``kind: detail``)."""
        seat = self.seat(seat)
        if seat is not None:
            self.faults.append((seat, shorten(text)))

    def next_step(self) -> None:
        """Forget the marks of the step just drawn (its faults, who went out in it)."""
        self.faults = []
        self.new_out = []

    # -- what the drawing script gets --------------------------------------------------------

    def vp(self, seat: int) -> int:
        return sum(count * VP[c] for c, count in enumerate(self.owned[seat]) if count)

    def picture(self) -> dict[str, Any]:
        """This moment's picture: small, plain JSON (a report holds thousands of them)."""
        return {
            "supply": [[cards.NAMES[c], left] for c, left in self.supply.items()],
            "trash": self.trash,
            "players": [
                {
                    "vp": self.vp(p),
                    "cards": sum(self.owned[p]),
                    "owned": [[cards.NAMES[c], n] for c, n in enumerate(self.owned[p]) if n],
                    "turns": self.turns[p],
                    "out": p in self.out,
                    "fault": next((text for s, text in reversed(self.faults) if s == p), None),
                }
                for p in range(self.players)
            ],
            "turn": None if self.turn is None else self.turn.picture(),
        }
