"""One bot's connection seen through its codec: the referee's half of the wire.

A channel outlives a single game when bots stay connected for a session; it is attached
to each game's event log and seat number in turn.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

from arena_kernel.codecs.base import Codec
from arena_kernel.model import Fault, FaultKind
from arena_kernel.referee.eventlog import EventLog, wire_text
from arena_kernel.transports.base import Connection

MAX_PENDING = 1000
"""Unsolicited messages kept for the next request; beyond that the bot is flooding."""

PENDING_BYTES_IN_MESSAGES = 4
"""How much a bot may send between two requests while no request waits, in messages of
the codec's largest size; beyond that the bot is flooding (one endless line, a stream of
bytes no codec can frame)."""

_TIMEOUT = object()


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
    bot, not what else the referee was doing.

    A bot that floods (more than :data:`MAX_PENDING` unsolicited messages waiting, or more
    than :data:`PENDING_BYTES_IN_MESSAGES` of the largest messages sent while no request
    waited) is done with at once: its channel closes with a ``flood`` fault and its
    connection is closed, so that it costs the arena nothing more and other games never
    notice it. What it sent unasked is logged up to a cap per game
    (:meth:`EventLog.admit_unsolicited`), then counted.
    """

    __slots__ = (
        "_deadline",
        "_decoder",
        "_elapsed",
        "_hang_up",
        "_inbox",
        "_owed",
        "_pending_bytes",
        "_sent_at",
        "_timer",
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
        self._waiter: asyncio.Future[Any] | None = None
        self._sent_at = 0.0
        self._deadline = 0.0
        self._elapsed = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self.started = (
            connection.started
            if connection is not None and connection.started is not None
            else time.monotonic()
        )
        """When the bot was started (monotonic seconds): its start-up clock runs from here."""
        self.answered = False
        """Whether a request to this bot has been settled yet: until then, requests are on
        the start-up clock (see :class:`~arena_kernel.referee.table.Table`)."""
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
            for message, raw in self._inbox:
                self._log_received(log, message, raw, "recv", None)

    # -- receiving ---------------------------------------------------------------

    def _on_data(self, data: bytes) -> None:
        if self.closed is not None:
            return  # flooded: what is still on its way is not looked at
        arrived = time.monotonic()
        if self._waiter is None or self._waiter.done():
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
                self._elapsed = arrived - self._sent_at
                waiter.set_result(fault)

    def _log_received(
        self, log: EventLog, message: Any, raw: bytes, kind: str, elapsed: float | None
    ) -> None:
        """A received message (``kind`` ``recv`` or ``late``), or the codec's fault; one
        that answers no request only while the log still keeps those of this seat."""
        if elapsed is None and not log.admit_unsolicited(self.seat):
            return
        if isinstance(message, Fault):
            log.add("fault", self.seat, f"{message}: {wire_text(raw)}", elapsed)
        else:
            log.add(kind, self.seat, wire_text(raw), elapsed)

    def _deliver(self, items: list[tuple[Any, bytes]], arrived: float) -> None:
        log = self.log
        for item in items:
            if self.closed is not None:
                return  # flooded by the items before: the rest are dropped unread
            message, raw = item
            waiter = self._waiter
            if waiter is not None and not waiter.done() and arrived > self._deadline:
                # Too late, even though the timer that says so has not run yet.
                self._time_out(waiter)
            late = bool(self._owed)
            answering = not late and waiter is not None and not waiter.done()
            if late:
                elapsed: float | None = arrived - self._owed.popleft()
            else:
                elapsed = arrived - self._sent_at if answering else None
            if log is not None:
                self._log_received(log, message, raw, "late" if late else "recv", elapsed)
            if answering:
                self._elapsed = elapsed  # type: ignore[assignment]
                waiter.set_result(item)  # type: ignore[union-attr]
            elif len(self._inbox) < MAX_PENDING:
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
        self._write(self.codec.encode(message))

    def _write(self, data: bytes) -> None:
        if self.log is not None:
            self.log.add("send", self.seat, wire_text(data))
        if self.closed is None and self.connection is not None:
            self.connection.write(data)

    def request(self, message: Any, delay: float, *, queued: bool = False) -> asyncio.Future[Any]:
        """Write ``message`` and return the future of its one reply, due within ``delay`` s.

        ``message`` None writes nothing: the bot is to send something by itself (a greeting
        such as Speed Clue's ``alive``), and with ``queued`` a message that already arrived
        answers at once. The stopwatch starts at the write; for an in-process bot, which
        answers inside the write, that includes its thinking.
        """
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        self._waiter = waiter
        data = None if message is None else self.codec.encode(message)
        self._sent_at = time.monotonic()
        self._pending_bytes = 0
        self._elapsed = 0.0
        # Set before the write: the write itself may find the bot gone (too much written
        # to it unread), and that fault is judged against this request's deadline.
        self._deadline = deadline = self._sent_at + delay
        if data is not None:
            self._write(data)
        if not waiter.done():
            if queued and self._inbox:
                waiter.set_result(self._inbox.popleft())
            elif self.closed is not None:
                waiter.set_result(self.closed)
        timer = self._timer
        # One timer per channel, moved only when it would fire too late: each request's
        # deadline is later than the one before, so a timer left over from an answered
        # request simply fires, finds the new deadline and waits on. Most requests cost no
        # timer. (The loop's clock is time.monotonic, as every stamp here.)
        if timer is None or timer.when() > deadline:
            if timer is not None:
                timer.cancel()
            self._timer = loop.call_at(deadline, self._on_timer)
        return waiter

    def _on_timer(self) -> None:
        self._timer = None
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        loop = asyncio.get_running_loop()
        if loop.time() >= self._deadline:
            self._time_out(waiter)
        else:
            self._timer = loop.call_at(self._deadline, self._on_timer)

    def _time_out(self, waiter: asyncio.Future[Any]) -> None:
        """End a request that got no reply in time; the bot still owes it (untagged)."""
        if not self.tagged:
            self._owed.append(self._sent_at)
        self._elapsed = self._deadline - self._sent_at
        waiter.set_result(_TIMEOUT)

    def settle(self, result: Any) -> tuple[Any, Fault | None, float]:
        """Turn a waiter's result into (message, fault or None, measured seconds)."""
        self._waiter = None
        self.answered = True
        elapsed = self._elapsed
        if result is _TIMEOUT:
            return None, Fault(FaultKind.TIMEOUT, "no reply"), elapsed
        if isinstance(result, Fault):
            return None, result, elapsed
        message = result[0]
        if isinstance(message, Fault):
            return None, message, elapsed
        return message, None, elapsed

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.connection is not None:
            await self.connection.close()
