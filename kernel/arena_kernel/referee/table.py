"""The table: everything a game's protocol adapter may do with its seats.

Send to a seat, ask a seat with its clock, ask several seats at once within one deadline,
broadcast, and record faults the game judges. Every answer is a :class:`Reply` value, so a
bot that times out, dies or sends garbage is a case the game handles, never an exception.

The first request to a bot is on its start-up clock, whatever the game asks: a bot's
first reply includes its start-up (a cold JVM, a Racket source compiled on the fly, an
interpreter on a busy machine), so that request may take whichever is longer, its own limit
or what is left of the start-up clock counted from the bot's start. Games need not
remember it, and the game time budget neither bounds nor pays for that first reply.

On a CPU-time clock (``Clocks.mode`` ``"cpu"``) every limit, the start-up clock and the game
budget are CPU seconds of the bot's processes, and a reply also has its wall-clock cap
(``Clocks.wall_cap`` times its limit). A bot the arena cannot measure (one that runs inside
it, or that connects by itself) stays on the wall clock.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from arena_kernel.codecs import compiled
from arena_kernel.codecs.base import Codec
from arena_kernel.model import Fault, FaultKind
from arena_kernel.referee import hot_path, turns
from arena_kernel.referee.channel import Channel, RequestResult
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog


@dataclass(slots=True)
class Reply:
    """A seat's answer: the decoded ``message``, or the ``fault`` that replaced it.

    ``elapsed`` is the measured reply time in seconds (from the write of the request to the
    read of the reply); ``limit`` the time the request had (grace not included), so that a
    game skipping a message that is not the answer can wait on within the same clock;
    ``unsolicited`` holds what the bot sent before this request was written (a late answer
    to an earlier request, a greeting), oldest first, for games whose protocol allows such
    messages. ``cpu``: on a CPU-time clock, the CPU seconds the bot's processes used for
    the reply (what ``limit`` bounds then), else None.
    """

    message: Any
    fault: Fault | None
    elapsed: float
    limit: float = 0.0
    unsolicited: list[Any] = field(default_factory=list)
    cpu: float | None = None

    @property
    def ok(self) -> bool:
        return self.fault is None


hot_path.configure_replies(Reply)


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

TERMINAL = frozenset({FaultKind.EXIT, FaultKind.MEMORY, FaultKind.CONNECT, FaultKind.FLOOD})
"""Faults after which a bot can answer nothing more: each is recorded once per seat."""


@dataclass(frozen=True, slots=True)
class _Limit:
    """The time one request has, how a timeout names it, whether it costs budget, whether
    it is CPU time, and whether that is counted from the bot's start (the start-up
    clock)."""

    seconds: float
    text: str
    charged: bool
    cpu: bool = False
    from_start: bool = False


@functools.lru_cache(maxsize=64)
def _plain(seconds: float, charged: bool, cpu: bool = False) -> _Limit:
    """A request's own limit, made once per value: nearly every request of a game has the
    same, and making it anew was a tenth of the referee's cost per message."""
    return _Limit(seconds, f"{seconds:g} s{_CPU_TIME if cpu else ''}", charged, cpu)


_CPU_TIME = " of CPU time"


class Table:
    """The seats of one game, in seating order, with their clocks and the game's event log."""

    def __init__(
        self,
        channels: Sequence[Channel],
        clocks: Clocks,
        log: EventLog,
        entrants: Sequence[int] | None = None,
    ) -> None:
        self.clocks = clocks
        self._wall_cap = clocks.wall_cap if clocks.mode == "cpu" else None
        """The wall-clock cap of a CPU-time clock, as a multiple of a limit; None: wall."""
        self.log = log
        self.seats = [Seat(i, ch, clocks.game) for i, ch in enumerate(channels)]
        self._entrants = tuple(range(len(channels)) if entrants is None else entrants)
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

    def entrant(self, seat: int) -> int:
        """The bot's seat in its session's ``open_session`` table: the same number in every
        game of the session, whatever seat it has in this one (a ``lifetime = "session"``
        game finds its per-bot state in the session object by it)."""
        return self._entrants[seat]

    def alive(self, seat: int) -> bool:
        """False once the bot's process or connection is gone (it can answer nothing)."""
        return self.seats[seat].alive

    # -- one-way ------------------------------------------------------------------

    def send(self, seat: int, message: Any) -> None:
        """Write a message that expects no reply."""
        self.seats[seat].channel.post(message)

    @overload
    def broadcast(
        self, message: Callable[[int], Any], seats: Iterable[int] | None = None
    ) -> None: ...
    @overload
    def broadcast(self, message: Any, seats: Iterable[int] | None = None) -> None: ...
    def broadcast(self, message: Any, seats: Iterable[int] | None = None) -> None:
        """Send to every seat (or to ``seats``); a callable gets the seat and builds its
        message (for protocols where each player sees the world from its own side)."""
        targets = range(len(self.seats)) if seats is None else seats
        if callable(message):
            for seat in targets:
                self.seats[seat].channel.post(message(seat))
            return
        # One message, encoded once per codec (the seats of a game share theirs).
        codec: Codec | None = None
        data = b""
        for seat in targets:
            channel = self.seats[seat].channel
            if channel.codec is not codec:
                codec = channel.codec
                data = compiled.encode(codec, message)
            channel.post_encoded(data)

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
        if (
            timeout is None
            and clock == "reply"
            and s.budget is None
            and self._wall_cap is None
            and channel.answered
        ):
            # Nearly every request, in one step: _limit, _request and _reply of a reply
            # clock on the wall clock with no game budget, after the first reply; or the
            # compiled path's drain, ask and reply in their place.
            clocks = self.clocks
            delay = clocks.reply + clocks.grace
            compiled = hot_path.COMPILED
            if compiled is None:
                unsolicited = channel.drain()
                waiter = channel.ask(message, delay)
            else:
                unsolicited = compiled.drain(channel)
                waiter = compiled.ask(channel, message, delay)
            connection = channel.connection
            if connection is not None and not waiter.done():
                connection.hand_over()
                if waiter.done() and turns.SHARED.spent():
                    # Answered already (in process), and the games on this loop have had
                    # their time slice: the other callbacks and timers run meanwhile.
                    await turns.SHARED.give_back()
            result = await waiter
            if type(result[0]) is not Fault:
                if compiled is None:
                    return Reply(result[0], None, result[1], clocks.reply, unsolicited, result[2])
                reply: Reply = compiled.reply(result, clocks.reply, unsolicited)
                return reply
            return self._reply(s, result, unsolicited, _plain(clocks.reply, True))
        unsolicited = channel.drain()
        limit = self._limit(s, timeout, clock)
        return self._reply(s, await self._request(s, message, limit), unsolicited, limit)

    async def ask_many(
        self,
        messages: Mapping[int, Any],
        *,
        timeout: float | None = None,
        clock: Clock = "reply",
    ) -> dict[int, Reply]:
        """Send each seat its message, then collect every reply within one clock each.

        All messages are written before any reply is awaited, so every bot gets the same
        time; the replies are returned by seat, faults included.
        """
        pending: list[tuple[Seat, list[Any], _Limit, asyncio.Future[RequestResult]]] = []
        for seat, message in messages.items():
            s = self.seats[seat]
            unsolicited = s.channel.drain()
            limit = self._limit(s, timeout, clock)
            pending.append((s, unsolicited, limit, self._request(s, message, limit)))
        replies: dict[int, Reply] = {}
        for s, unsolicited, limit, waiter in pending:
            replies[s.index] = self._reply(s, await waiter, unsolicited, limit)
        return replies

    async def receive(
        self, seat: int, *, timeout: float | None = None, clock: Clock = "startup"
    ) -> Reply:
        """Wait for a message the bot sends by itself (a handshake such as ``<id> alive``),
        taking one already received if there is one. Uses the start-up clock by default."""
        s = self.seats[seat]
        limit = self._limit(s, timeout, clock)
        return self._reply(s, await self._request(s, None, limit, queued=True), [], limit)

    def _request(
        self, seat: Seat, message: Any, limit: _Limit, *, queued: bool = False
    ) -> asyncio.Future[RequestResult]:
        delay = limit.seconds + self.clocks.grace
        if not limit.cpu:
            return seat.channel.request(message, delay, queued=queued)
        return seat.channel.request(
            message, delay, queued=queued, wall_cap=self._wall_cap, from_start=limit.from_start
        )

    def _limit(self, seat: Seat, timeout: float | None, clock: Clock) -> _Limit:
        base = timeout if timeout is not None else getattr(self.clocks, clock)
        channel = seat.channel
        cpu = self._wall_cap is not None and channel.cpu_timed
        if not channel.answered:
            startup = self.clocks.startup
            if cpu and startup > base:
                text = f"{startup:g} s of CPU time from its start (start-up clock)"
                return _Limit(startup, text, charged=False, cpu=True, from_start=True)
            left = channel.started + startup - time.monotonic()
            if not cpu and left > base:
                text = f"{startup:g} s of its start (start-up clock)"
                return _Limit(left, text, charged=False)
            return _plain(base, False, cpu)
        if seat.budget is not None and seat.budget < base:
            budget = max(seat.budget, 0.0)
            text = f"{budget:g} s{_CPU_TIME if cpu else ''} (game time budget exhausted)"
            return _Limit(budget, text, charged=True, cpu=cpu)
        return _plain(base, True, cpu)

    def _reply(
        self, seat: Seat, result: RequestResult, unsolicited: list[Any], limit: _Limit
    ) -> Reply:
        """What the game gets of how its request ended; a fault is recorded on the way."""
        message, elapsed, cpu = result
        if seat.budget is not None and limit.charged:
            seat.budget -= elapsed if cpu is None else cpu
        if type(message) is not Fault:
            return Reply(message, None, elapsed, limit.seconds, unsolicited, cpu)
        fault = message
        if fault.kind is FaultKind.TIMEOUT:
            used = "" if cpu is None else f" (it used {cpu:.3f} s)"
            fault = Fault(FaultKind.TIMEOUT, f"no reply within {limit.text}{used}")
        elif fault.kind is FaultKind.WALL_CAP:
            fault = Fault(FaultKind.WALL_CAP, self._wall_capped(limit, cpu))
        return Reply(None, self._record(seat, fault), elapsed, limit.seconds, unsolicited, cpu)

    def _wall_capped(self, limit: _Limit, cpu: float | None) -> str:
        """Why a request on a CPU-time clock ended at its wall-clock cap."""
        cap = self._wall_cap or 1.0
        seconds = cap * (limit.seconds + self.clocks.grace)
        used = "unknown" if cpu is None else f"{cpu:.3f} s"
        return (
            f"no reply within {seconds:g} s by the wall clock ({cap:g} times its limit of "
            f"{limit.text}), using {used} of CPU time meanwhile: it slept, blocked or waited"
        )

    # -- judgement ----------------------------------------------------------------

    def fault(self, seat: int, kind: FaultKind, detail: str) -> Fault:
        """Record a fault the game judged (usually ``FaultKind.ILLEGAL`` with the reason)."""
        return self._record(self.seats[seat], Fault(kind, detail))

    def _record(self, seat: Seat, fault: Fault) -> Fault:
        stamped = Fault(fault.kind, fault.detail, seat.index, self.log.now())
        terminal = fault.kind in TERMINAL
        if terminal and seat.reported:
            return stamped
        seat.reported = seat.reported or terminal
        self.faults.append(stamped)
        channel = seat.channel
        if fault != channel.closed or channel.closed_in is not self.log:
            self.log.add("fault", seat.index, str(stamped))  # not logged as it happened
        return stamped

    def note(self, text: str) -> None:
        """Add the referee's commentary to the replay."""
        self.log.note(text)
