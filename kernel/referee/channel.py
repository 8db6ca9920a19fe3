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

from arena_kernel.codecs.base import Codec
from arena_kernel.model import Fault, FaultKind
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

Outcome = tuple[Any, float]
"""How a request ended: (the decoded message, or the :class:`Fault` instead of it, the
measured seconds). A decoder's items have the same shape: a codec fault stands in the
message's place."""


class Channel:
    """Decodes a bot's bytes into messages and hands them to the one waiting request.

    Lock-step protocols need a reply to be matched to *its* request. A message that arrives
    while no request waits is queued as unsolicited and shown to the game with the next
    reply. After a request timed out, the next message the bot sends is its late answer to
    that request (bots answer in order), so it is logged as ``late`` and queued too, never
    taken as the answer to a later request.

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
        "_deadline",
        "_decoder",
        "_hang_up",
        "_inbox",
        "_loop",
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
        self._waiter: asyncio.Future[Outcome] | None = None
        """The request waiting for its reply; None once it has ended (or if it was
        cancelled: then it is done)."""
        self._sent_at = 0.0
        self._deadline = 0.0
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
            connection.start(self._on_data, self._on_closed)

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
            self._pending_bytes += len(data)
            limit = PENDING_BYTES_IN_MESSAGES * self.codec.max_message
            if self._pending_bytes > limit:
                self._flood(f"more than {limit // 1024} KiB of unsolicited data", arrived)
                return
        self._deliver(self._decoder.feed(data), arrived)

    def _on_closed(self, reason: str) -> None:
        if self.closed is not None:
            return
        arrived = time.monotonic()
        self._deliver(self._decoder.close(), arrived)
        self._close_with(Fault(FaultKind.EXIT, reason), arrived)

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
                self._time_out(waiter)
            else:
                self._end(waiter, fault, arrived - self._sent_at)

    def _log_received(
        self, message: Any, raw: bytes, kind: str, arrived: float, elapsed: float | None
    ) -> None:
        """A received message (``kind`` ``recv`` or ``late``), or the codec's fault; one
        that answers no request only while the log still keeps those of this seat."""
        log = self.log
        if log is None or (elapsed is None and not log.admit_unsolicited(self.seat)):
            return
        if isinstance(message, Fault):
            log.record((arrived, "fault", self.seat, f"{message}: {wire_text(raw)}", elapsed))
        else:
            text = raw if len(raw) <= MAX_LOGGED_TEXT else wire_text(raw)
            log.record((arrived, kind, self.seat, text, elapsed))

    def _deliver(self, items: list[tuple[Any, bytes]], arrived: float) -> None:
        for item in items:
            if self.closed is not None:
                return  # flooded by the items before: the rest are dropped unread
            waiter = self._waiter
            if waiter is not None and (waiter.done() or arrived > self._deadline):
                if not waiter.done():
                    # Too late, even though the timer that says so has not run yet.
                    self._time_out(waiter)
                waiter = None
            if waiter is None or self._owed:
                self._unasked(item, arrived)
                continue
            message, raw = item
            elapsed = arrived - self._sent_at
            self._log_received(message, raw, "recv", arrived, elapsed)
            self._end(waiter, message, elapsed)

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
        self._write(self.codec.encode(message), time.monotonic())

    def _write(self, data: bytes, stamp: float) -> None:
        if self.log is not None:
            text = data if len(data) <= MAX_LOGGED_TEXT else wire_text(data)
            self.log.record((stamp, "send", self.seat, text, None))
        if self.closed is None and self.connection is not None:
            self.connection.write(data)

    def request(
        self, message: Any, delay: float, *, queued: bool = False
    ) -> asyncio.Future[Outcome]:
        """Write ``message`` and return the future of its one :data:`Outcome`, due within
        ``delay`` s.

        ``message`` None writes nothing: the bot is to send something by itself (a greeting
        such as Speed Clue's ``alive``), and with ``queued`` a message that already arrived
        answers at once. The stopwatch starts at the write; for an in-process bot, which
        answers inside the write, that includes its thinking.
        """
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
            self._alarm = alarm(loop)
        waiter = loop.create_future()
        self._waiter = waiter
        data = None if message is None else self.codec.encode(message)
        self._sent_at = sent_at = time.monotonic()
        self._pending_bytes = 0
        # Set before the write: the write itself may find the bot gone (too much written
        # to it unread), and that fault is judged against this request's deadline.
        self._deadline = deadline = sent_at + delay
        if data is not None:
            self._write(data, sent_at)
        if not waiter.done():
            if queued and self._inbox:
                self._end(waiter, self._inbox.popleft()[0], 0.0)
            elif self.closed is not None:
                self._end(waiter, self.closed, 0.0)
        # One timer per channel, moved only when it would ring too late: each request's
        # deadline is later than the one before, so a timer left over from an answered
        # request simply rings, finds the new deadline and waits on. Most requests cost no
        # timer. (The alarm's clock is time.monotonic, as every stamp here.)
        if self._timer is None or self._timer_at > deadline:
            if self._timer is not None:
                self._timer.cancel()
            self._set_timer(deadline)
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
        if time.monotonic() >= self._deadline:
            self._time_out(waiter)
        else:
            self._set_timer(self._deadline)

    def _time_out(self, waiter: asyncio.Future[Outcome]) -> None:
        """End a request that got no reply in time; the bot still owes it (untagged)."""
        if not self.tagged:
            self._owed.append(self._sent_at)
        self._end(waiter, TIMED_OUT, self._deadline - self._sent_at)

    def _end(self, waiter: asyncio.Future[Outcome], message: Any, elapsed: float) -> None:
        """End the waiting request with its outcome: every request ends here, answered,
        faulted or timed out."""
        self._waiter = None
        self.answered = True
        waiter.set_result((message, elapsed))

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.connection is not None:
            await self.connection.close()
