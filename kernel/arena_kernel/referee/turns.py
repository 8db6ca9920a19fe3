"""How long a game whose bots answer in process may keep the event loop.

A request to an in-process bot is answered inside its write: awaiting that reply would
never give the event loop back, and a game between two such bots would hold it to its
end, every other game and timer waiting. Giving it back at every request is fair but
costs a turn of the loop a request, a sixth of what a stones move costs through the
referee. So the games on a loop share one time slice: a game asks on while the slice
lasts and gives the loop back at its first request past the slice's end. The slice is
renewed once per turn of the loop, by a callback that the first game to find it spent
schedules: every game that runs later in the same turn finds it spent too and gives the
loop back after one request, so a turn of the loop takes about one slice, however many
games run on it.
"""

from __future__ import annotations

import asyncio
import time

TIME_SLICE = 0.001
"""Seconds of requests answered in process that the games on a loop make before the loop
runs its other callbacks (the timers, the pipes of the bots that are programs): what
such a callback may wait beyond its time while in-process games run."""

_clock = time.monotonic


class Slice:
    """The time slice the games on a loop share (one per process: games on loops in other
    threads only give their loops back more often)."""

    __slots__ = ("_renewing", "until")

    def __init__(self) -> None:
        self.until = 0.0
        """When the slice ends, by :data:`_clock`; 0: spent."""
        self._renewing: asyncio.AbstractEventLoop | None = None
        """The loop that will renew the slice at its next turn, if one will."""

    def spent(self) -> bool:
        """Whether the game asking must give the loop back now."""
        return _clock() >= self.until

    async def give_back(self) -> None:
        """One turn of the event loop, the slice renewed at its start (by the first game
        that gives the loop back in a turn)."""
        loop = asyncio.get_running_loop()
        if self._renewing is not loop:
            self._renewing = loop
            self.until = 0.0
            loop.call_soon(self._renew)
        await asyncio.sleep(0)

    def _renew(self) -> None:
        self._renewing = None
        self.until = _clock() + TIME_SLICE


SHARED = Slice()
"""The slice every table asks within."""
