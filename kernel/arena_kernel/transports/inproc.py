"""The ``inproc`` transport: the bot is a Python object living in the arena's process.

Every message still goes through the codec both ways, so an in-process bot sees exactly the
bytes a program would, and a game's built-in bots exercise its protocol adapter for real.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from arena_kernel.bots.logic import BotLogic
from arena_kernel.codecs import compiled
from arena_kernel.model import Fault
from arena_kernel.transports.base import (
    ConnectError,
    Connection,
    Launch,
    OnClosed,
    OnData,
    Transport,
)
from arena_kernel.transports.stderr_log import discard_stale_log, stderr_log_path

_CLOSED = object()
"""What ends a threaded bot's thread: the connection is closed."""


class _Deliveries:
    """The in-process connections of one event loop with replies to deliver: one callback
    a turn of the loop delivers them all, in the order their first replies came (a
    callback per reply would be scheduled for every request, only to find its reply
    handed over already)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._waiting: list[InprocConnection] = []

    def add(self, connection: InprocConnection) -> None:
        if not self._waiting:
            self._loop.call_soon(self._deliver)
        self._waiting.append(connection)

    def _deliver(self) -> None:
        waiting, self._waiting = self._waiting, []
        for connection in waiting:
            connection.deliver_outbox()


_DELIVERIES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Deliveries] = (
    weakref.WeakKeyDictionary()
)
"""Each running loop's :class:`_Deliveries`."""


def _deliveries(loop: asyncio.AbstractEventLoop) -> _Deliveries:
    deliveries = _DELIVERIES.get(loop)
    if deliveries is None:
        deliveries = _DELIVERIES[loop] = _Deliveries(loop)
    return deliveries


def _raised(exc: BaseException) -> str:
    text = str(exc)
    return f"in-process bot raised {type(exc).__name__}" + (f": {text}" if text else "")


def _log_traceback(launch: Launch, exc: BaseException) -> None:
    """Keep the traceback where a program's stderr would be, for whoever debugs the bot.

    The log (and its folder) exists only if there is a traceback to keep; one that cannot
    be written is lost, as a program's stderr would be (the fault still says what the
    bot raised)."""
    path = stderr_log_path(launch)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as log:
            log.write("".join(traceback.format_exception(exc)))


class InprocConnection(Connection):
    """Decodes what the referee writes, calls the bot, encodes its replies.

    Replies are delivered with ``call_soon``, never inside :meth:`write`, so the referee
    sees the same ordering as with a real pipe and is never re-entered. Messages the bot
    produced before :meth:`start` (its greeting), or its failure, are delivered right after.
    What waits to be delivered waits in order in one outbox, which :meth:`hand_over`
    delivers at once when the referee is about to wait for a reply: the reply made inside
    the write of its request then costs no turn of the event loop of its own.

    A bot that says it is ``threaded`` (see :class:`~arena_kernel.bots.logic.BotLogic`)
    answers in a daemon thread of its own, its messages in the order written: a bot that
    thinks long then holds up neither the event loop nor the other games, and one that
    never returns holds up nothing but its own seat (whose clock runs out, as a program's
    would).
    """

    def __init__(self, bot: BotLogic, launch: Launch, greeting: bytes) -> None:
        self._bot = bot
        self._launch = launch
        self._decoder = launch.codec.decoder()
        self._loop = asyncio.get_running_loop()
        self._pending = greeting
        self._outbox: list[bytes] = []
        """Replies to deliver, in order: by the loop's next :class:`_Deliveries` callback
        or by :meth:`hand_over`, whichever comes first."""
        self._deliveries = _deliveries(self._loop)
        self._queued = False
        """Whether the loop's next deliveries include this connection's."""
        self._on_data: OnData | None = None
        self._on_closed: OnClosed | None = None
        self._failure: str | None = None
        self._closed = False
        self._inbox: queue.SimpleQueue[Any] | None = None
        if getattr(bot, "threaded", False) is True:
            self._inbox = queue.SimpleQueue()
            name = f"inproc-{launch.identifier}"
            threading.Thread(target=self._serve, name=name, daemon=True).start()
        self.started = time.monotonic()

    def start(self, on_data: OnData, on_closed: OnClosed) -> None:
        if self._on_data is not None:
            raise RuntimeError("connection already started")
        self._on_data, self._on_closed = on_data, on_closed
        if self._pending:
            self._post(self._pending)
            self._pending = b""
        if self._failure is not None:
            self._loop.call_soon(self._report)

    def write(self, data: bytes) -> None:
        if self._failure is not None or self._closed:
            return
        for message, raw in compiled.feed(self._decoder, data):
            if isinstance(message, Fault):
                raise RuntimeError(
                    f'the referee wrote bytes the "{self._launch.codec.name}" codec cannot '
                    f"decode ({message.detail}): {raw[:200]!r}"
                )
            if self._inbox is not None:
                self._inbox.put(message)
                continue
            try:
                replies = self._answer(message)
            except Exception as exc:
                self._fail(_raised(exc))
                return
            self._send(replies)

    def _answer(self, message: Any) -> bytes:
        """The bot's encoded replies to ``message``; what it raises is kept in its log
        and raised again."""
        try:
            replies = self._bot.on_message(message)
            if not replies:
                return b""  # the usual answer to news (an echo, a state)
            codec = self._launch.codec
            return b"".join([compiled.encode(codec, reply) for reply in replies])
        except Exception as exc:
            _log_traceback(self._launch, exc)
            raise

    def _serve(self) -> None:
        """A threaded bot's own thread: answers until the connection closes or the bot
        fails, handing each reply (or the failure) to the event loop."""
        assert self._inbox is not None
        while (message := self._inbox.get()) is not _CLOSED and not self._closed:
            try:
                replies = self._answer(message)
            except Exception as exc:
                self._from_thread(self._fail, _raised(exc))
                return
            self._from_thread(self._send, replies)

    def _from_thread(self, callback: Callable[[Any], None], value: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody listens
            self._loop.call_soon_threadsafe(callback, value)

    def _send(self, replies: bytes) -> None:
        if not replies or self._closed:
            return
        if self._on_data is None:
            self._pending += replies
        else:
            self._post(replies)

    def _post(self, data: bytes) -> None:
        """Deliver ``data`` after what is in the outbox already."""
        if not self._queued:
            self._queued = True
            self._deliveries.add(self)
        self._outbox.append(data)

    def deliver_outbox(self) -> None:
        """Deliver what waits, in order (the loop's deliveries)."""
        self._queued = False
        self.hand_over()

    def hand_over(self) -> None:
        if self._outbox:
            outbox, self._outbox = self._outbox, []
            for data in outbox:
                self._deliver(data)

    def _fail(self, reason: str) -> None:
        if self._failure is not None or self._closed:
            return
        self._failure = reason
        if self._on_closed is not None:
            self._loop.call_soon(self._report)

    def _deliver(self, data: bytes) -> None:
        if not self._closed:
            assert self._on_data is not None
            self._on_data(data)

    def _report(self) -> None:
        if not self._closed:
            assert self._on_closed is not None and self._failure is not None
            self._on_closed(self._failure)

    async def close(self) -> None:
        """Forget the bot; from here on neither callback is called (a threaded bot's
        thread ends once it has answered what it is thinking about)."""
        self._closed = True
        if self._inbox is not None:
            self._inbox.put(_CLOSED)


class InprocTransport(Transport):
    """Runs ``program.inproc()`` in the arena's own process: no process, no pipe, no startup
    time, but also no protection from a bot that blocks (it stalls the whole event loop),
    unless it says it is ``threaded``."""

    name = "inproc"
    summary = "Python object in the arena's process; messages still go through the codec."

    async def connect(self, launch: Launch) -> Connection:
        factory = launch.program.inproc
        if factory is None:
            raise ConnectError(f'bot "{launch.program.name}" has no in-process implementation')
        discard_stale_log(launch)
        try:
            bot: BotLogic = factory()
            clocks = getattr(bot, "clocks", None)
            if clocks is not None and launch.clocks is not None:
                # The referee cannot measure the CPU time of a bot in its own process:
                # whatever the match's mode, this bot's limits are wall-clock seconds.
                clocks(replace(launch.clocks, mode="wall"))
            identify = getattr(bot, "identify", None)
            if identify is not None:
                identify(launch.identifier)
            greeting = b"".join(map(launch.codec.encode, bot.start()))
        except Exception as exc:
            _log_traceback(launch, exc)
            raise ConnectError(
                f'cannot start bot "{launch.program.name}": {_raised(exc)}'
            ) from None
        return InprocConnection(bot, launch, greeting)
