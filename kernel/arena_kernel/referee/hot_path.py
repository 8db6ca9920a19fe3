"""The compiled round trip of a channel, or None where the extension was not built.

The extension of :mod:`arena_kernel.codecs.compiled` also holds the usual round trip of a
channel on the ``line`` and ``jsonl`` codecs: :meth:`Channel.ask
<arena_kernel.referee.channel.Channel.ask>` (its ``ask``) and the read of one whole line
that answers it (its ``Reader``, a channel's ``on_data``), with the table's usual step
around it (its ``drain`` and ``reply``: :meth:`Table.ask
<arena_kernel.referee.table.Table.ask>`). It does what the channel's
Python code does in that case and hands every other case to it before changing anything,
so the Python is the reference: the referee's tests run both ways. It reads the channel's,
the decoder's and the event log's slots as the fields they are (at the offsets of their
descriptors), not by name: :func:`configure` hands it the channel's class.
"""

from __future__ import annotations

import asyncio
import time
from types import ModuleType

from arena_kernel.codecs import compiled
from arena_kernel.referee.eventlog import MAX_LOGGED_TEXT, EventLog, wire_text

COMPILED: ModuleType | None = None
"""The extension (its ``ask`` and ``Reader``) once :func:`configure` ran, read when a
channel is made and at each request; None: the Python code alone."""


def configure(channel: type) -> None:
    """Make the compiled round trip that of ``channel`` (the channel's module does, once)."""
    global COMPILED
    extension = compiled.COMPILED
    if extension is not None:
        extension.configure_channels(
            channel=channel,
            event_log=EventLog,
            wire_text=wire_text,
            monotonic=time.monotonic,
            create_future=asyncio.BaseEventLoop.create_future,
            future_type=asyncio.Future,
            max_logged=MAX_LOGGED_TEXT,
        )
    COMPILED = extension


def configure_replies(reply: type) -> None:
    """Let the compiled path's ``reply`` make ``reply`` objects (the table's module does, once,
    with its Reply: the compiled table step's in place of ``Reply(...)``)."""
    extension = compiled.COMPILED
    if extension is not None:
        extension.configure_replies(reply=reply)
