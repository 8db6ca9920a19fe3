"""The compiled codecs' usual case, or None where the extension was not built.

``_fast`` is compiled from ``_fast.c`` by the kernel's install, as an optional extension:
without a C compiler the kernel installs all the same, :data:`COMPILED` is None, and the
codecs' Python code does all the work. The extension stands in for that code in the usual
case only (a read that is one whole line, one message written, on the ``line`` and
``jsonl`` codecs; a subclass of either is left to its own code) and hands every other case
to it unchanged, so the Python is the reference: the tests run both ways, and
``ARENA_PURE_PYTHON=1`` leaves the extension unused.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

from arena_kernel.codecs.base import MAX_DEPTH, Codec, Decoded, Decoder
from arena_kernel.codecs.jsonl import _C_ENCODE, SCAN, JsonlCodec, JsonlDecoder
from arena_kernel.codecs.line import LineCodec, LineDecoder
from arena_kernel.model import Event


def _load() -> ModuleType | None:
    """The configured extension; None where it is missing or not wanted."""
    if os.environ.get("ARENA_PURE_PYTHON"):
        return None
    try:
        _fast = importlib.import_module("arena_kernel.codecs._fast")
    except ImportError:
        return None
    _fast.configure_codecs(
        line_decoder=LineDecoder,
        jsonl_decoder=JsonlDecoder,
        line_codec=LineCodec,
        jsonl_codec=JsonlCodec,
        scan_once=SCAN,
        encode_json=_C_ENCODE,
        max_depth=MAX_DEPTH,
    )
    _fast.configure_events(event=Event)
    return _fast


COMPILED = _load()
"""The extension, read at every use (a test sets it to None for the Python alone)."""


def feed(decoder: Decoder, data: bytes) -> list[Decoded]:
    """``decoder.feed(data)``, compiled for a read that is one whole line of one message."""
    compiled = COMPILED
    if compiled is not None:
        found = compiled.decode_whole(decoder, data)
        if found is not None:
            return [(found[0], data)]
    return decoder.feed(data)


def encode(codec: Codec, message: Any) -> bytes:
    """``codec.encode(message)``, compiled for the usual line or JSON value."""
    compiled = COMPILED
    return codec.encode(message) if compiled is None else compiled.encode(codec, message)
