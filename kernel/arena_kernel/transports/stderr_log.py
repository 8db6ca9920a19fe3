"""A bot's stderr, copied to its log file up to a cap.

The log file, and its folder, are created only when the bot writes something: a run of
100,000 games of quiet bots must not leave 100,000 empty files and folders behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from typing import BinaryIO

from arena_kernel.errors import SetupError
from arena_kernel.transports.base import Launch

READ_SIZE = 65536
"""One ``os.read`` per readiness event; large enough that a big message is a few reads."""


def stderr_log_path(launch: Launch) -> Path:
    """Where a bot's diagnostics go; in-process bots write their tracebacks there too."""
    return launch.log_dir / f"{launch.identifier}.stderr"


def private_folder_path(launch: Launch) -> Path:
    """Where a sandboxed bot's private copy of its folder is made, and what it wrote there
    is kept (see :mod:`arena_kernel.sandbox.private_folder`)."""
    return launch.log_dir / f"{launch.identifier}.files"


def discard_stale_log(launch: Launch) -> None:
    """Remove the log a previous attempt at the same game left (a run interrupted, then
    resumed): a bot that writes nothing this time must not be shown what it wrote then."""
    path = stderr_log_path(launch)
    try:
        path.unlink(missing_ok=True)
    except NotADirectoryError:
        pass
    except OSError as exc:
        raise SetupError(f"cannot replace the log {path}: {exc.strerror or exc}") from None


class StderrLog:
    """Copies a bot's stderr pipe to its log file, up to a cap, through the event loop.

    Past the cap the pipe is still drained (and the bytes discarded) so that a chatty bot
    never blocks on a full pipe in the middle of a game. So is it when the log cannot be
    written (the disk is full): a bot's game does not depend on the arena's disk, and the
    run checks before its first game that its logs folder is writable.
    """

    def __init__(self, fd: int, path: Path, cap_bytes: int) -> None:
        self._fd = fd
        self._path = path
        self._file: BinaryIO | None = None
        self._room = cap_bytes
        self._cap_kb = cap_bytes // 1024
        self._line_start = True
        self._loop = asyncio.get_running_loop()
        self._open = True
        os.set_blocking(fd, False)
        self._loop.add_reader(fd, self._readable)

    def _readable(self) -> None:
        """Read one chunk (the loop calls again while there is more)."""
        try:
            data = os.read(self._fd, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.close()
            return
        self._keep(data)

    def _keep(self, data: bytes) -> None:
        if self._room < 0:
            return
        try:
            self._write(data)
        except OSError:
            self._room = -1

    def _write(self, data: bytes) -> None:
        if self._file is None:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self._path, "wb", buffering=0)  # noqa: SIM115 - closed by close()
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
        if self._file is not None:
            self._file.close()


TAIL_BYTES = 4096
"""How much of the end of a stderr log is read for its tail."""

TAIL_LINES = 5
"""The lines of a stderr log's tail (what a Java stack trace's cause needs)."""

TAIL_CHARS = 600
"""The longest tail, in characters: it is part of a fault's one-line reason."""


def stderr_end(path: str | os.PathLike[str]) -> str:
    """The last :data:`TAIL_BYTES` of a stderr log as text ('' when there is none)."""
    try:
        with open(path, "rb") as log:
            size = log.seek(0, os.SEEK_END)
            log.seek(max(0, size - TAIL_BYTES))
            data = log.read()
    except OSError:
        return ""
    text = data.decode("utf-8", errors="replace")
    rest = text.partition("\n")[2]
    if size > TAIL_BYTES and rest.strip():
        text = rest  # the first line read is cut short
    return text


def stderr_tail(path: str | os.PathLike[str]) -> str:
    """The end of a stderr log on one line: its last :data:`TAIL_LINES` lines that are
    not blank, joined by `` | ``, control characters escaped, at most :data:`TAIL_CHARS`
    (the start cut); '' when the log is missing, unreadable or blank."""
    lines = [line.strip() for line in stderr_end(path).splitlines() if line.strip()]
    tail = " | ".join(_printable(line) for line in lines[-TAIL_LINES:])
    if len(tail) > TAIL_CHARS:
        tail = "..." + tail[len(tail) - TAIL_CHARS + 3 :]
    return tail


def _printable(line: str) -> str:
    """``line`` with each control character written as its escape (``\\x1b``)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)
