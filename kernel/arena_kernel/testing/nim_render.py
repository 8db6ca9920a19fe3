"""How the report draws a game of Nim: the pile after each move, who took what, who went out.

The renderer reads the referee's own messages, so it needs no rules engine: each ``move
<pile>`` request opens a step (the pile before the move), the seat's reply is the take,
and a fault of that seat in the step puts it out. It reads every wire form the test games
speak (``line``/``raw``, ``jsonl``, ``sexpr``), since the stored text is the encoded one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from arena_kernel.plugin import Event, Renderer, Replay, Step
from arena_kernel.testing.nim import MAX_TAKE
from arena_kernel.testing.wire import from_wire


def read_wire(text: str) -> tuple[str, list[Any]]:
    """``(verb, args)`` of a stored message in any of the test games' wire forms;
    ``("", [])`` for anything else (a bot may send any text, such as JSON nested deeper
    than the parser's stack, over a codec that does not read JSON)."""
    text = text.strip()
    if text.startswith("{"):
        try:
            return from_wire("jsonl", json.loads(text))
        except (ValueError, RecursionError):
            return "", []
    if text.startswith("(") and text.endswith(")"):
        return from_wire("line", text[1:-1])
    return from_wire("line", text)


class NimRenderer(Renderer):
    name = "nim"
    summary = "the pile after each move, who took what, who went out"

    def steps(self, replay: Replay) -> Sequence[Step]:
        events = replay.events
        moves = [
            i
            for i, e in enumerate(events)
            if e.kind == "send" and "move" in e.text and _verb(e) == "move"  # cheap test first
        ]
        start = _first_pile(events, replay.options)
        out: list[int] = []
        steps = [
            Step(
                "start",
                (0, moves[0] if moves else len(events)),
                f"a pile of {start} stones; {_seats(replay.seating)}",
                {"start": start, "pile": start, "taken": 0, "by": None, "out": []},
            )
        ]
        pile = start
        ends = [*moves[1:], len(events)] if moves else []
        for number, (begin, end) in enumerate(zip(moves, ends, strict=True), start=1):
            seat = events[begin].seat
            _verb_sent, args = read_wire(events[begin].text)
            pile = args[0] if args and isinstance(args[0], int) else pile
            bot = _bot(replay.seating, seat)
            take, fault = _move(events[begin + 1 : end], seat, pile)
            if take is None:
                out.append(seat if seat is not None else -1)
                label = f"{number}. {bot} out"
                caption = f"{bot} is out: {fault or 'no legal move'}"
                take = 0
            else:
                pile -= take
                label = f"{number}. {bot} takes {take}"
                left = "the last stone" if pile == 0 else f"leaving {pile}"
                caption = f"{bot} takes {take}, {left}"
            picture = {"start": start, "pile": pile, "taken": take, "by": seat, "out": sorted(out)}
            steps.append(Step(label, (begin, end), caption, picture))
        last = steps[-1]
        ending = _ending(replay)
        caption = f"{last.caption}. {ending}" if last.caption else ending
        steps[-1] = Step(last.label, last.events, caption, last.picture)
        return steps

    def script(self) -> str:
        return files("arena_kernel.testing").joinpath("nim_draw.js").read_text(encoding="utf-8")

    def style(self) -> str:
        return files("arena_kernel.testing").joinpath("nim_draw.css").read_text(encoding="utf-8")


def _verb(event: Event) -> str:
    return read_wire(event.text)[0]


def _first_pile(events: Sequence[Event], options: Any) -> int:
    """The pile the game started with: what ``start`` or the first ``move`` says (the
    spread option makes it differ from the ``pile`` option)."""
    for event in events:
        if event.kind != "send":
            continue
        verb, args = read_wire(event.text)
        if verb == "start" and len(args) == 3 and isinstance(args[2], int):
            return args[2]
        if verb == "move" and args and isinstance(args[0], int):
            return args[0]
    pile = options.get("pile", 0)
    return pile if isinstance(pile, int) else 0


def _move(events: Sequence[Event], seat: int | None, pile: int) -> tuple[int | None, str]:
    """The stones ``seat`` took in reply to its request (None: it went out), and the
    fault that put it out."""
    take: int | None = None
    for event in events:
        if event.seat != seat:
            continue
        if event.kind == "fault":
            return None, event.text
        if event.kind == "recv" and event.elapsed is not None and take is None:
            verb, args = read_wire(event.text)
            legal = len(args) == 1 and isinstance(args[0], int) and 1 <= args[0] <= pile
            if verb == "take" and legal and args[0] <= MAX_TAKE:
                take = args[0]
    return take, ""


def _ending(replay: Replay) -> str:
    """How the game ended, naming the winner."""
    if replay.void:
        return f"Void game: {replay.reason}"
    winners = replay.winners()
    if not winners:
        return f"No winner: {replay.reason}"
    return f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}: {replay.reason}"


def _bot(seating: Sequence[str], seat: int | None) -> str:
    return seating[seat] if seat is not None and 0 <= seat < len(seating) else "?"


def _seats(seating: Sequence[str]) -> str:
    return ", ".join(f"seat {seat}: {bot}" for seat, bot in enumerate(seating))
