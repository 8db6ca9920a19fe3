"""A bot's stderr, copied to its log file up to a cap."""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import BinaryIO

READ_SIZE = 65536
"""One ``os.read`` per readiness event; large enough that a big message is a few reads."""


class StderrLog:
    """Copies a bot's stderr pipe to its log file, up to a cap, through the event loop.

    Past the cap the pipe is still drained (and the bytes discarded) so that a chatty bot
    never blocks on a full pipe in the middle of a game.
    """

    def __init__(self, fd: int, file: BinaryIO, cap_bytes: int) -> None:
        self._fd = fd
        self._file = file
        self._room = cap_bytes
        self._cap_kb = cap_bytes // 1024
        self._line_start = True
        self._loop = asyncio.get_running_loop()
        self._open = True
        os.set_blocking(fd, False)
        self._loop.add_reader(fd, self._readable)

    def _readable(self) -> None:
        self._read_once()

    def _read_once(self) -> bool:
        """Read one chunk; False once nothing more can be read now (EAGAIN or the end)."""
        try:
            data = os.read(self._fd, READ_SIZE)
        except BlockingIOError:
            return False
        except OSError:
            data = b""
        if not data:
            self.close()
            return False
        self._keep(data)
        return True

    def _keep(self, data: bytes) -> None:
        if self._room < 0:
            return
        kept = data[: self._room]
        if kept:
            self._file.write(kept)
            self._line_start = kept.endswith(b"\n")
        if len(data) > self._room:
            marker = f"[arena: stderr truncated at {self._cap_kb} KiB]\n".encode()
            self._file.write(marker if self._line_start else b"\n" + marker)
            self._room = -1
        else:
            self._room -= len(data)

    def close(self) -> None:
        """Keep what is still in the pipe, then stop: the bot is gone, or being ended."""
        if not self._open:
            return
        self._open = False
        self._loop.remove_reader(self._fd)
        with contextlib.suppress(OSError):
            while data := os.read(self._fd, READ_SIZE):
                self._keep(data)
        os.close(self._fd)
        self._file.close()
