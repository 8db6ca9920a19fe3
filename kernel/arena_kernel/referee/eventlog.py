"""The event log of one game: every message both ways, every fault, with timestamps.

Every message of every game is logged, so logging is on the path of each round trip.
There it only appends a tuple: the monotonic stamp the channel took anyway (the write of
a request, the read of a reply) and the bytes as they were on the wire. The text and the
:class:`~arena_kernel.model.Event` records are made when the events are read (once, when
the game is stored), all at once and off the path of every reply: made for each message
as it passed, they were a quarter of the referee's time per message. Where the kernel's
extension is built (:mod:`arena_kernel.codecs.compiled`) its ``events`` makes them in one
step; the Python of :meth:`EventLog._made` is the reference, tested equal.
"""

from __future__ import annotations

import time

from arena_kernel.codecs import compiled
from arena_kernel.model import Event, make_event

MAX_LOGGED_TEXT = 4000
"""Longer messages are cut in the log (a 10 MiB flood must not become a 10 MiB row). An
entry keeps the bytes of a message up to this long, and the cut text of a longer one, so
that a log never holds more of a big message than its event will."""

MAX_UNSOLICITED_EVENTS = 1000
"""Messages one seat sent unasked that one log keeps (a late answer is not unasked: it
was owed); the rest are counted, in a note at the end of the log, so that a spamming bot
cannot fill the database."""

Entry = tuple[float, str, int | None, bytes | str, float | None, float | None]
"""One event as recorded: (``time.monotonic()`` stamp, kind, seat, the bytes on the wire
(at most :data:`MAX_LOGGED_TEXT` of them: a longer message is recorded as its
:func:`wire_text`) or the text itself, elapsed, CPU time)."""


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

    __slots__ = ("_built", "_entries", "_unsolicited", "record", "started", "t0")

    def __init__(self) -> None:
        self.t0 = time.monotonic()
        self.started = time.time()
        self._entries: list[Entry] = []
        """Recorded, not yet made into events."""
        self._built: list[Event] = []
        self._unsolicited: dict[int | None, tuple[int, float]] = {}
        """seat -> (unsolicited messages seen, time of the last one)."""
        self.record = self._entries.append
        """Record one :data:`Entry`, stamped by the caller: the channel's way, a bare list
        append."""

    @property
    def events(self) -> list[Event]:
        """Every event, then a note per seat whose unsolicited messages were only counted."""
        if self._entries:
            extension = compiled.COMPILED
            made = (
                None
                if extension is None
                else extension.events(self._entries, self.t0, MAX_LOGGED_TEXT)
            )
            self._built += self._made() if made is None else made
            self._entries.clear()
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
        return [*self._built, *notes]

    def _made(self) -> list[Event]:
        """The events of the entries recorded (what the extension's ``events`` makes in
        one step, where it is built: this is the reference)."""
        t0 = self.t0
        # An entry's bytes are at most MAX_LOGGED_TEXT long (the channel records the cut
        # text of a longer message): their text is wire_text's without the cut.
        return [
            make_event(
                at - t0,
                kind,
                seat,
                p.decode("utf-8", "replace").rstrip("\n") if isinstance(p, bytes) else p,
                elapsed,
                cpu,
            )
            for at, kind, seat, p, elapsed, cpu in self._entries
        ]

    def now(self) -> float:
        return time.monotonic() - self.t0

    def add(self, kind: str, seat: int | None, text: str, elapsed: float | None = None) -> None:
        """Log an event that happens now (a fault, a note)."""
        self.record((time.monotonic(), kind, seat, text, elapsed, None))

    def admit_unsolicited(self, seat: int | None) -> bool:
        """Count one message ``seat`` sent unasked; True while the log still keeps them."""
        count = self._unsolicited.get(seat, (0, 0.0))[0] + 1
        self._unsolicited[seat] = (count, self.now())
        return count <= MAX_UNSOLICITED_EVENTS

    def note(self, text: str) -> None:
        """The referee's own commentary in the replay (e.g. "white wins: black has no tzaar")."""
        self.add("note", None, text)
