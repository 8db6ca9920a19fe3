"""The compiled round trip of a channel, or None where the extension was not built.

The extension of :mod:`arena_kernel.codecs.compiled` also holds the usual round trip of a
channel on the ``line`` and ``jsonl`` codecs: :meth:`Channel.ask
<arena_kernel.referee.channel.Channel.ask>` (its ``ask``) and the read of one whole line
that answers it (its ``Reader``, a channel's ``on_data``). It does what the channel's
Python code does in that case and hands every other case to it before changing anything,
so the Python is the reference: the referee's tests run both ways.
"""

from __future__ import annotations

import time
from types import ModuleType

from arena_kernel.codecs import compiled
from arena_kernel.referee.eventlog import MAX_LOGGED_TEXT, wire_text


def _load() -> ModuleType | None:
    extension = compiled.COMPILED
    if extension is not None:
        extension.configure_channels(
            wire_text=wire_text, monotonic=time.monotonic, max_logged=MAX_LOGGED_TEXT
        )
    return extension


COMPILED = _load()
"""The extension (its ``ask`` and ``Reader``), read when a channel is made and at each
request; None: the Python code alone."""
