"""Awaiting what ends bots to its end, however often the awaiting code is cancelled.

A cancelled task that is cleaning up can be cancelled again (a run stopping cancels its
workers, which may already be ending a game's bots because of the first cancellation).
With a plain ``await`` the cleanup then stops half-way, or goes on in a task of its own
that nobody waits for: the run finishes, the event loop closes, and that task is cancelled
in turn, possibly before it even started, leaving the bot running. Both happened.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def to_the_end(awaitable: Awaitable[T]) -> T:
    """Await ``awaitable`` until it is done, even if the caller is cancelled meanwhile (any
    number of times); then re-raise that cancellation, or return its result."""
    inner = asyncio.ensure_future(awaitable)
    cancelled = False
    while not inner.done():
        try:
            await asyncio.wait((inner,))
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return inner.result()
