"""The S-expression protocol's games in the report: the referee's states and ``moved`` plays
read into the shared Dominion board.

The first ``(move state)`` of a turn is the truth about the mover (its deck, hand and
discards, so every card it owns) and about the supply (every copy left: a pile it does
not list is empty) and the trash. Within the turn, the ``(moved name play)`` lines the
referee sends the others carry the legal plays in the grammar's own spelling, and
``(defended name defense)`` each Militia victim's answer, the discard's top card only.
A bot's own reply is never read: a bad one shows as the referee's fault.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from arena_dominion_sexpr.game import DominionSexpr
from arena_dominion_sexpr.rules import KINGDOMS, has_curses
from arena_dominion_sexpr.wire import SEAT_NAMES
from arena_dominion_text.cards import MINE, REMODEL, WORKSHOP
from arena_dominion_text.drawing import DominionRenderer, LogReader, card_ids, starting_piles
from arena_kernel.plugin import Event, Replay

MOVE = re.compile(r"\(move[\s(]")
"""A ``(move state)`` request (not ``(moved ...)``)."""
FIELD = re.compile(r"\((supply|trash|deck|hand|plays|discards)((?:\s+[^\s()]+)*)\s*\)")
"""A flat field of a state; one cut short (the log keeps 4,000 characters of a message)
does not match, and what it would have said stays unknown."""
HAND = re.compile(r"\(hand((?:\s+[^\s()]+)*)\s*\)")
MOVED = re.compile(r"\(moved\s+(\w+)\s+\(([^()]*)\)\)")
DEFENDED = re.compile(r"\(defended\s+(\w+)\s+\(([^()]*)\)\)")
LOST = re.compile(r"(player[a-d]) loses the game: (.*)", re.DOTALL)


def seat_of(word: str) -> int | None:
    """The seat of a protocol name (``playerb`` -> 1), None for any other word."""
    return SEAT_NAMES.index(word) if word in SEAT_NAMES else None


def option(replay: Replay, name: str) -> Any:
    """The run's value of option ``name``, or the game's default where the run's is not one
    of the declared choices."""
    declared = DominionSexpr.options[name]
    value = replay.options.get(name, declared.default)
    return value if declared.choices is None or value in declared.choices else declared.default


class SexprReader(LogReader):
    def opens_turn(self, event: Event) -> bool:
        if event.kind != "send" or not MOVE.match(event.text):
            return False
        turn = self.board.turn
        return turn is None or turn.ended or turn.seat != event.seat

    def feed(self, event: Event) -> None:
        opens = self.opens_turn(event)
        copy = self.copies.see(event)
        if event.kind == "send":
            if opens:
                self.turn_state(event)
            elif event.text.startswith("(attacked"):
                hand = HAND.search(event.text)
                if hand:
                    self.board.attacked(event.seat, len(hand.group(1).split()))
            elif not copy:
                self.broadcast(event.text)
        elif event.kind == "fault":
            self.board.fault(event.seat, event.text)
        elif event.kind == "note":
            match = LOST.fullmatch(event.text)
            if match:
                self.board.put_out(seat_of(match.group(1)), match.group(2))

    def turn_state(self, event: Event) -> None:
        """The first state of a turn: the mover's cards, the supply and the trash."""
        board = self.board
        turn = board.begin_turn(event.seat)
        fields = {name: body.split() for name, body in FIELD.findall(event.text)}
        if "supply" in fields:
            board.sync_supply(Counter(card_ids(fields["supply"])), complete=True)
        if "trash" in fields:
            board.trash = len(fields["trash"])
        mine = [fields.get(name) for name in ("deck", "hand", "plays", "discards")]
        if all(part is not None for part in mine):
            deck, hand, plays, discards = (card_ids(part or ()) for part in mine)
            board.sync_owned(event.seat, deck + hand + plays + discards)
            turn.hand, turn.deck, turn.discard = hand, len(deck), len(discards)

    def broadcast(self, text: str) -> None:
        board = self.board
        match = MOVED.fullmatch(text)
        if match:
            seat = seat_of(match.group(1))
            words = match.group(2).split()
            named = card_ids(words[1:])
            verb = words[0] if words else ""
            if verb == "add":
                board.play(seat, named)
            elif verb == "buy":
                for card in named[:1]:
                    board.gain(seat, card, bought=True)
            elif verb == "act" and named:
                board.play(seat, named[:1])
                action, args = named[0], named[1:]
                if action in (MINE, REMODEL) and len(args) == 2:
                    board.trash_card(seat, args[0])
                    board.gain(seat, args[1])
                elif action == WORKSHOP and len(args) == 1:
                    board.gain(seat, args[0])
            elif verb == "clean" and board.turn is not None and board.turn.seat == seat:
                board.turn.ended = True
            return
        match = DEFENDED.fullmatch(text)
        if match:
            words = match.group(2).split()
            moat = words == ["moat"]
            named = [] if moat else card_ids(words[1:])
            board.defend(seat_of(match.group(1)), moat, named, top_only=True)


class DominionSexprRenderer(DominionRenderer):
    name = "dominion_sexpr"
    reader = SexprReader

    def start_supply(self, replay: Replay) -> dict[int, int]:
        version = option(replay, "version")
        curses = has_curses(version, option(replay, "rules"))
        return starting_piles(len(replay.seating), KINGDOMS[version], curses)
