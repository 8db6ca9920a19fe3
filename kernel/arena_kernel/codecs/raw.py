"""The ``raw`` codec: unframed lock-step text, where one write is one message (Speed Clue).

Such protocols have no delimiter: the reader relies on the other side writing a whole
message at once and waiting for the answer. The transport calls ``feed`` once per read,
so a read is a message.
"""

from __future__ import annotations

from typing import Any, ClassVar

from arena_kernel.codecs.base import Codec, Decoded, Decoder
from arena_kernel.codecs.faults import malformed_fault, oversize_fault, utf8_detail

TERMINATORS = b"\r\n\0"
"""Trailing bytes ignored: bots written against line-based habits append LF, CRLF or NUL."""


class RawDecoder(Decoder):
    """Each ``feed`` is one message, so nothing is ever buffered between calls."""

    __slots__ = ("_max",)

    def __init__(self, max_message: int) -> None:
        self._max = max_message

    def feed(self, data: bytes) -> list[Decoded]:
        body = data.rstrip(TERMINATORS)
        if not body:
            # A terminator written separately from its message (print, then flush "\n")
            # is not a message: counting it would shift every later answer.
            return []
        if len(body) > self._max:
            return [oversize_fault(self._max, data)]
        try:
            return [(body.decode(), data)]
        except UnicodeDecodeError as exc:
            return [malformed_fault(utf8_detail(exc), data)]


class RawCodec(Codec):
    """Bytes written as they are: for protocols where the read boundary is the frame."""

    name: ClassVar[str] = "raw"
    summary: ClassVar[str] = "Unframed lock-step text: each write is one message (Speed Clue)."

    def encode(self, message: Any) -> bytes:
        if not isinstance(message, str):
            raise TypeError(f"raw codec sends str messages, not {type(message).__name__}")
        if not message:
            raise ValueError("raw codec cannot send an empty message: nothing would be read")
        return message.encode()

    def decoder(self) -> RawDecoder:
        return RawDecoder(self.max_message)
