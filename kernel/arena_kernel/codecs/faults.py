"""Fault items shared by codecs, so every codec (third-party ones too) words them alike."""

from __future__ import annotations

from arena_kernel.codecs.base import MAX_DEPTH, Decoded
from arena_kernel.model import Fault, FaultKind

FAULT_EXCERPT = 200
"""Bytes of the offending input kept with a fault: enough to recognise, never a flood."""

TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"
"""Why a message nested deeper than :data:`~arena_kernel.codecs.base.MAX_DEPTH` is
``malformed``."""


def oversize_fault(max_message: int, raw: bytes) -> Decoded:
    """The one fault reported for a frame over the limit (shared by every built-in codec)."""
    detail = f"message longer than {max_message} bytes"
    return Fault(FaultKind.OVERSIZE, detail), raw[:FAULT_EXCERPT]


def malformed_fault(detail: str, raw: bytes) -> Decoded:
    return Fault(FaultKind.MALFORMED, detail), raw[:FAULT_EXCERPT]


def utf8_detail(exc: UnicodeDecodeError, offset: int = 0) -> str:
    """Invalid UTF-8, located by byte so that the user can find it in a hex dump.

    ``offset`` is where the decoded bytes start within the message.
    """
    bad = " ".join(f"0x{byte:02x}" for byte in exc.object[exc.start : exc.end])
    return f"invalid UTF-8 at byte {offset + exc.start} ({bad}: {exc.reason})"
