"""The ``sexpr`` codec: one S-expression datum per message, in any layout.

Lisp-family bots print data however their printer likes: a datum may span lines and
several may share one, so framing follows the datum's structure, not the line breaks.

Data model: a list is a Python ``list``; a symbol is a :class:`Symbol` (a ``str``, so that
``message[0] == "move"`` works); ``"..."`` is a plain ``str`` (escapes: ``\\"`` and
``\\\\``); ``-3`` is an ``int`` and ``-1.5`` a ``float``. ``;`` starts a comment.
"""

from __future__ import annotations

import math
import re
from typing import Any, ClassVar

from arena_kernel.codecs.base import MAX_DEPTH, Codec, Decoded, Decoder
from arena_kernel.codecs.faults import (
    FAULT_EXCERPT,
    TOO_DEEP,
    malformed_fault,
    oversize_fault,
    utf8_detail,
)
from arena_kernel.model import Fault, FaultKind


class Symbol(str):
    """A bare word such as ``move``, as opposed to the quoted string ``"move"``.

    It compares equal to the ``str`` of the same text; only its type (and so its
    encoding) tells the two apart.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Symbol({str.__repr__(self)})"


_SPACE = re.compile(rb"\s*")
_ATOM_BODY = re.compile(rb'[^\s()";]*')
_SPECIAL = re.compile(rb'[()";]')
_STRING_BODY = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+', re.DOTALL)
"""A string's content up to its closing quote, or up to the end of the data (maybe after
a lone backslash whose escaped character has not arrived yet). Possessive: a backtracking
loop over a long run of escapes would take memory in proportion."""
_TOKEN = re.compile(
    r'(?:\s+|;[^\n]*)*(?:(\()|(\))|"([^"\\]*+(?:\\.[^"\\]*+)*+)"|([^\s()";]+))',
    re.ASCII | re.DOTALL,
)
"""One token of a complete datum, after any whitespace and comments: groups ``(``, ``)``,
string body, atom. ``\\s`` is ASCII-only, as in the framer's byte patterns."""
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_INT = re.compile(r"[-+]?[0-9]+")
_FLOAT = re.compile(
    r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+"
)
_NUMBER_START = frozenset("+-.0123456789")
_BARE_SYMBOL = re.compile(r'[^\s()";]+', re.ASCII)

_OPEN, _CLOSE, _QUOTE, _SEMICOLON, _BACKSLASH = b'()";\\'

# Framer states: what the data received so far ends inside.
_NORMAL, _IN_STRING, _IN_ATOM, _IN_COMMENT = range(4)


class _BadDatum(Exception):
    """A complete datum that does not decode; its message is the fault's detail."""


class SexprDecoder(Decoder):
    """Frames data by following their structure, then parses each complete datum.

    Framing only tracks nesting depth, strings and comments, so a datum's bytes are the
    only thing buffered: never a half-built value, which would cost many times the bytes.
    A datum over the size limit, or nested deeper than :data:`MAX_DEPTH` lists, is reported
    once; the framer then follows it to its end without storing anything, and decoding
    resumes right after it.
    """

    __slots__ = ("_buf", "_depth", "_max", "_pos", "_skipping", "_start", "_state")

    def __init__(self, max_message: int) -> None:
        self._max = max_message
        self._reset()

    def _reset(self) -> None:
        self._buf = bytearray()
        self._pos = 0
        """Next byte of ``_buf`` to frame."""
        self._start = 0
        """Start in ``_buf`` of the unfinished datum, if any."""
        self._state = _NORMAL
        self._depth = 0
        """Lists open in the unfinished datum."""
        self._skipping = False
        """The unfinished datum is oversize or too deep and already reported: its bytes
        are dropped."""

    def feed(self, data: bytes) -> list[Decoded]:
        out: list[Decoded] = []
        self._buf += data
        self._frame(out)
        self._compact(out)
        return out

    def close(self) -> list[Decoded]:
        """Flush a top-level atom: only the end of the stream shows that it is complete."""
        out: list[Decoded] = []
        if self._skipping:
            pass  # its fault was reported when skipping began
        elif self._depth or self._state == _IN_STRING:
            fault = Fault(FaultKind.MALFORMED, "stream ended inside a datum")
            out.append((fault, bytes(self._buf[self._start : self._start + FAULT_EXCERPT])))
        elif self._state == _IN_ATOM:
            self._datum(len(self._buf), out)
        self._reset()
        return out

    def _frame(self, out: list[Decoded]) -> None:
        buf = self._buf
        end = len(buf)
        pos = self._pos
        state = self._state
        depth = self._depth
        while True:
            if state == _IN_STRING:
                pos = _STRING_BODY.match(buf, pos).end()  # type: ignore[union-attr]
                if pos == end or buf[pos] == _BACKSLASH:
                    break
                pos += 1
                state = _NORMAL
                if not depth:
                    self._datum(pos, out)
            elif state == _IN_COMMENT:
                pos = buf.find(b"\n", pos)
                if pos < 0:
                    pos = end
                    break
                state = _NORMAL
            elif state == _IN_ATOM:
                pos = _ATOM_BODY.match(buf, pos).end()  # type: ignore[union-attr]
                if pos == end:
                    break
                state = _NORMAL
                self._datum(pos, out)
            elif depth:  # inside a list only brackets, quotes and semicolons matter
                match = _SPECIAL.search(buf, pos)
                if match is None:
                    pos = end
                    break
                pos = match.end()
                byte = buf[pos - 1]
                if byte == _OPEN:
                    depth += 1
                    if depth > MAX_DEPTH and not self._skipping:
                        self._too_deep(out)
                elif byte == _CLOSE:
                    depth -= 1
                    if not depth:
                        self._datum(pos, out)
                elif byte == _QUOTE:
                    state = _IN_STRING
                else:
                    state = _IN_COMMENT
            else:
                pos = _SPACE.match(buf, pos).end()  # type: ignore[union-attr]
                if pos == end:
                    break
                byte = buf[pos]
                if byte == _SEMICOLON:
                    state = _IN_COMMENT
                    continue
                if byte == _CLOSE:
                    fault = Fault(FaultKind.MALFORMED, "unexpected ')' outside any list")
                    out.append((fault, b")"))
                    pos += 1
                    continue
                self._start = pos
                if byte == _OPEN:
                    depth = 1
                    pos += 1
                elif byte == _QUOTE:
                    state = _IN_STRING
                    pos += 1
                else:
                    state = _IN_ATOM
        self._pos = pos
        self._state = state
        self._depth = depth

    def _too_deep(self, out: list[Decoded]) -> None:
        """The unfinished datum opened one list too many: report it, and skip the rest."""
        excerpt = bytes(self._buf[self._start : self._start + FAULT_EXCERPT])
        out.append(malformed_fault(TOO_DEEP, excerpt))
        self._skipping = True

    def _compact(self, out: list[Decoded]) -> None:
        """Keep only the unfinished datum, and catch it growing past the limit."""
        buf = self._buf
        if not (self._depth or self._state in (_IN_STRING, _IN_ATOM)):
            buf.clear()
            self._pos = 0
            return
        keep = self._pos if self._skipping else self._start
        if keep:
            del buf[:keep]
            self._pos -= keep
            self._start -= keep
        if not self._skipping and len(buf) > self._max:
            out.append(oversize_fault(self._max, bytes(buf[:FAULT_EXCERPT])))
            self._skipping = True
            del buf[: self._pos]
            self._pos = 0

    def _datum(self, end: int, out: list[Decoded]) -> None:
        """The datum from ``_start`` to ``end`` is complete: deliver it or its fault."""
        if self._skipping:
            self._skipping = False
            return
        raw = bytes(self._buf[self._start : end])
        if len(raw) > self._max:
            out.append(oversize_fault(self._max, raw))
            return
        try:
            out.append((_parse(raw), raw))
        except _BadDatum as exc:
            out.append(malformed_fault(str(exc), raw))


def _parse(raw: bytes) -> Any:
    """The value of one complete datum (the framer has checked its brackets and quotes)."""
    try:
        text = raw.decode()
    except UnicodeDecodeError as exc:
        raise _BadDatum(utf8_detail(exc)) from None
    stack: list[list[Any]] = []
    value: Any
    # findall builds no match objects: the cheapest way through a short message.
    for opening, closing, string, atom in _TOKEN.findall(text):
        if opening:
            stack.append([])
            continue
        if closing:
            value = stack.pop()
        elif atom:
            value = _number(atom) if atom[0] in _NUMBER_START else Symbol(atom)
        else:  # the only token that can be empty
            value = _string(string)
        if not stack:
            return value
        stack[-1].append(value)
    raise AssertionError(f"the framer passed an incomplete datum: {raw!r}")


def _string(body: str) -> str:
    if "\\" not in body:
        return body
    for escape in _ESCAPE.finditer(body):
        if escape[1] not in '"\\':
            raise _BadDatum(f'invalid escape "{escape[0]}" in string: only \\" and \\\\ exist')
    return _ESCAPE.sub(r"\1", body)


def _number(text: str) -> Any:
    """An atom that may be a number: ``-3``, ``-1.5`` (but ``-``, ``1+`` are symbols)."""
    try:
        if _INT.fullmatch(text):
            return int(text)
    except ValueError as exc:  # beyond Python's limit on integer digits
        raise _BadDatum(f"bad number: {str(exc).partition(';')[0]}") from None
    if _FLOAT.fullmatch(text):
        return float(text)
    return Symbol(text)


class SexprCodec(Codec):
    """S-expressions, the native message format of Lisp-family bots."""

    name: ClassVar[str] = "sexpr"
    summary: ClassVar[str] = "S-expressions: lists, symbols, strings and numbers in any layout."

    def encode(self, message: Any) -> bytes:
        parts: list[str] = []
        _encode(message, parts)
        parts.append("\n")
        return "".join(parts).encode()

    def decoder(self) -> SexprDecoder:
        return SexprDecoder(self.max_message)


def _encode(value: Any, parts: list[str]) -> None:
    """Append the text of ``value``; refuse what would not decode back to the same value."""
    if isinstance(value, Symbol):
        text = str(value)
        if not _BARE_SYMBOL.fullmatch(text) or _number_like(text):
            raise ValueError(f"not a valid bare symbol: {text!r}")
        parts.append(text)
    elif isinstance(value, str):
        parts.append('"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"')
    elif isinstance(value, bool):
        raise TypeError("sexpr has no booleans: send a Symbol such as t or nil")
    elif isinstance(value, int):
        parts.append(int.__repr__(value))
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"sexpr has no notation for {value}")
        parts.append(float.__repr__(value))
    elif isinstance(value, list | tuple):
        parts.append("(")
        for i, item in enumerate(value):
            if i:
                parts.append(" ")
            _encode(item, parts)
        parts.append(")")
    else:
        raise TypeError(f"sexpr cannot encode {type(value).__name__}: {value!r}")


def _number_like(text: str) -> bool:
    return bool(_INT.fullmatch(text) or _FLOAT.fullmatch(text))
