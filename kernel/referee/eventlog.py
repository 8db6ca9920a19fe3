"""The event log of one game: every message both ways, every fault, with timestamps."""

from __future__ import annotations

import time

from arena_kernel.model import Event

MAX_LOGGED_TEXT = 4000
"""Longer messages are cut in the log (a 10 MiB flood must not become a 10 MiB row)."""

MAX_UNSOLICITED_EVENTS = 1000
"""Messages one seat sent unasked that one log keeps (a late answer is not unasked: it
was owed); the rest are counted, in a note at the end of the log, so that a spamming bot
cannot fill the database."""


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

    __slots__ = ("_events", "_unsolicited", "started", "t0")

    def __init__(self) -> None:
        self.t0 = time.monotonic()
        self.started = time.time()
        self._events: list[Event] = []
        self._unsolicited: dict[int | None, tuple[int, float]] = {}
        """seat -> (unsolicited messages seen, time of the last one)."""

    @property
    def events(self) -> list[Event]:
        """Every event, then a note per seat whose unsolicited messages were only counted."""
        notes = [
            Event(
                t,
                "note",
                seat,
                f"{count - MAX_UNSOLICITED_EVENTS} more unsolicited "
                f"messages were received (counted, not logged)",
            )
            for seat, (count, t) in self._unsolicited.items()
            if count > MAX_UNSOLICITED_EVENTS
        ]
        return self._events + notes if notes else self._events

    def now(self) -> float:
        return time.monotonic() - self.t0

    def add(self, kind: str, seat: int | None, text: str, elapsed: float | None = None) -> None:
        self._events.append(Event(time.monotonic() - self.t0, kind, seat, text, elapsed))

    def admit_unsolicited(self, seat: int | None) -> bool:
        """Count one message ``seat`` sent unasked; True while the log still keeps them."""
        count = self._unsolicited.get(seat, (0, 0.0))[0] + 1
        self._unsolicited[seat] = (count, self.now())
        return count <= MAX_UNSOLICITED_EVENTS

    def note(self, text: str) -> None:
        """The referee's own commentary in the replay (e.g. "white wins: black has no tzaar")."""
        self.add("note", None, text)
