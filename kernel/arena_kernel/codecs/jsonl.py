"""The ``jsonl`` codec: one JSON value per line (JSON Lines)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from arena_kernel.codecs.base import MAX_DEPTH, Codec, Decoded
from arena_kernel.codecs.faults import TOO_DEEP, malformed_fault
from arena_kernel.codecs.line import LineDecoder

EXCERPT_CHARS = 60
"""Characters of a bad line quoted in a fault: enough to see the mistake in a record."""

_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False)
"""What ``json.dumps(message, separators=(",", ":"), allow_nan=False)`` builds at every
call, built once.

``allow_nan=False``: NaN and Infinity are not JSON, and a bot's parser may reject them.
"""

_c_make_encoder: Callable[..., Callable[[Any, int], Sequence[str]]] | None = getattr(
    json.encoder, "c_make_encoder", None
)
_C_ENCODE = (
    None
    if _c_make_encoder is None
    else _c_make_encoder(
        None,  # no cycle check: see _encode
        _ENCODER.default,
        json.encoder.encode_basestring_ascii,
        _ENCODER.indent,
        _ENCODER.key_separator,
        _ENCODER.item_separator,
        _ENCODER.sort_keys,
        _ENCODER.skipkeys,
        _ENCODER.allow_nan,
    )
)
"""The C encoder ``_ENCODER.encode`` ends in (None without json's C accelerator), made
with the arguments ``JSONEncoder.iterencode`` gives it, once rather than per message."""


def _encode(message: Any) -> str:
    """``_ENCODER.encode(message)``: its text and its errors, for less.

    The C encoder is called straight away, without the Python layers ``encode`` goes
    through and without its check for cycles (a dictionary entry per list and object),
    which together cost a third of encoding a message. A cycle then only shows as endless
    nesting, a RecursionError, and encoding again with the check tells it (ValueError)
    from a message nested too deeply (RecursionError again).
    """
    if _C_ENCODE is None:
        return _ENCODER.encode(message)
    try:
        return "".join(_C_ENCODE(message, 0))
    except RecursionError:
        return _ENCODER.encode(message)


_DECODER = json.JSONDecoder()
_raw_decode = _DECODER.raw_decode
SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
"""The scanner ``raw_decode`` calls (json's C one, where there is one): ``SCAN(text, 0)``
is ``(value, end)`` of the value at the start of ``text``, or raises StopIteration."""


def _loads(text: str) -> Any:
    """``json.loads(text)``: the C scanner called straight away on the usual line, a
    value alone; ``json.loads`` itself for anything else (white space around the value,
    a byte order mark, not JSON), so that the value and the error are its own."""
    try:
        value, end = _raw_decode(text)
    except json.JSONDecodeError:
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def _too_deep(text: str, value: Any) -> bool:
    """Whether ``value``, decoded from ``text``, nests arrays and objects deeper than
    :data:`MAX_DEPTH`.

    Each level takes a bracket to open it and one to close it, so a line that is short or
    has few brackets (the usual message) is cleared from its text alone; any other value
    is walked a level at a time, without recursion.
    """
    if len(text) <= 2 * MAX_DEPTH or text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    level = [value]
    for _ in range(MAX_DEPTH):
        level = [
            item
            for node in level
            if isinstance(node, list | dict)
            for item in (node.values() if isinstance(node, dict) else node)
        ]
        if not level:
            return False
    return any(isinstance(node, list | dict) for node in level)


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
            value = _loads(text)
        except json.JSONDecodeError as exc:
            if not text.strip():
                return None
            detail = f"invalid JSON: {exc.msg} at column {exc.colno}: {_excerpt(text, exc.pos)!r}"
        except ValueError as exc:
            # An integer beyond Python's digit limit; the rest of the text is advice to
            # Python programmers, not to the bot's author.
            detail = f"invalid JSON: {str(exc).partition(';')[0]}"
        except RecursionError:  # nested deeper than the stack left to the parser
            detail = f"invalid JSON: {TOO_DEEP}"
        else:
            if not _too_deep(text, value):
                return value, raw
            detail = f"invalid JSON: {TOO_DEEP}"
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
