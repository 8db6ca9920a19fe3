"""The ``jsonl`` codec: one JSON value per line (JSON Lines)."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from arena_kernel.codecs.base import Codec, Decoded
from arena_kernel.codecs.faults import malformed_fault
from arena_kernel.codecs.line import LineDecoder

EXCERPT_CHARS = 60
"""Characters of a bad line quoted in a fault: enough to see the mistake in a record."""

_encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
"""One encoder built once: ``json.dumps`` with options builds a new one per call.

``allow_nan=False``: NaN and Infinity are not JSON, and a bot's parser may reject them.
"""


def _excerpt(text: str, pos: int) -> str:
    """The part of a long line around the error position, marked where it is cut."""
    if len(text) <= EXCERPT_CHARS:
        return text
    start = max(0, min(pos - EXCERPT_CHARS // 2, len(text) - EXCERPT_CHARS))
    end = start + EXCERPT_CHARS
    return ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")


class JsonlDecoder(LineDecoder):
    """Line framing, then one ``json.loads`` per line; blank lines are keep-alives."""

    __slots__ = ()

    def _message(self, text: str, raw: bytes) -> Decoded | None:
        try:
            return json.loads(text), raw
        except json.JSONDecodeError as exc:
            if not text.strip():
                return None
            detail = f"invalid JSON: {exc.msg} at column {exc.colno}: {_excerpt(text, exc.pos)!r}"
        except ValueError as exc:
            # An integer beyond Python's digit limit; the rest of the text is advice to
            # Python programmers, not to the bot's author.
            detail = f"invalid JSON: {str(exc).partition(';')[0]}"
        except RecursionError:
            detail = "invalid JSON: nested too deeply"
        return malformed_fault(detail, raw)


class JsonlCodec(Codec):
    """Compact JSON, one value per line: structured messages any language can parse."""

    name: ClassVar[str] = "jsonl"
    summary: ClassVar[str] = "JSON Lines: one compact JSON value per line."

    def encode(self, message: Any) -> bytes:
        # ensure_ascii (the default) escapes every line break, so one value stays one line.
        return (_encode(message) + "\n").encode("ascii")

    def decoder(self) -> JsonlDecoder:
        return JsonlDecoder(self.max_message)
