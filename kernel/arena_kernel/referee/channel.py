"""One bot's connection seen through its codec: the referee's half of the wire.

A channel outlives a single game when bots stay connected for a session; it is attached
to each game's event log and seat number in turn.

Every message of every game passes through here, so the path of a round trip is kept
short: one stamp per read and per write (the log and the clocks share it), the log's
entry a bare tuple, one way for a request to end (:meth:`Channel._end`).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

from arena_kernel.codecs import compiled
from arena_kernel.codecs.base import Codec
from arena_kernel.model import Fault, FaultKind
from arena_kernel.processes.cpu_meter import CpuMeter
from arena_kernel.referee import hot_path
from arena_kernel.referee.alarm import Cancellable, Scheduler, alarm
from arena_kernel.referee.eventlog import MAX_LOGGED_TEXT, EventLog, wire_text
from arena_kernel.transports.base import Connection

MAX_PENDING = 1000
"""Unsolicited messages kept for the next request; beyond that the bot is flooding."""

PENDING_BYTES_IN_MESSAGES = 4
"""How much a bot may send between two requests while no request waits, in messages of
the codec's largest size; beyond that the bot is flooding (one endless line, a stream of
bytes no codec can frame)."""

TIMED_OUT = Fault(FaultKind.TIMEOUT, "no reply")
"""How a request that got no reply in time ends; the table names the clock that ran out."""

WALL_CAPPED = Fault(FaultKind.WALL_CAP, "no reply")
"""How a request on a CPU-time clock ends that got no reply within its wall-clock cap."""

RequestResult = tuple[Any, float, float | None]
"""How a request ended: (the decoded message, or the :class:`Fault` instead of it, the
measured seconds, the CPU seconds the bot used meanwhile on a CPU-time clock, else None).
A codec fault stands in the message's place."""

CPU_STEP = 0.001
"""The least wait before a CPU-time clock looks again at a bot that is short of its limit."""


class _CpuWatch:
    """One request on a CPU-time clock: the bot's CPU time when it began, and the CPU time
    it may use since."""

    __slots__ = ("base", "limit", "meter")

    def __init__(self, meter: CpuMeter, base: float, limit: float) -> None:
        self.meter = meter
        self.base = base
        self.limit = limit

    def used(self) -> float | None:
        """CPU seconds used since the request (None: the bot's processes are gone)."""
        now = self.meter.seconds()
        return None if now is None else max(now - self.base, 0.0)


class Channel:
    """Decodes a bot's bytes into messages and hands them to the one waiting request.

    Lock-step protocols need a reply to be matched to *its* request. A message that arrives
    while no request waits is queued as unsolicited and shown to the game with the next
    reply. After a request timed out, the next message the bot sends is its late answer to
    that request (bots answer in order), so it is logged as ``late`` and queued too, never
    taken as the answer to a later request.

    On a CPU-time clock (see :meth:`request`) a reply is also judged by the CPU time the
    bot's processes used since the request, read as the reply is read and whenever the
    clock looks again (at the limit by the wall clock, then as often as the CPU left
    says); its deadline is then the wall-clock cap.

    A reply is judged by when it was read, stamped as it comes off the wire, against its
    request's deadline: on a busy event loop the timer that ends a request may run after
    the read of a reply that came too late, and must not be outrun by it. Reply times are
    measured from the write of the request to the read of its reply, so they measure the
    bot, not what else the referee was doing; the log's events carry the same stamps.

    A bot that floods (more than :data:`MAX_PENDING` unsolicited messages waiting, or more
    than :data:`PENDING_BYTES_IN_MESSAGES` of the largest messages sent while no request
    waited) is done with at once: its channel closes with a ``flood`` fault and its
    connection is closed, so that it costs the arena nothing more and other games never
    notice it. What it sent unasked is logged up to a cap per game
    (:meth:`EventLog.admit_unsolicited`), then counted.
    """

    __slots__ = (
        "_alarm",
        "_check_at",
        "_cpu",
        "_deadline",
        "_decoder",
        "_hang_up",
        "_inbox",
        "_loop",
        "_meter",
        "_owed",
        "_pending_bytes",
        "_sent_at",
        "_timer",
        "_timer_at",
        "_waiter",
        "answered",
        "closed",
        "closed_in",
        "codec",
        "connection",
        "identifier",
        "log",
        "name",
        "seat",
        "started",
        "tagged",
    )

    def __init__(
        self,
        name: str,
        identifier: str,
        connection: Connection | None,
        codec: Codec,
        *,
        tagged: bool = False,
    ) -> None:
        """``tagged``: the protocol's replies name their request (Liar's Dice's
        ``message_id``), so a message after a timeout is not assumed to be the late answer:
        it goes to the game, which tells a stale reply from the current one (and may wait on
        with ``Table.receive``). Untagged, the next message after a timeout is taken as the
        late answer and never as the reply to a later request."""
        self.name = name
        self.identifier = identifier
        self.connection = connection
        self.codec = codec
        self._decoder = codec.decoder()
        self._inbox: deque[tuple[Any, bytes]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        """The event loop of the channel's first request (its connection's): kept, because
        asking for the running loop costs a system call (a check of the process id)."""
        self._alarm: Scheduler | None = None
        self._waiter: asyncio.Future[RequestResult] | None = None
        """The request waiting for its reply; None once it has ended (or if it was
        cancelled: then it is done)."""
        self._sent_at = 0.0
        self._deadline = 0.0
        self._check_at = 0.0
        """When the timer is next to look at the waiting request: its deadline, or on a
        CPU-time clock the instant its CPU time could reach the limit at the earliest."""
        self._cpu: _CpuWatch | None = None
        self._meter = connection.cpu_meter if connection is not None else None
        self._timer: Cancellable | None = None
        self._timer_at = 0.0
        self.started = (
            connection.started
            if connection is not None and connection.started is not None
            else time.monotonic()
        )
        """When the bot was started (monotonic seconds): its start-up clock runs from here."""
        self.answered = False
        """Whether a request to this bot has ended yet: until then, requests are on the
        start-up clock (see :class:`~arena_kernel.referee.table.Table`)."""
        self._pending_bytes = 0
        """Bytes received since the last request while no request waited."""
        self._hang_up: asyncio.Future[None] | None = None
        self._owed: deque[float] = deque()
        """When each request that timed out and is still owed its late answer was sent."""
        self.tagged = tagged
        self.closed: Fault | None = None
        self.closed_in: EventLog | None = None
        """The game log that recorded the bot's exit as it happened (None: not logged)."""
        self.log: EventLog | None = None
        self.seat: int | None = None
        if connection is not None:
            compiled = hot_path.COMPILED
            reader = self._on_data if compiled is None else compiled.Reader(self)
            connection.start(reader, self._on_closed)

    @classmethod
    def failed(cls, name: str, identifier: str, codec: Codec, detail: str) -> Channel:
        """A seat whose bot never came up: every request fails at once with ``connect``."""
        channel = cls(name, identifier, None, codec)
        channel.closed = Fault(FaultKind.CONNECT, detail)
        return channel

    def attach(self, log: EventLog, seat: int) -> None:
        """Route this channel's events to a game's log, under that game's seat number.

        What the bot sent before any log was attached (a greeting written as soon as it
        connected) is logged now, so that no transcript misses it.
        """
        first = self.log is None
        self.log = log
        self.seat = seat
        if first:
            now = time.monotonic()
            for message, raw in self._inbox:
                self._log_received(message, raw, "recv", now, None)

    # -- receiving ---------------------------------------------------------------

    def _on_data(self, data: bytes) -> None:
        if self.closed is not None:
            return  # flooded: what is still on its way is not looked at
        arrived = time.monotonic()
        waiter = self._waiter
        if waiter is None or waiter.done():
            waiter = None
            self._pending_bytes += len(data)
            limit = PENDING_BYTES_IN_MESSAGES * self.codec.max_message
            if self._pending_bytes > limit:
                self._flood(f"more than {limit // 1024} KiB of unsolicited data", arrived)
                return
        items = self._decoder.feed(data)
        # The round trip of nearly every message, in one step: the one item read is the
        # reply, in time, to the request waiting on the wall clock, and the log keeps its
        # bytes; it ends the request as _deliver would. Anything else is _deliver's.
        if (
            waiter is not None
            and len(items) == 1
            and self._cpu is None
            and not self._owed
            and arrived <= self._deadline
        ):
            message, raw = items[0]
            if type(message) is not Fault and len(raw) <= MAX_LOGGED_TEXT:
                elapsed = arrived - self._sent_at
                if self.log is not None:
                    self.log.record((arrived, "recv", self.seat, raw, elapsed, None))
                self._waiter = None
                self.answered = True
                waiter.set_result((message, elapsed, None))
                return
        self._deliver(items, arrived)

    def _on_closed(self, reason: str) -> None:
        if self.closed is not None:
            return
        arrived = time.monotonic()
        self._deliver(self._decoder.close(), arrived)
        memory = self.connection is not None and self.connection.out_of_memory
        self._close_with(Fault(FaultKind.MEMORY if memory else FaultKind.EXIT, reason), arrived)

    def _flood(self, detail: str, arrived: float) -> None:
        """Done with a flooding bot: fault it, and hang up on it (which also ends its
        process) so that not another byte of it is read."""
        self._close_with(Fault(FaultKind.FLOOD, detail), arrived)
        if self.connection is not None:
            self._hang_up = asyncio.ensure_future(self.connection.close())

    def _close_with(self, fault: Fault, arrived: float) -> None:
        """The bot can answer nothing more: log why where it happened, and fail the waiting
        request (unless its time was already up)."""
        if self.closed is not None:
            return
        self.closed = fault
        if self.log is not None:
            self.log.add("fault", self.seat, str(fault))
            self.closed_in = self.log
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            if arrived > self._deadline:
                self._time_out(waiter, arrived)
            else:
                self._end(waiter, fault, arrived - self._sent_at)

    def _log_received(
        self,
        message: Any,
        raw: bytes,
        kind: str,
        arrived: float,
        elapsed: float | None,
        cpu: float | None = None,
    ) -> None:
        """A received message (``kind`` ``recv`` or ``late``), or the codec's fault; one
        that answers no request only while the log still keeps those of this seat."""
        log = self.log
        if log is None or (elapsed is None and not log.admit_unsolicited(self.seat)):
            return
        if isinstance(message, Fault):
            fault = f"{message}: {wire_text(raw)}"
            log.record((arrived, "fault", self.seat, fault, elapsed, cpu))
        else:
            text = raw if len(raw) <= MAX_LOGGED_TEXT else wire_text(raw)
            log.record((arrived, kind, self.seat, text, elapsed, cpu))

    def _deliver(self, items: list[tuple[Any, bytes]], arrived: float) -> None:
        """Judge each of ``items`` (:meth:`_on_data` has ended the usual reply itself)."""
        for item in items:
            if self.closed is not None:
                return  # flooded by the items before: the rest are dropped unread
            waiter = self._waiter
            cpu = None
            if waiter is not None and not waiter.done():
                if arrived > self._deadline:
                    # Too late, even though the timer that says so has not run yet.
                    self._time_out(waiter, arrived)
                elif self._cpu is not None:
                    cpu = self._cpu.used()
                    if cpu is not None and cpu > self._cpu.limit:
                        self._time_out(waiter, arrived, cpu)
            if waiter is None or waiter.done() or self._owed:
                self._unasked(item, arrived)
                continue
            message, raw = item
            elapsed = arrived - self._sent_at
            self._log_received(message, raw, "recv", arrived, elapsed, cpu)
            self._end(waiter, message, elapsed, cpu)

    def _unasked(self, item: tuple[Any, bytes], arrived: float) -> None:
        """A message that answers no waiting request: the late answer to one that timed
        out, or unsolicited. Either waits for the next request."""
        message, raw = item
        if self._owed:
            self._log_received(message, raw, "late", arrived, arrived - self._owed.popleft())
        else:
            self._log_received(message, raw, "recv", arrived, None)
        if len(self._inbox) < MAX_PENDING:
            self._inbox.append(item)
        else:
            self._flood(f"more than {MAX_PENDING} unsolicited messages", arrived)

    def drain(self) -> list[Any]:
        """Take the unsolicited messages (and codec faults) received so far."""
        if not self._inbox:
            return []
        items = [message for message, _raw in self._inbox]
        self._inbox.clear()
        return items

    # -- sending -----------------------------------------------------------------

    def post(self, message: Any) -> None:
        """Encode and write one message; a gone bot silently drops it (its fault is known)."""
        self._write(compiled.encode(self.codec, message), time.monotonic())

    def post_encoded(self, data: bytes) -> None:
        """Write one message already encoded by this channel's codec (:meth:`post` without
        the encoding: a broadcast encodes its message once for every seat)."""
        self._write(data, time.monotonic())

    def _write(self, data: bytes, stamp: float) -> None:
        if self.log is not None:
            text = data if len(data) <= MAX_LOGGED_TEXT else wire_text(data)
            self.log.record((stamp, "send", self.seat, text, None, None))
        if self.closed is None and self.connection is not None:
            self.connection.write(data)

    @property
    def cpu_timed(self) -> bool:
        """Whether a CPU-time clock can time this bot (the arena started it, measuring)."""
        return self._meter is not None

    def request(
        self,
        message: Any,
        delay: float,
        *,
        queued: bool = False,
        wall_cap: float | None = None,
        from_start: bool = False,
    ) -> asyncio.Future[RequestResult]:
        """Write ``message`` and return the future of its one :data:`RequestResult`, due within
        ``delay`` s.

        ``message`` None writes nothing: the bot is to send something by itself (a greeting
        such as Speed Clue's ``alive``), and with ``queued`` a message that already arrived
        answers at once. The stopwatch starts at the write; for an in-process bot, which
        answers inside the write, that includes its thinking.

        ``wall_cap``: the request is on a CPU-time clock, if the bot can be timed so
        (:attr:`cpu_timed`): ``delay`` is then CPU seconds, counted from the request (or
        from the bot's start, ``from_start``), and ``wall_cap`` times ``delay`` is the
        most it may take by the wall clock.
        """
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
            self._alarm = alarm(loop)
        waiter = loop.create_future()
        self._waiter = waiter
        data = None if message is None else self.codec.encode(message)
        self._cpu = None
        if wall_cap is not None and self._meter is not None:
            base = self._meter.seconds()
            if base is not None:
                # From the bot's start, what it used before the request is spent already;
                # a reply's CPU time is always its own, from the request.
                allowance = delay - base if from_start else delay
                self._cpu = _CpuWatch(self._meter, base, allowance)
        self._sent_at = sent_at = time.monotonic()
        self._pending_bytes = 0
        # Set before the write: the write itself may find the bot gone (too much written
        # to it unread), and that fault is judged against this request's deadline.
        self._check_at = check_at = sent_at + delay
        if self._cpu is not None:
            assert wall_cap is not None
            self._deadline = sent_at + delay * wall_cap
        else:
            self._deadline = check_at
        if data is not None:
            self._write(data, sent_at)
        if not waiter.done():
            if queued and self._inbox:
                self._end(waiter, self._inbox.popleft()[0], 0.0)
            elif self.closed is not None:
                self._end(waiter, self.closed, 0.0)
        # One timer per channel, moved only when it would ring too late: each request's
        # first check is later than the one before, so a timer left over from an answered
        # request simply rings, finds the new check and waits on. Most requests cost no
        # timer. (The alarm's clock is time.monotonic, as every stamp here.)
        if self._timer is None or self._timer_at > check_at:
            if self._timer is not None:
                self._timer.cancel()
            self._set_timer(check_at)
        return waiter

    def ask(self, message: Any, delay: float) -> asyncio.Future[RequestResult]:
        """:meth:`request` of ``message`` on the wall clock, due within ``delay`` s, in one
        step: the request of nearly every round trip (the table's usual one), and what the
        compiled path (:mod:`~arena_kernel.referee.hot_path`) does in its place."""
        loop = self._loop
        if loop is None:
            return self.request(message, delay)
        waiter = loop.create_future()
        self._waiter = waiter
        data = self.codec.encode(message)
        self._cpu = None
        self._sent_at = sent_at = time.monotonic()
        self._pending_bytes = 0
        self._check_at = self._deadline = check_at = sent_at + delay
        if self.log is not None:
            text = data if len(data) <= MAX_LOGGED_TEXT else wire_text(data)
            self.log.record((sent_at, "send", self.seat, text, None, None))
        if self.closed is None and self.connection is not None:
            self.connection.write(data)
        if self.closed is not None and not waiter.done():
            self._end(waiter, self.closed, 0.0)
        if self._timer is None or self._timer_at > check_at:
            if self._timer is not None:
                self._timer.cancel()
            self._set_timer(check_at)
        return waiter

    def _set_timer(self, when: float) -> None:
        assert self._alarm is not None
        self._timer = self._alarm.call_at(when, self._on_timer)
        self._timer_at = when

    def _on_timer(self) -> None:
        self._timer = None
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        now = time.monotonic()
        if now < self._check_at:
            self._set_timer(self._check_at)
            return
        watch = self._cpu
        if watch is None or now >= self._deadline:
            self._time_out(waiter, now)
            return
        used = watch.used()
        if used is None:  # the bot is gone: its exit ends the request, or the cap does
            self._check_at = self._deadline
        elif used >= watch.limit:
            self._time_out(waiter, now, used)
            return
        else:
            self._check_at = min(now + max(watch.limit - used, CPU_STEP), self._deadline)
        self._set_timer(self._check_at)

    def _time_out(
        self, waiter: asyncio.Future[RequestResult], now: float, cpu: float | None = None
    ) -> None:
        """End a request that got no reply in time: by the wall clock (its limit, or the
        cap of a CPU-time clock), or with ``cpu`` seconds, past its CPU-time limit. The bot
        still owes it (untagged)."""
        if not self.tagged:
            self._owed.append(self._sent_at)
        watch = self._cpu
        if watch is None:
            self._end(waiter, TIMED_OUT, self._deadline - self._sent_at)
        elif cpu is not None:
            self._end(waiter, TIMED_OUT, now - self._sent_at, cpu)
        else:
            used = watch.used()
            self._end(waiter, WALL_CAPPED, self._deadline - self._sent_at, used)

    def _end(
        self,
        waiter: asyncio.Future[RequestResult],
        message: Any,
        elapsed: float,
        cpu: float | None = None,
    ) -> None:
        """End the waiting request with its result: every request ends here, answered,
        faulted or timed out."""
        self._waiter = None
        self.answered = True
        waiter.set_result((message, elapsed, cpu))

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.connection is not None:
            await self.connection.close()


hot_path.configure(Channel)
