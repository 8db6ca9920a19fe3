"""Helpers for the transport tests (a module of its own: test files cannot import conftest).

pytest-asyncio is not used: each test runs its coroutine with :func:`run`, which also puts
a hard limit on it so that a broken transport fails the test instead of hanging the run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any


def run(coro: Coroutine[Any, Any, Any], timeout: float = 15.0) -> Any:
    return asyncio.run(asyncio.wait_for(coro, timeout))


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie (an orphan zombie waits for PID 1 only)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


class Recorder:
    """Collects what a connection delivers, in order, and lets a test wait for it."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []
        self.data = bytearray()
        self.closed: list[str] = []
        self._changed = asyncio.Event()

    def on_data(self, data: bytes) -> None:
        self.events.append(("data", data))
        self.data += data
        self._changed.set()

    def on_closed(self, reason: str) -> None:
        self.events.append(("closed", reason))
        self.closed.append(reason)
        self._changed.set()

    async def until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        async with asyncio.timeout(timeout):
            while not predicate():
                self._changed.clear()
                await self._changed.wait()

    async def received(self, expected: bytes, timeout: float = 5.0) -> None:
        await self.until(lambda: len(self.data) >= len(expected) or bool(self.closed), timeout)
        assert bytes(self.data) == expected

    async def wait_closed(self, timeout: float = 5.0) -> str:
        await self.until(lambda: bool(self.closed), timeout)
        return self.closed[0]
