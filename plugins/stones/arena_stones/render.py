"""The report's picture of a Game of Stones: the hex board after every move.

The stored log is read, never trusted: the referee's own messages (the move requests, which
carry the whole board, and the echo of every accepted move) say what happened, and the
moves are replayed through the rules engine so that each step knows its position without
parsing a board per move. A log that disagrees with the engine (hand-edited, cut short,
written by a bot we do not know) does not stop the replay: the next request's board puts
it back in step, and a step whose position cannot be known says so.

A picture is small data for ``render.js``:

- ``cells``: the 60 cells in reading order (row Y, then column X, as
  :data:`arena_stones.board.CELLS`), each the protocol's ``owner * (height * 4 + type)``;
  ``null`` when the position is unknown;
- ``move``: the move that led here, ``{"kind": "attack" | "strengthen" | "pass", "seat",
  "from": [x, y], "to": [x, y]}`` (no cells for a pass);
- ``attempt``: a rejected reply that named two cells, ``{"seat", "from", "to"}``;
- ``next``: who is asked next, ``{"seat", "attackOnly"}``, while the game runs;
- ``winners``: the seats ranked first, on the last step.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

from arena_kernel.plugin import Event, Renderer, Replay, Step
from arena_stones.board import CELLS, INDEX, label, on_board
from arena_stones.rules import (
    ATTACK,
    BLACK,
    PASS,
    STRENGTHEN,
    TYPE_NAMES,
    WHITE,
    Position,
    height,
    owner,
    stone,
)
from arena_stones.wire import Location, WireError, parse_move

Move = tuple[int, Location, Location]
"""A move as the wire reads it: (type, from, to), cells as (x, y) or None."""

COLOURS = ("White", "Black")
"""By seat: seat 0 plays White (see :data:`arena_stones.game.SEAT_OF`)."""
PLAYER_SEAT = {WHITE: 0, BLACK: 1}
KIND_NAMES = {PASS: "pass", ATTACK: "attack", STRENGTHEN: "strengthen"}


class StonesRenderer(Renderer):
    name = "stones"
    summary = "the hex board at every move: stacks by owner, type and height, the move drawn"

    def steps(self, replay: Replay) -> Sequence[Step]:
        return _Walk(replay).steps()

    def script(self) -> str:
        return _asset("render.js")

    def style(self) -> str:
        return _asset("render.css")


def _asset(name: str) -> str:
    return resources.files("arena_stones").joinpath(name).read_text(encoding="utf-8")


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _cells_of(request: Any) -> list[int] | None:
    """The cells of a move request's board, or None unless it is a board of this game."""
    if not isinstance(request, dict):
        return None
    board = request.get("Board")
    matrix = board.get("state") if isinstance(board, dict) else None
    if not isinstance(matrix, list) or len(matrix) != 9:
        return None
    if not all(isinstance(row, list) and len(row) == 9 for row in matrix):
        return None
    cells = [matrix[y][x] for x, y in CELLS]
    if not all(type(v) is int and (v == 0 or (stone(v) and 0 < height(v) <= 30)) for v in cells):
        return None
    return cells


def _position(cells: list[int], seat: int | None, attack_only: bool) -> Position | None:
    """The engine's position of a request's board, or None when it is no position of a
    game (both sides lack a type, say)."""
    player = BLACK if seat == 1 else WHITE
    try:
        return Position.from_matrix(_matrix(cells), player, [ATTACK] if attack_only else [0, 1, 2])
    except ValueError:
        return None


def _matrix(cells: list[int]) -> list[list[int]]:
    rows = [[0] * 9 for _ in range(9)]
    for (x, y), v in zip(CELLS, cells, strict=True):
        rows[y][x] = v
    return rows


def _xy(location: tuple[int, int] | None) -> list[int] | None:
    if location is None or not on_board(*location):
        return None
    return [location[0], location[1]]


def _stack(value: int) -> str:
    """ "Tzarra (height 2)" for an encoded stack."""
    return f"{TYPE_NAMES.get(stone(value), '?')} (height {height(value)})"


class _Walk:
    """One pass over a game's events, building its steps."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.events = replay.events
        self.position: Position | None = None
        self.cells: list[int] | None = None
        """The board last drawn (steps that do not change it share the list)."""
        self.last: dict[str, Any] = {}
        """The last step's picture, which the closing note keeps showing."""

    def who(self, seat: int | None) -> str:
        """ "White (greedy)"; a seat the game does not have is named as such."""
        if seat not in (0, 1):
            return f"seat {seat}"
        seating = self.replay.seating
        return f"{COLOURS[seat]} ({seating[seat] if seat < len(seating) else '?'})"

    def steps(self) -> list[Step]:
        """The start, one step per request (the accepted move, or the request nothing was
        accepted at), and the end: the closing note, or the request that ended in a fault."""
        events = self.events
        requests = [
            i for i, e in enumerate(events) if e.kind == "send" and '"AllowedMoves"' in e.text
        ]
        if requests:
            first = requests[0]
            self._resync(first)
        else:
            first = next(
                (i for i, e in enumerate(events) if e.kind in ("fault", "note")), len(events)
            )
        if self.cells is None and self.replay.options.get("setup", "fixed") == "fixed":
            self.position = Position.initial("fixed")
            self.cells = self.position.cells[:]
        steps = [Step("start", (0, first), self._opening(), self._picture(None))]
        turn, mover, end = 0, None, first
        for k, start in enumerate(requests):
            stop = requests[k + 1] if k + 1 < len(requests) else len(events)
            seat = events[start].seat
            if seat != mover:
                turn, mover = turn + 1, seat
            if self.position is None:
                self._resync(start)
            echo = self._echo(start, stop)
            if echo is None:
                end = start
                if stop < len(events):
                    steps.append(self._no_move(turn, seat, start, stop))
                continue
            at, move = echo
            after = stop if stop < len(events) else None
            if after is None:
                stop = at + 1
            steps.append(self._move(turn, seat, (start, stop), move, after))
            end = stop
        steps.append(self._end(end, requests))
        return steps

    def _resync(self, request: int) -> None:
        """Take the position from a request's board: the first one, or when the walk lost
        the position (a log the rules disagree with)."""
        event = self.events[request]
        message = _json(event.text)
        cells = _cells_of(message)
        allowed = message.get("AllowedMoves") if isinstance(message, dict) else None
        attack_only = isinstance(allowed, list) and len(allowed) == 1
        self.position = None if cells is None else _position(cells, event.seat, attack_only)
        self.cells = cells

    def _echo(self, start: int, stop: int) -> tuple[int, Move] | None:
        """The last of the accepted move's echoes in ``[start, stop)`` and the move the
        first of them names, or None when no move was accepted there."""
        found: Move | None = None
        text = ""
        last = start
        for i in range(start, stop):
            event = self.events[i]
            if event.kind != "send" or '"Player"' not in event.text:
                continue
            if found is None:
                message = _json(event.text)
                if not isinstance(message, dict):
                    continue
                try:
                    found = parse_move(message.get("Move"))
                except WireError:
                    continue
                text = event.text
                last = i
            elif event.text == text:
                last = i
        return None if found is None else (last, found)

    def _opening(self) -> str:
        seating = self.replay.seating
        players = ", ".join(f"{COLOURS[s]}: {seating[s]}" for s in range(min(2, len(seating))))
        if self.cells is None:
            board = "the start position is not in the log"
        elif self.replay.options.get("setup", "fixed") == "random":
            board = "a seeded random placement"
        else:
            board = "the rulebook's start position"
        return f"{players}; {board}. White opens with a single attack."

    def _move(
        self, turn: int, seat: int | None, events: tuple[int, int], move: Move, after: int | None
    ) -> Step:
        """The step of an accepted move; ``after`` is the next request (None: the last)."""
        kind, frm, to = move
        position = self.position
        detail = ""
        if position is not None and position.judge(kind, frm, to) is None:
            if kind != PASS:
                assert frm is not None and to is not None
                vf, vt = position.cells[INDEX[frm]], position.cells[INDEX[to]]
                if kind == ATTACK:
                    victim = COLOURS[PLAYER_SEAT[owner(vt)]]
                    detail = f": {_stack(vf)} takes {victim}'s {_stack(vt)}"
                else:
                    detail = f": {TYPE_NAMES[stone(vf)]} on top, height {height(vf) + height(vt)}"
            position.play(kind, frm, to)
            self.cells = position.cells[:]
        else:
            # The log disagrees with the rules (or lacks the board): the next request's
            # board is the truth.
            if position is None:
                detail = " (the board before it is not in the log)"
            else:
                detail = " (the rules do not allow it here: the log is not a game's)"
            if after is not None:
                self._resync(after)
            else:
                self.position, self.cells = None, None
        name = self.who(seat)
        short = COLOURS[seat] if seat in (0, 1) else name
        drawn: dict[str, Any] = {"kind": KIND_NAMES[kind], "seat": seat}
        if kind == PASS:
            return Step(
                f"{turn}. {short} pass",
                events,
                f"{turn}. {name} passes{detail}",
                self._picture(drawn),
            )
        a, b = _cell_name(frm), _cell_name(to)
        sign, verb = ("x", "captures") if kind == ATTACK else ("+", "stacks")
        drawn["from"], drawn["to"] = _xy(frm), _xy(to)
        return Step(
            f"{turn}. {short} {a}{sign}{b}",
            events,
            f"{turn}. {name} {verb} {a} -> {b}{detail}",
            self._picture(drawn),
        )

    def _no_move(self, turn: int, seat: int | None, start: int, stop: int) -> Step:
        """A request the log shows no accepted move for, though the game went on."""
        self._resync(stop)
        return Step(
            f"{turn}. {self.who(seat)}: no move",
            (start, stop),
            f"{turn}. {self.who(seat)} was asked for a move; the log shows none accepted",
            self._picture(None),
        )

    def _end(self, start: int, requests: list[int]) -> Step:
        """The rest of the log: the referee's closing note after the last move (which stays
        drawn), or the request that ended in a fault, with the reply it rejected drawn
        when that named two cells."""
        events = self.events[start:]
        faults = [e for e in events if e.kind == "fault"]
        if start in requests:
            picture = self._picture(None)
            attempt = self._attempt(events, self.events[start].seat)
            if attempt is not None:
                picture["attempt"] = attempt
        else:
            picture = dict(self.last)
        picture.pop("next", None)
        picture["winners"] = [s for s, r in enumerate(self.replay.ranks) if r == 1]
        label_ = "end"
        if faults:
            seat = faults[-1].seat
            side = COLOURS[seat] if seat in (0, 1) else "referee"
            label_ = f"end: {side} {faults[-1].text.split(':', 1)[0][:20]}"
        return Step(label_, (start, len(self.events)), self._ending(), picture)

    @staticmethod
    def _attempt(events: Sequence[Event], seat: int | None) -> dict[str, Any] | None:
        """The asked seat's rejected reply, when it was a move naming two cells."""
        reply = next((e for e in events if e.kind == "recv" and e.seat == seat), None)
        if reply is None:
            return None
        try:
            _, frm, to = parse_move(_json(reply.text))
        except WireError:
            return None
        if _xy(frm) is None or _xy(to) is None:
            return None
        return {"seat": seat, "from": _xy(frm), "to": _xy(to)}

    def _ending(self) -> str:
        """How the game ended, naming the winning bot and its colour."""
        replay = self.replay
        reason = replay.reason
        if replay.void:
            return f"void game: {reason}"
        winners = [s for s, r in enumerate(replay.ranks) if r == 1]
        if len(winners) != 1 or winners[0] not in (0, 1) or len(replay.seating) != 2:
            names = " and ".join(replay.seating[s] for s in winners) or "nobody"
            return f"{names} ranked first: {reason}"
        winner, loser = winners[0], 1 - winners[0]
        head = f"{replay.seating[winner]} ({COLOURS[winner]}) wins"
        won, lost = f"{COLOURS[winner].lower()} wins: ", f"{COLOURS[loser].lower()} loses: "
        if reason.startswith(won):
            return f"{head}: {reason[len(won) :]}"
        if reason.startswith(lost):
            rest = reason[len(lost) :]
            return f"{head}; {replay.seating[loser]} ({COLOURS[loser]}) loses: {rest}"
        return f"{head}: {reason}"

    def _picture(self, move: dict[str, Any] | None) -> dict[str, Any]:
        picture: dict[str, Any] = {"cells": self.cells}
        if move is not None:
            picture["move"] = move
        position = self.position
        if position is not None and not position.winner():
            picture["next"] = {
                "seat": PLAYER_SEAT[position.player],
                "attackOnly": position.phase == 0,
            }
        self.last = picture
        return picture


def _cell_name(location: tuple[int, int] | None) -> str:
    return "?" if location is None else label(*location)
