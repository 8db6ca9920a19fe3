"""The event log of one game: every message both ways, every fault, with timestamps."""

from __future__ import annotations

import time

from kernel.runner.records import Event

MAX_LOGGED_TEXT = 4000
"""Longer messages are cut in the log (a 10 MiB flood must not become a 10 MiB row)."""


def wire_text(raw: bytes) -> str:
    """Bytes as they appeared on the wire, readable, cut to a sane length."""
    text = raw[:MAX_LOGGED_TEXT].decode("utf-8", "replace").rstrip("\n")
    if len(raw) > MAX_LOGGED_TEXT:
        text += f"... [{len(raw)} bytes in all]"
    return text


class EventLog:
    """Collects one game's events in memory; the runner stores them in one transaction.

    Times are seconds since the log started (monotonic clock), so replays show the pace of
    the game independently of the wall clock.
    """

    __slots__ = ("events", "started", "t0")

    def __init__(self) -> None:
        self.t0 = time.monotonic()
        self.started = time.time()
        self.events: list[Event] = []

    def now(self) -> float:
        return time.monotonic() - self.t0

    def add(self, kind: str, seat: int | None, text: str, elapsed: float | None = None) -> None:
        self.events.append(Event(time.monotonic() - self.t0, kind, seat, text, elapsed))

    def note(self, text: str) -> None:
        """The referee's own commentary in the replay (e.g. "white wins: black has no tzaar")."""
        self.add("note", None, text)
