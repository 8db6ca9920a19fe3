"""The codec interface shared by the referee (one decoder per seat) and by bot helpers."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

DEFAULT_MAX_MESSAGE = 1 << 20
"""1 MiB: far above any real message of the five protocols, far below a memory problem."""

MAX_DEPTH = 100
"""The most levels a decoded message may nest (lists; JSON arrays and objects): a message
nested deeper is its bot's ``malformed`` fault.

The real protocols nest a handful of levels. The bound is what lets a game print and walk
any message it gets: ``repr``, ``json.dumps`` and a plugin's own recursive printer take a
C or Python stack level per level, and Python stops at 1000 of them, so a message nested
thousands deep would end its game with a RecursionError instead of a fault of its sender.
"""

Decoded = tuple[Any, bytes]
"""One decoded item: ``(message, raw bytes)``, or ``(Fault, offending bytes prefix)``.

The raw bytes are kept so that the event log shows exactly what was on the wire.
"""


class Decoder(ABC):
    """Incremental decoding of one byte stream; never raises on bad input.

    ``feed`` may be called with any slicing of the stream (except for codecs whose framing
    *is* the read boundary, such as ``raw``). Bad input becomes a :class:`Fault` item of
    kind ``malformed`` or ``oversize``, and decoding resumes at the next frame boundary.

    A decoded message is bounded so that a game can handle it without raising: at most the
    codec's ``max_message`` bytes, at most :data:`MAX_DEPTH` levels deep, and any integer
    in it within Python's limit on integer digits (so it can be printed). Whatever turning
    the bytes into a value raises (invalid UTF-8, a number Python will not convert, nesting
    too deep) is a fault of the bot that sent them, never an exception in the referee.
    """

    @abstractmethod
    def feed(self, data: bytes) -> list[Decoded]:
        """Decode what ``data`` completes; keep any partial frame for the next call."""

    def close(self) -> list[Decoded]:
        """The stream ended: decode what is left (an unterminated frame), if anything."""
        return []


class Codec(ABC):
    """Frames and encodes messages. Subclasses set ``name`` and register via the hook."""

    name: ClassVar[str]
    summary: ClassVar[str] = ""

    def __init__(self, max_message: int = DEFAULT_MAX_MESSAGE) -> None:
        self.max_message = max_message

    @abstractmethod
    def encode(self, message: Any) -> bytes:
        """The exact bytes to write for ``message`` (including any terminator)."""

    @abstractmethod
    def decoder(self) -> Decoder:
        """A fresh decoder for one stream."""
