"""Speed Clue in the HTML report: one stored game as a deduction grid, step by step.

A step is the deal, a suggestion (with its disproof, and the suggester's ``-`` when it
declines to accuse) or an accusation. The log is read from the referee's side: what a bot
answered is only believed once the referee broadcast it (``suggestion ...``,
``accusation ...``), because a bot's own words may be garbage or illegal; the faults the
referee recorded say what became of those.

The grid is what the game has revealed so far, to anyone at the table: every player's failed
disproof (public), every card shown (private to the suggester, but in the referee's log),
every "holds one of these three", every accusation (right: the case file; wrong: not the
case file; and, under the ``suicidal_accusation`` rule, an accusation the referee let
through says its accuser holds none of its cards), closed under the game's counting rules
(every player holds their dealt number of cards, the case file one card of each kind) by
the deducer's own :class:`~arena_speedclue.players.Knowledge`: its cheap closure, not its
probing, so ten thousand games stay quick (over whole games of the built-in bots the probing
found nothing more). A mark there that no card shown explains is a deduction: the case
file's suspect once the other five are placed, a player's last cards once everything else
is placed elsewhere. Underneath it the deal is drawn as the truth the referee knew (each
player's cards and the case file's tinted from the first step); the case file is named and
starred only in the last step.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from arena_kernel.plugin import Event, Renderer, Replay, Step
from arena_speedclue import wire
from arena_speedclue.cards import CARDS, CATEGORY, INDEX, NAMES, Triple, parse_card, parse_triple
from arena_speedclue.players import Knowledge
from arena_speedclue.rules import MAX_PLAYERS, MIN_PLAYERS
from arena_speedclue.wire import WireError

FAULT_TEXT = 240
"""A fault's reason is cut to this many characters in a picture (the viewer's message list
beside it has the whole text)."""
OUTCOMES = {"forfeited": "forfeits the game", "disqualified": "is disqualified"}
"""What a fault costs a bot, by the game's ``violations`` option, as a caption says it."""
CARDS_MARKER = "/* cards.py */ []"
"""Where :meth:`SpeedClueRenderer.script` puts the card table into the drawing script, so
the cards are written down once, in :mod:`arena_speedclue.cards`."""


class SpeedClueRenderer(Renderer):
    name = "speedclue"
    summary = "deduction grid: who holds which card as revealed so far, turn by turn"

    def steps(self, replay: Replay) -> list[Step]:
        return Reading(replay).steps()

    def script(self) -> str:
        source = _asset("render.js")
        table = [[card, NAMES[card], CATEGORY[card]] for card in CARDS]
        return source.replace(CARDS_MARKER, json.dumps(table), 1)

    def style(self) -> str:
        return _asset("render.css")


def _asset(name: str) -> str:
    return resources.files("arena_speedclue").joinpath(name).read_text(encoding="utf-8")


@dataclass
class Segment:
    """A run ``[start, stop)`` of the event log that becomes one step."""

    kind: str  # "deal", "suggestion" or "accusation"
    start: int
    stop: int


def segments(events: Sequence[Event]) -> list[Segment]:
    """Cut the log at every ``suggest`` the referee sends (a turn), and a turn again at its
    ``accuse`` when the answer was an accusation (broadcast, or at least attempted)."""
    cuts = [i for i, e in enumerate(events) if e.kind == "send" and e.text.strip() == "suggest"]
    found = [Segment("deal", 0, cuts[0] if cuts else len(events))]
    for number, start in enumerate(cuts):
        stop = cuts[number + 1] if number + 1 < len(cuts) else len(events)
        split = _accusation_start(events, start, stop)
        if split is None:
            found.append(Segment("suggestion", start, stop))
        else:
            found.append(Segment("suggestion", start, split))
            found.append(Segment("accusation", split, stop))
    return found


def _accusation_start(events: Sequence[Event], start: int, stop: int) -> int | None:
    active = events[start].seat
    asked = None
    for i in range(start + 1, stop):
        event = events[i]
        if event.kind == "send" and event.text.strip() == "accuse" and event.seat == active:
            asked = i
        elif asked is not None and event.kind == "send" and _first(event.text) == "accusation":
            return asked
        elif asked is not None and event.kind == "recv" and event.seat == active:
            return asked if _first(event.text) == "accuse" else None
    return None


def _first(text: str) -> str:
    words = text.split(maxsplit=1)
    return words[0].lower() if words else ""


@dataclass
class Turn:
    """What one segment of the log says happened."""

    active: int | None = None
    suggestion: Triple | None = None
    confirmed: bool = False  # the referee broadcast it
    disprover: int | None = None
    card: str | None = None
    passed: list[int] = field(default_factory=list)
    declined: bool = False
    accusation: Triple | None = None
    correct: bool | None = None
    faults: list[tuple[int | None, str]] = field(default_factory=list)


class Reading:
    """One pass over a stored game: the segments, read in order into the grid's state."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.events = replay.events
        self.names = replay.seating
        self.n = len(replay.seating)
        forfeit = str(replay.options.get("violations", "disqualify")) == "forfeit"
        self.fault_outcome = "forfeited" if forfeit else "disqualified"
        # The game's default is on; only an explicit false (the match file's) turns it off.
        self.suicide_rule = replay.options.get("suicidal_accusation", True) is not False
        self.hands = self._hands()
        self.knowledge = Knowledge(self.n) if MIN_PLAYERS <= self.n <= MAX_PLAYERS else None
        self.shown: list[list[Any]] = []
        self.out: dict[int, str] = {}

    # -- the deal ---------------------------------------------------------------------

    def _hands(self) -> list[list[str] | None]:
        """Every seat's hand: the referee's stored deal, else the ``reset`` it sent."""
        stored = (
            self.replay.details.get("hands") if isinstance(self.replay.details, Mapping) else None
        )
        hands: list[list[str] | None] = [None] * self.n
        if isinstance(stored, list) and len(stored) == self.n:
            hands = [_cards(hand) for hand in stored]
        for event in self.events:
            if event.kind == "send" and _first(event.text) == "reset":
                words = event.text.split()
                seat = event.seat
                if seat is not None and 0 <= seat < self.n and hands[seat] is None:
                    hands[seat] = _cards(words[3:])
        return hands

    def holders(self) -> list[int | None]:
        """Per card (in :data:`CARDS` order) the seat dealt it; ``None`` for the rest."""
        holder: list[int | None] = [None] * len(CARDS)
        for seat, hand in enumerate(self.hands):
            for card in hand or ():
                holder[INDEX[card]] = seat
        return holder

    def solution(self) -> Triple | None:
        stored = (
            self.replay.details.get("solution")
            if isinstance(self.replay.details, Mapping)
            else None
        )
        if isinstance(stored, list):
            try:
                return parse_triple([str(card) for card in stored])
            except ValueError:
                pass
        if all(hand is not None for hand in self.hands):
            dealt = {card for hand in self.hands for card in hand or ()}
            rest = [card for card in CARDS if card not in dealt]
            try:
                return parse_triple(rest)
            except ValueError:
                return None
        return None

    # -- the turns --------------------------------------------------------------------

    def steps(self) -> list[Step]:
        holder = self.holders()
        case = self.solution()
        found = segments(self.events)
        steps: list[Step] = []
        turns = 0
        for number, segment in enumerate(found):
            turn = self.read(segment)
            self.learn(turn)
            if segment.kind == "suggestion":
                turns += 1
            label, caption = self.describe(segment, turn, turns)
            picture = self.picture(holder, turn)
            if case is not None:
                picture["case"] = list(case)  # the deal's truth, tinted as the hands are
            if number == len(found) - 1:
                caption = f"{caption} {self.ending()}".strip()
                picture["winners"] = self.winners()
                if case is not None:
                    picture["solution"] = list(case)
            steps.append(Step(label, (segment.start, segment.stop), caption, picture))
        return steps

    def read(self, segment: Segment) -> Turn:
        turn = Turn()
        events = self.events[segment.start : segment.stop]
        if segment.kind != "deal":
            turn.active = self._seat(events[0].seat)
        reply: str | None = None
        for event in events:
            seat = self._seat(event.seat)
            if event.kind == "fault":
                turn.faults.append((seat, event.text[:FAULT_TEXT]))
                if seat is not None:
                    self.out.setdefault(seat, self.fault_outcome)
            elif event.kind == "recv" and seat == turn.active and reply is None:
                reply = event.text
            elif event.kind == "send" and _first(event.text) == "suggestion":
                self._read_suggestion(turn, event.text)
            elif event.kind == "send" and _first(event.text) == "accusation":
                self._read_accusation(turn, event.text)
            elif event.kind == "recv" and seat == turn.active and event.text.strip() == "-":
                turn.declined = segment.kind == "suggestion" and turn.confirmed
        if reply is not None and segment.kind == "suggestion" and turn.suggestion is None:
            turn.suggestion = _triple(reply, "suggest")
        if reply is not None and segment.kind == "accusation" and turn.accusation is None:
            turn.accusation = _triple(reply, "accuse")
        return turn

    def _read_suggestion(self, turn: Turn, text: str) -> None:
        try:
            heard = wire.read_suggestion(text)
        except WireError:
            return
        if heard.player != turn.active or not self._valid(heard.disprover):
            return
        if heard.card is not None and heard.card not in heard.triple:
            return
        if not turn.confirmed:
            turn.suggestion, turn.confirmed = heard.triple, True
            turn.disprover = heard.disprover
            turn.passed = self._passed(heard.player, heard.disprover)
        if heard.card is not None and heard.disprover == turn.disprover and turn.card is None:
            turn.card = heard.card

    def _read_accusation(self, turn: Turn, text: str) -> None:
        try:
            player, triple, correct = wire.read_accusation(text)
        except WireError:
            return
        if player == turn.active and turn.correct is None:
            turn.accusation, turn.correct = triple, correct

    def _passed(self, player: int, disprover: int | None) -> list[int]:
        """The seats asked before the disprover (every other seat when nobody could)."""
        passed = []
        seat = (player + 1) % self.n
        while seat != player and seat != disprover:
            passed.append(seat)
            seat = (seat + 1) % self.n
        return passed

    def learn(self, turn: Turn) -> None:
        """Add what the referee announced in ``turn`` to the grid's knowledge."""
        if turn.correct is False and turn.active is not None:
            self.out[turn.active] = "accused wrongly"
        if turn.confirmed and turn.disprover is not None and turn.card is not None:
            self.shown.append([turn.card, turn.disprover, turn.active])
        kb = self.knowledge
        if kb is None:
            return
        before = (list(kb.masks), len(kb.clauses), len(kb.not_solutions))
        if turn.confirmed and turn.suggestion is not None:
            for seat in turn.passed:
                kb.lacks(seat, turn.suggestion)
            if turn.disprover is not None and turn.card is not None:
                kb.set_owner(turn.card, turn.disprover)
            elif turn.disprover is not None:
                kb.holds_one_of(turn.disprover, turn.suggestion)
        if turn.accusation is not None and turn.correct is True:
            for card in turn.accusation:
                kb.set_owner(card, self.n)
        elif turn.accusation is not None and turn.correct is False:
            kb.not_solution(turn.accusation)
            if self.suicide_rule and turn.active is not None:
                # The referee announced it, so it was no suicidal accusation: the accuser
                # holds none of the three (a right one says as much through the case file).
                kb.lacks(turn.active, turn.accusation)
        if not kb.propagate(kb.masks):
            # Only a log no real game could write (hand-made or damaged) contradicts itself:
            # this turn's facts are dropped and the grid keeps what it knew.
            masks, clauses, not_solutions = before
            kb.masks = masks
            del kb.clauses[clauses:], kb.not_solutions[not_solutions:]

    # -- what a step shows ------------------------------------------------------------

    def describe(self, segment: Segment, turn: Turn, number: int) -> tuple[str, str]:
        who = self._name(turn.active)
        faults = " ".join(self._fault(seat, text) for seat, text in turn.faults)
        if segment.kind == "deal":
            sizes = ", ".join(
                f"{name} {len(hand) if hand is not None else '?'}"
                for name, hand in zip(self.names, self.hands, strict=True)
            )
            return "deal", f"{self.n} players; cards dealt: {sizes}. {faults}".strip()
        if segment.kind == "accusation":
            if turn.accusation is None:
                return (
                    f"{number}. {who} accuses",
                    f"{who} answers the accusation call. {faults}".strip(),
                )
            cards = _spell(turn.accusation)
            if turn.correct is None:
                verdict = "not accepted"
            else:
                verdict = "right" if turn.correct else f"wrong, {who} is out"
            label = f"{number}. {who} accuses {' '.join(turn.accusation)}"
            return label, f"{who} accuses {cards}: {verdict}. {faults}".strip()
        if turn.suggestion is None:
            return f"{number}. {who}: no suggestion", f"{who} makes no suggestion. {faults}".strip()
        text = f"{who} suggests {_spell(turn.suggestion)}"
        if not turn.confirmed:
            text += " (not accepted)"
        elif turn.disprover is None:
            text += "; nobody can disprove it"
        else:
            shown = NAMES[turn.card] if turn.card is not None else "a card"
            disprover = self._name(turn.disprover)
            if self.out.get(turn.disprover) == "forfeited":
                text += f"; the referee shows {shown} to {who} for {disprover}, who forfeited"
            else:
                text += f"; {disprover} shows {shown} to {who}"
        if turn.declined:
            text += f"; {who} does not accuse"
        label = f"{number}. {who}: {' '.join(turn.suggestion)}"
        return label, f"{text}. {faults}".strip()

    def picture(self, holder: list[int | None], turn: Turn) -> dict[str, Any]:
        picture: dict[str, Any] = {
            "players": self.n,
            "holder": holder,
            "known": self.known(),
            "shown": list(self.shown),
            "out": sorted([seat, why] for seat, why in self.out.items()),
        }
        if turn.active is not None:
            picture["active"] = turn.active
        if turn.suggestion is not None:
            picture["suggestion"] = list(turn.suggestion)
            picture["confirmed"] = turn.confirmed
            picture["disprover"] = turn.disprover
            picture["card"] = turn.card
            picture["passed"] = turn.passed
        if turn.accusation is not None:
            picture["accusation"] = list(turn.accusation)
            picture["correct"] = turn.correct
        if turn.faults:
            picture["faults"] = [[seat, text] for seat, text in turn.faults]
        return picture

    def known(self) -> list[str]:
        """Per seat and then the case file, a character per card: ``+`` known to hold it,
        ``-`` known not to, ``.`` not known yet."""
        kb = self.knowledge
        if kb is None:
            return ["." * len(CARDS)] * (self.n + 1)
        rows = []
        for owner in range(self.n + 1):
            bit = 1 << owner
            marks = ("+" if mask == bit else "." if mask & bit else "-" for mask in kb.masks)
            rows.append("".join(marks))
        return rows

    def winners(self) -> list[int]:
        """The seats that won, as the picture marks them: none in a void game."""
        return [] if self.replay.void else self._first()

    def _first(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.replay.ranks[: self.n]) if rank == 1]

    def ending(self) -> str:
        """How the game ended, naming the winner (or, for a void game, the bots to blame)."""
        reason = self.replay.reason
        solution = self.solution()
        case = f" The case file: {_spell(solution)}." if solution is not None else ""
        if not self.replay.void:
            return f"Game over: {self._result(self._first(), reason)}.{case}"
        if reason.startswith(("void", "not played")) or self.replay.disqualified:
            return f"Game over, void: {reason.removeprefix('void: ')}.{case}"
        # Played out, then voided by the run: a bot of it was disqualified in another game
        # (the kernel voids every game of such a bot), which this game's record cannot name.
        return (
            f"Game over: {self._result(self._first(), reason)}, but the game is void: one of "
            f"its bots was disqualified from the run in another game.{case}"
        )

    def _result(self, seats: Sequence[int], reason: str) -> str:
        names = [self.names[seat] for seat in seats]
        if len(names) == 1:
            return f"{names[0]} wins ({reason})"
        return f"{' and '.join(names) or 'nobody'} ranked first ({reason})"

    def _fault(self, seat: int | None, text: str) -> str:
        if seat is None:
            return f"Fault: {text}."
        fate = OUTCOMES.get(self.out.get(seat, ""), "is out")
        return f"{self._name(seat)} faulted ({text}) and {fate}."

    def _seat(self, seat: int | None) -> int | None:
        return seat if self._valid(seat) else None

    def _valid(self, seat: int | None) -> bool:
        return seat is None or 0 <= seat < self.n

    def _name(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < self.n else "the referee"


def _cards(words: Any) -> list[str] | None:
    """A hand as canonical cards, or ``None`` if anything in it is not a card."""
    if not isinstance(words, list):
        return None
    try:
        return [parse_card(str(word)) for word in words]
    except ValueError:
        return None


def _triple(message: str, keyword: str) -> Triple | None:
    try:
        return wire.read_triple(message, keyword)
    except WireError:
        return None


def _spell(triple: Sequence[str]) -> str:
    return ", ".join(NAMES[card] for card in triple)
