"""The byte stream to a bot through file descriptors (pipes or a socket), shared by the
``stdio`` and ``tcp`` transports."""

from __future__ import annotations

import asyncio
import os
import time

from arena_kernel.codecs import compiled
from arena_kernel.transports.base import Connection, OnClosed, OnData
from arena_kernel.transports.process import BotProcess
from arena_kernel.transports.stderr_log import READ_SIZE

EXIT_WINDOW = 0.5
"""How long an end of output waits for the process exit that usually comes with it.

A dying process closes its files a moment before it becomes a zombie, and its exit is seen
later still when the machine is busy (from a sandbox, through the sandbox's own exit):
waiting lets the fault say "exited with status 3" or "killed by SIGSEGV" instead of the
vaguer "closed its output". A bot that
really did only close its output (and runs on) has its fault reported that much later,
which changes nothing: no reply can come from it anyway.
"""


MAX_UNSENT = 8 << 20
"""Bytes waiting to be written to a bot (beyond what the kernel's pipe or socket buffer
holds) before it counts as not reading its input. Far above what any game writes between
two of a bot's reads; without a bound, a bot that never reads would make the arena keep
everything written to it in memory."""


class FdConnection(Connection):
    """A bot reached through file descriptors: a child's pipes, or one socket for both ways.

    Reading is ``add_reader`` plus ``os.read`` and writing a direct ``os.write`` (buffered
    only when the bot does not keep up): asyncio's pipe transports cost a lot per message
    and cannot drain a pipe on demand. Data the bot sends before :meth:`start` waits in the
    kernel buffer. When the process exits, what it wrote last is read before ``on_closed``,
    and a child still holding the output open does not delay it. A bot that leaves more
    than :data:`MAX_UNSENT` bytes unread is done with: ``on_closed`` says so, and nothing
    more is read from it or written to it.

    Where the kernel's extension is built, its ``FdReader`` reads in :meth:`_read_once`'s
    place (handing a read that brings no data to :meth:`_not_read`), and a channel's
    compiled request writes in :meth:`write`'s place while nothing waits to be written:
    they find the state they need in the slots below, as fields.
    """

    __slots__ = ("_closing", "_on_data", "_out", "_rfd", "_wfd", "_writable")

    def __init__(
        self,
        read_fd: int,
        write_fd: int,
        *,
        process: BotProcess | None,
        kill_grace: float,
        eof_reason: str,
    ) -> None:
        self._rfd = read_fd
        self._wfd = write_fd
        self._process = process
        self._grace = kill_grace
        self._eof_reason = eof_reason
        self.pid = process.pid if process else None
        self.started = process.started if process else time.monotonic()
        self.cpu_meter = process.meter if process else None
        self._loop = asyncio.get_running_loop()
        os.set_blocking(read_fd, False)
        os.set_blocking(write_fd, False)
        self._on_data: OnData | None = None
        self._on_closed: OnClosed | None = None
        self._reading = False
        self._finished = False
        self._closing = False
        self._eof_timer: asyncio.TimerHandle | None = None
        self._out = bytearray()
        self._writable = True
        self._close_task: asyncio.Task[None] | None = None

    def start(self, on_data: OnData, on_closed: OnClosed) -> None:
        if self._on_data is not None:
            raise RuntimeError("connection already started")
        self._on_data, self._on_closed = on_data, on_closed
        self._reading = True
        extension = compiled.COMPILED
        reader = self._read_once if extension is None else extension.FdReader(self)
        self._loop.add_reader(self._rfd, reader)
        if self._process is not None:
            self._process.exited.add_done_callback(self._process_exited)

    def _read_once(self) -> bool:
        """Deliver one chunk; False once nothing more can be read now."""
        try:
            data = os.read(self._rfd, READ_SIZE)
        except OSError as exc:
            return self._not_read(exc)
        if data:
            assert self._on_data is not None
            self._on_data(data)
            return self._reading
        return self._not_read(None)

    def _not_read(self, error: OSError | None) -> bool:
        """A read that brought no data: it would block, failed with ``error``, or (None)
        found the end of the output. False: nothing more can be read now."""
        if isinstance(error, BlockingIOError):
            return False
        if isinstance(error, ConnectionResetError):
            self._finish("reset the connection")
            return False
        if error is not None:
            self._finish(f"could not be read from: {error.strerror}")
            return False
        self._stop_reading()
        if self._process is None or self._process.exited.done():
            self._finish(self._exit_reason())
        else:
            self._eof_timer = self._loop.call_later(EXIT_WINDOW, self._finish, self._eof_reason)
        return False

    @property
    def out_of_memory(self) -> bool:
        process = self._process
        return process is not None and process.exited.done() and process.out_of_memory

    def _exit_reason(self) -> str:
        if self._process is not None and self._process.exited.done():
            return self._process.exited.result()
        return self._eof_reason

    def _process_exited(self, _: asyncio.Future[str]) -> None:
        while self._reading and self._read_once():
            pass
        self._finish(self._exit_reason())

    def _stop_reading(self) -> None:
        if self._reading:
            self._reading = False
            self._loop.remove_reader(self._rfd)

    def _finish(self, reason: str) -> None:
        if self._finished or self._closing:
            return
        self._finished = True
        self._stop_reading()
        if self._eof_timer is not None:
            self._eof_timer.cancel()
        assert self._on_closed is not None
        self._on_closed(reason)

    def write(self, data: bytes) -> None:
        if self._closing or not self._writable or not data:
            return
        if self._out:
            self._buffer(data)
            return
        try:
            sent = os.write(self._wfd, data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._writable = False
            return
        if sent < len(data):
            self._loop.add_writer(self._wfd, self._flush)
            self._buffer(memoryview(data)[sent:])

    def _buffer(self, data: bytes | memoryview) -> None:
        """Keep what the bot has not taken yet, up to :data:`MAX_UNSENT`."""
        if len(self._out) + len(data) <= MAX_UNSENT:
            self._out += data
            return
        self._writable = False
        self._loop.remove_writer(self._wfd)
        self._out = bytearray()
        self._finish(f"does not read its input ({MAX_UNSENT >> 20} MiB written to it unread)")

    def _flush(self) -> None:
        try:
            sent = os.write(self._wfd, self._out)
        except BlockingIOError:
            return
        except OSError:
            self._writable = False
            sent = len(self._out)
        del self._out[:sent]
        if not self._out:
            self._loop.remove_writer(self._wfd)

    async def close(self) -> None:
        """End the bot; from here on neither callback is called (the caller knows why)."""
        if self._close_task is None:
            self._close_task = asyncio.ensure_future(self._close())
        await asyncio.shield(self._close_task)

    async def _close(self) -> None:
        self._closing = True
        self._stop_reading()
        if self._eof_timer is not None:
            self._eof_timer.cancel()
        if self._out:
            self._loop.remove_writer(self._wfd)
            self._out.clear()
        os.close(self._wfd)
        if self._process is not None:
            await self._process.end(self._grace)
        if self._rfd != self._wfd:
            os.close(self._rfd)


if compiled.COMPILED is not None:
    compiled.COMPILED.configure_connections(
        connection=FdConnection, write=FdConnection.write, read_size=READ_SIZE
    )
