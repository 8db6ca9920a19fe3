"""What a Dominion protocol's log reader does for the renderer, and the one chore both share.

Each protocol plugin reads its own wire messages (the line protocol's informational
lines, the S-expression states and ``moved`` plays) into the same :class:`Board`; the
renderer only asks where turns begin and feeds every event once, in order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from arena_dominion.render.board import Board
from arena_kernel.plugin import Event


class LogReader(ABC):
    """Reads one game's event log into ``board``.

    :meth:`opens_turn` must not change anything: the renderer asks it before feeding the
    same event, to close the previous step on the position before that turn.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.copies = Copies()

    @abstractmethod
    def opens_turn(self, event: Event) -> bool:
        """Whether ``event`` is the first message of a new turn."""

    @abstractmethod
    def feed(self, event: Event) -> None:
        """Apply ``event`` (any kind, any text: bots wrote part of the log) to the board."""


class Copies:
    """Tells the copies of one broadcast from a new message.

    The referee writes a broadcast as one ``send`` per seat, back to back, so a ``send``
    with the text of the one before it to a seat that broadcast has not reached yet is a
    copy: counting it again would count a gain once per player. Requests are not
    broadcasts (two Militia victims may get the very same request), so a reader consults
    this for broadcast lines only.
    """

    def __init__(self) -> None:
        self.text: str | None = None
        self.seats: set[int | None] = set()

    def is_copy(self, event: Event) -> bool:
        return event.kind == "send" and event.text == self.text and event.seat not in self.seats

    def see(self, event: Event) -> bool:
        """Whether ``event`` is a copy of the broadcast before it; remembers it either way."""
        if self.is_copy(event):
            self.seats.add(event.seat)
            return True
        if event.kind == "send":
            self.text, self.seats = event.text, {event.seat}
        else:
            self.text, self.seats = None, set()
        return False
