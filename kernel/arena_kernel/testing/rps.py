"""Rock-paper-scissors, the kernel's test game for simultaneous moves and long-lived bots.

Bots stay connected for a whole session of games (``lifetime = "session"``). Each game is
``throws`` simultaneous throws: ``throw`` to both seats at once (one deadline) ->
``rock``/``paper``/``scissors``; then each seat gets ``result <own> <other>``. At the end of
the session every bot gets ``bye`` and answers ``bye``. A faulty throw loses the game.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from arena_kernel.plugin import BuiltinBot, FaultKind, Game, Option, Outcome

if TYPE_CHECKING:
    from arena_kernel.plugin import Table

BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


class RpsBot:
    """``random`` throws uniformly; ``rock`` always throws rock."""

    def __init__(self, strategy: str = "random", seed: int | None = None) -> None:
        self.strategy = strategy
        self.rng = random.Random(seed)

    def start(self) -> list[Any]:
        return []

    def on_message(self, message: Any) -> list[Any]:
        if message == "throw":
            return ["rock" if self.strategy == "rock" else self.rng.choice(sorted(BEATS))]
        if message == "bye":
            return ["bye"]
        return []


class Rps(Game[None]):
    name = "rps"
    summary = "rock-paper-scissors (kernel test game): simultaneous throws, session bots"
    seats = (2,)
    codec = "line"
    transport = "stdio"
    lifetime = "session"
    options = {"throws": Option(3, "throws per game", minimum=1)}
    bots = {
        "random": BuiltinBot(
            "uniform random throws",
            "arena_kernel.testing.rps_bot",
            ("random",),
            inproc=lambda: RpsBot("random"),
        ),
        "rock": BuiltinBot(
            "always rock", "arena_kernel.testing.rps_bot", ("rock",), inproc=lambda: RpsBot("rock")
        ),
    }

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        points = [0, 0]
        for _ in range(self.config["throws"]):
            replies = await table.ask_many({0: "throw", 1: "throw"})
            throws: list[str] = []
            for seat in (0, 1):
                reply = replies[seat]
                if not reply.ok:
                    return Outcome.win(1 - seat, 2, f"seat {seat} {reply.fault}")
                if not isinstance(reply.message, str) or reply.message not in BEATS:
                    table.fault(seat, FaultKind.ILLEGAL, f"not a throw: {reply.message!r}")
                    return Outcome.win(1 - seat, 2, f"seat {seat} threw {reply.message!r}")
                throws.append(reply.message)
            table.broadcast(lambda s, t=throws: f"result {t[s]} {t[1 - s]}")
            if BEATS[throws[0]] == throws[1]:
                points[0] += 1
            elif BEATS[throws[1]] == throws[0]:
                points[1] += 1
        return Outcome.by_scores(points, "more throws won")

    async def close_session(self, table: Table, session: None) -> None:
        for seat in range(len(table)):
            if table.alive(seat):
                reply = await table.ask(seat, "bye", timeout=1.0)
                if reply.ok and reply.message != "bye":
                    table.note(f"seat {seat} answered {reply.message!r} to bye")
