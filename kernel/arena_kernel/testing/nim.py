"""Nim, the kernel's test game: take 1 to 3 stones, whoever takes the last one wins.

Protocol (shown for the ``line`` codec; see :mod:`arena_kernel.testing.wire` for the others):
``start <seat> <players> <pile>`` (no reply), then ``move <pile>`` -> ``take <k>``, and
``took <seat> <k> <left>`` to every seat after each move, ``over <winner>`` at the end.
A seat whose reply is missing, late, unreadable or illegal is out of the game; the game
goes on without it, and it ranks behind everyone who stayed in.

Over the unframed ``raw`` codec only the ``move`` requests are sent: without framing, two
messages in a row with no reply between them would reach the bot as one (Speed Clue's
protocol answers every message for that reason).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from arena_kernel.plugin import BuiltinBot, FaultKind, Game, Option, Outcome
from arena_kernel.testing.wire import from_wire, to_wire

if TYPE_CHECKING:
    from arena_kernel.plugin import Reply, Table

MAX_TAKE = 3

SHOWN = 200
"""Characters of a bad reply quoted in its fault: enough to see it, never the whole of a
message of a megabyte."""


def best_take(pile: int) -> int:
    """The winning move in two-player Nim (leave a multiple of 4), else take one."""
    return pile % (MAX_TAKE + 1) or 1


class NimBot:
    """In-process and subprocess Nim bot (``optimal`` or ``random``) for the line codec."""

    def __init__(self, strategy: str = "optimal", seed: int | None = None) -> None:
        self.strategy = strategy
        self.rng = random.Random(seed)

    def start(self) -> list[Any]:
        return []

    def on_message(self, message: Any) -> list[Any]:
        verb, args = from_wire("line", message)
        if verb != "move":
            return []
        pile = int(args[0])
        if self.strategy == "random":
            take = self.rng.randint(1, min(MAX_TAKE, pile))
        else:
            take = best_take(pile)
        return [f"take {take}"]


class Nim(Game[None]):
    name = "nim"
    summary = "Nim (kernel test game): take 1-3 stones, the last stone wins"
    seats = (2, 3, 4)
    codec = "line"
    transport = "stdio"
    options = {
        "pile": Option(21, "stones on the pile at the start", minimum=1),
        "spread": Option(0, "add a seeded random 0..spread stones to the pile", minimum=0),
    }
    bots = {
        "optimal": BuiltinBot(
            "leaves a multiple of four",
            "arena_kernel.testing.nim_bot",
            ("optimal",),
            inproc=lambda: NimBot("optimal"),
        ),
        "random": BuiltinBot(
            "takes a random legal number",
            "arena_kernel.testing.nim_bot",
            ("random",),
            inproc=lambda: NimBot("random"),
        ),
    }

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        rng = random.Random(seed)
        codec = table.seats[0].channel.codec.name
        pile = self.config["pile"] + rng.randint(0, self.config["spread"])
        n = len(table)
        informed = codec != "raw"
        if informed:
            for seat in range(n):
                table.send(seat, to_wire(codec, "start", seat, n, pile))
        out: list[int] = []  # seats that faulted, in order of elimination
        seat = 0
        while True:
            if seat not in out:
                reply = await table.ask(seat, to_wire(codec, "move", pile))
                take = self._judge(table, seat, codec, reply, pile)
                if take is None:
                    out.append(seat)
                    if len(out) == n - 1 or len(out) == n:
                        break
                else:
                    pile -= take
                    if informed:
                        table.broadcast(to_wire(codec, "took", seat, take, pile))
                    if pile == 0:
                        if informed:
                            table.broadcast(to_wire(codec, "over", seat))
                        return self._outcome(n, seat, out, "took the last stone")
            seat = (seat + 1) % n
        survivors = [s for s in range(n) if s not in out]
        winner = survivors[0] if survivors else -1
        if informed:
            table.broadcast(to_wire(codec, "over", winner))
        return self._outcome(n, winner, out, "every other seat faulted")

    @staticmethod
    def _judge(table: Table, seat: int, codec: str, reply: Reply, pile: int) -> int | None:
        if not reply.ok:
            return None
        verb, args = from_wire(codec, reply.message)
        if verb != "take" or len(args) != 1 or not isinstance(args[0], int):
            table.fault(
                seat, FaultKind.ILLEGAL, f"expected take <1-3>, got {_shown(reply.message)}"
            )
            return None
        take = args[0]
        if not 1 <= take <= min(MAX_TAKE, pile):
            table.fault(seat, FaultKind.ILLEGAL, f"cannot take {take} from a pile of {pile}")
            return None
        return take

    @staticmethod
    def _outcome(n: int, winner: int, out: list[int], reason: str) -> Outcome:
        """Winner first; players still in share second; faulted seats rank behind, the
        earliest to fault last."""
        ranks = [0] * n
        survivors = [s for s in range(n) if s not in out and s != winner]
        if winner >= 0:
            ranks[winner] = 1
        for s in survivors:
            ranks[s] = 2
        place = 2 + len(survivors)
        for s in reversed(out):
            ranks[s] = place
            place += 1
        if winner < 0:
            return Outcome(ranks, "every seat faulted")
        return Outcome(ranks, f"{reason} (seat {winner})")


def _shown(message: Any) -> str:
    """``repr(message)``, cut to :data:`SHOWN` characters."""
    text = repr(message)
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}... ({len(text)} characters)"
