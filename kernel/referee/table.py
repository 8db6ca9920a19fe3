"""The table: everything a game's protocol adapter may do with its seats.

Send to a seat, ask a seat with its clock, ask several seats at once within one deadline,
broadcast, and record faults the game judges. Every answer is a :class:`Reply` value, so a
bot that times out, dies or sends garbage is a case the game handles, never an exception.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from kernel.referee.channel import MAX_PENDING, Channel
from kernel.referee.clocks import Clocks
from kernel.referee.eventlog import EventLog
from kernel.referee.faults import Fault, FaultKind


@dataclass(slots=True)
class Reply:
    """A seat's answer: the decoded ``message``, or the ``fault`` that replaced it.

    ``elapsed`` is the measured reply time in seconds; ``unsolicited`` holds what the bot
    sent before this request was written (a late answer to an earlier request, a greeting),
    oldest first, for games whose protocol allows such messages.
    """

    message: Any
    fault: Fault | None
    elapsed: float
    unsolicited: list[Any] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.fault is None


class Seat:
    """One seat of one game: its bot's channel and its remaining game-time budget."""

    __slots__ = ("budget", "channel", "index", "reported")

    def __init__(self, index: int, channel: Channel, budget: float | None) -> None:
        self.index = index
        self.channel = channel
        self.budget = budget
        self.reported = False

    @property
    def name(self) -> str:
        return self.channel.name

    @property
    def alive(self) -> bool:
        return self.channel.closed is None


Clock = Literal["reply", "startup"]


class Table:
    """The seats of one game, in seating order, with their clocks and the game's event log."""

    def __init__(self, channels: Sequence[Channel], clocks: Clocks, log: EventLog) -> None:
        self.clocks = clocks
        self.log = log
        self.seats = [Seat(i, ch, clocks.game) for i, ch in enumerate(channels)]
        for seat in self.seats:
            seat.channel.attach(log, seat.index)
        self.faults: list[Fault] = []

    def __len__(self) -> int:
        return len(self.seats)

    def name(self, seat: int) -> str:
        """The bot's name at ``seat`` (as the match file calls it)."""
        return self.seats[seat].name

    def identifier(self, seat: int) -> str:
        """The identifier the bot was launched with (``{identifier}`` in its argv), unique
        in the run: what a protocol's handshake may have to repeat."""
        return self.seats[seat].channel.identifier

    def session_key(self, seat: int) -> Channel:
        """The same object for a bot in every game of its session (and in the session's
        ``open_session``/``close_session``), hashable and weakly referenceable: a
        ``lifetime = "session"`` game keys per-bot state by it (a ``WeakKeyDictionary``)."""
        return self.seats[seat].channel

    def alive(self, seat: int) -> bool:
        """False once the bot's process or connection is gone (it can answer nothing)."""
        return self.seats[seat].alive

    # -- one-way ------------------------------------------------------------------

    def send(self, seat: int, message: Any) -> None:
        """Write a message that expects no reply."""
        self.seats[seat].channel.post(message)

    def broadcast(
        self, message: Any | Callable[[int], Any], seats: Iterable[int] | None = None
    ) -> None:
        """Send to every seat (or to ``seats``); a callable gets the seat and builds its
        message (for protocols where each player sees the world from its own side)."""
        targets = range(len(self.seats)) if seats is None else seats
        build = message if callable(message) else None
        for seat in targets:
            self.seats[seat].channel.post(build(seat) if build else message)

    # -- requests -----------------------------------------------------------------

    async def ask(
        self, seat: int, message: Any, *, timeout: float | None = None, clock: Clock = "reply"
    ) -> Reply:
        """Send ``message`` and wait for the seat's one reply within its clock.

        ``timeout`` overrides the limit for this request (e.g. a game's longer first move);
        ``clock="startup"`` uses the start-up limit instead of the per-reply one.
        """
        s = self.seats[seat]
        channel = s.channel
        unsolicited = channel.drain()
        limit, budget_bound = self._limit(s, timeout, clock)
        waiter = channel.expect()
        channel.arm(limit + self.clocks.grace)
        channel.post(message)
        return self._settle(s, await waiter, unsolicited, limit, budget_bound)

    async def ask_many(
        self,
        messages: Mapping[int, Any],
        *,
        timeout: float | None = None,
        clock: Clock = "reply",
    ) -> dict[int, Reply]:
        """Send each seat its message, then collect every reply within ONE deadline.

        All messages are written before any reply is awaited, so every bot gets the same
        time; the replies are returned by seat, faults included.
        """
        pending: list[tuple[Seat, list[Any], float, bool, asyncio.Future[Any]]] = []
        for seat, message in messages.items():
            s = self.seats[seat]
            unsolicited = s.channel.drain()
            limit, budget_bound = self._limit(s, timeout, clock)
            pending.append((s, unsolicited, limit, budget_bound, s.channel.expect()))
            s.channel.post(message)
        for s, _unsolicited, limit, _bound, _waiter in pending:
            s.channel.arm(limit + self.clocks.grace)
        replies: dict[int, Reply] = {}
        for s, unsolicited, limit, budget_bound, waiter in pending:
            replies[s.index] = self._settle(s, await waiter, unsolicited, limit, budget_bound)
        return replies

    async def receive(
        self, seat: int, *, timeout: float | None = None, clock: Clock = "startup"
    ) -> Reply:
        """Wait for a message the bot sends by itself (a handshake such as ``<id> alive``),
        taking one already received if there is one. Uses the start-up clock by default."""
        s = self.seats[seat]
        limit, budget_bound = self._limit(s, timeout, clock)
        waiter = s.channel.expect(queued=True)
        s.channel.arm(limit + self.clocks.grace)
        return self._settle(s, await waiter, [], limit, budget_bound)

    def _limit(self, seat: Seat, timeout: float | None, clock: Clock) -> tuple[float, bool]:
        base = timeout if timeout is not None else getattr(self.clocks, clock)
        if seat.budget is not None and seat.budget < base:
            return max(seat.budget, 0.0), True
        return base, False

    def _settle(
        self, seat: Seat, result: Any, unsolicited: list[Any], limit: float, budget_bound: bool
    ) -> Reply:
        message, fault, elapsed = seat.channel.settle(result)
        if seat.budget is not None:
            seat.budget -= elapsed
        if fault is None and seat.channel.flooded and unsolicited:
            # Reported with the request after the flood, where the kept messages are shown.
            fault = Fault(FaultKind.FLOOD, f"more than {MAX_PENDING} unsolicited messages")
            seat.channel.flooded = False
        if fault is not None:
            if fault.kind is FaultKind.TIMEOUT:
                why = " (game time budget exhausted)" if budget_bound else ""
                fault = Fault(FaultKind.TIMEOUT, f"no reply within {limit:g} s{why}")
            fault = self._record(seat, fault)
            message = None
        return Reply(message, fault, elapsed, unsolicited)

    # -- judgement ----------------------------------------------------------------

    def fault(self, seat: int, kind: FaultKind, detail: str) -> Fault:
        """Record a fault the game judged (usually ``FaultKind.ILLEGAL`` with the reason)."""
        return self._record(self.seats[seat], Fault(kind, detail))

    def _record(self, seat: Seat, fault: Fault) -> Fault:
        stamped = Fault(fault.kind, fault.detail, seat.index, self.log.now())
        terminal = fault.kind in (FaultKind.EXIT, FaultKind.CONNECT)
        if terminal and seat.reported:
            return stamped
        seat.reported = seat.reported or terminal
        self.faults.append(stamped)
        if fault.kind is not FaultKind.EXIT or seat.channel.closed_in is not self.log:
            self.log.add("fault", seat.index, str(stamped))
        return stamped

    def note(self, text: str) -> None:
        """Add the referee's commentary to the replay."""
        self.log.note(text)
