"""The ``line`` codec: one UTF-8 text line per message, LF or CRLF terminated.

:class:`LineDecoder` is also the framing layer of ``jsonl``, which only changes what a
complete line turns into.
"""

from __future__ import annotations

from typing import Any, ClassVar

from arena_kernel.codecs.base import Codec, Decoded, Decoder
from arena_kernel.codecs.faults import FAULT_EXCERPT, malformed_fault, oversize_fault, utf8_detail


class LineDecoder(Decoder):
    """Splits a byte stream into lines without ever holding more than one line.

    A line over the limit is reported once and then skipped up to its newline without
    being stored, so that an endless line from a broken bot costs no memory. ``raw`` is
    the whole line as received, terminator included.
    """

    __slots__ = ("_buf", "_max", "_skipping")

    def __init__(self, max_message: int) -> None:
        self._max = max_message
        self._buf = bytearray()
        """The unterminated tail of the stream: at most ``max + 1`` bytes (a CR may follow)."""
        self._skipping = False
        """Inside an oversize line already reported: drop bytes up to the next newline."""

    def feed(self, data: bytes) -> list[Decoded]:
        out: list[Decoded] = []
        last = len(data) - 1
        if last >= 0 and not self._buf and not self._skipping and data.find(b"\n") == last:
            # One whole line, nearly every read: _line's steps inline, for the usual line.
            end = last - 1 if last and data[last - 1] == 0x0D else last
            if end > self._max:
                self._line(data, last, out)
                return out
            try:
                text = data[:end].decode()
            except UnicodeDecodeError:
                self._line(data, last, out)
                return out
            item = self._message(text, data)
            if item is not None:
                out.append(item)
            return out
        start = 0
        if self._skipping:
            start = data.find(b"\n") + 1
            if not start:
                return out
            self._skipping = False
        elif self._buf:
            end = data.find(b"\n")
            if end < 0:
                self._buf += data
                if len(self._buf) > self._max + 1:
                    out.append(oversize_fault(self._max, bytes(self._buf[:FAULT_EXCERPT])))
                    self._buf.clear()
                    self._skipping = True
                return out
            self._buf += data[: end + 1]
            line = bytes(self._buf)
            self._buf.clear()
            self._line(line, len(line) - 1, out)
            start = end + 1
        find = data.find
        end = find(b"\n", start)
        while end >= 0:
            self._line(data[start : end + 1], end - start, out)
            start = end + 1
            end = find(b"\n", start)
        if start < len(data):
            if len(data) - start > self._max + 1:
                out.append(oversize_fault(self._max, data[start : start + FAULT_EXCERPT]))
                self._skipping = True
            else:
                self._buf += data[start:]
        return out

    def close(self) -> list[Decoded]:
        """Deliver an unterminated last line: a bot may print its answer and exit."""
        out: list[Decoded] = []
        if self._buf:
            line = bytes(self._buf)
            self._buf.clear()
            self._line(line, len(line), out)
        self._skipping = False
        return out

    def _line(self, raw: bytes, end: int, out: list[Decoded]) -> None:
        """Decode one line: ``raw[:end]`` is the line without its LF (maybe with a CR)."""
        if end and raw[end - 1] == 0x0D:
            end -= 1
        if end > self._max:
            out.append(oversize_fault(self._max, raw))
            return
        try:
            text = raw[:end].decode()
        except UnicodeDecodeError as exc:
            out.append(malformed_fault(utf8_detail(exc), raw))
            return
        item = self._message(text, raw)
        if item is not None:
            out.append(item)

    def _message(self, text: str, raw: bytes) -> Decoded | None:
        """What one decoded line means; ``None`` drops it. Subclasses parse here."""
        return text, raw


class LineCodec(Codec):
    """Plain text lines: the lowest common denominator of bot protocols."""

    name: ClassVar[str] = "line"
    summary: ClassVar[str] = "Text lines: one UTF-8 string per line (LF or CRLF)."

    def encode(self, message: Any) -> bytes:
        if not isinstance(message, str):
            raise TypeError(f"line codec sends str messages, not {type(message).__name__}")
        if "\n" in message or "\r" in message:
            raise ValueError(f"a line message cannot contain a line break: {message!r}")
        return (message + "\n").encode()

    def decoder(self) -> LineDecoder:
        return LineDecoder(self.max_message)
