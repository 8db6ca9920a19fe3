"""How many sessions a referee process is handed beyond those it plays: as many as it ends
while its coordinator may be too busy to answer.

A worker starts a session handed ahead the moment one of its own ends; with none left it
waits for the coordinator, which answers between the steps of its own games and the
storing of everyone's. Quick sessions (in-process Nim: a few ms each) need many ahead or
the worker waits a good part of the time; long ones (a stones game at a second a move)
need one, and more would only keep them queued on a worker while the coordinator,
finished with its own, has nothing left to play at the end of a stage.
"""

from __future__ import annotations

import math

COVER = 0.05
"""Seconds of a worker's sessions to have handed ahead: longer than the coordinator takes
to answer, busy as it is."""

WEIGHT = 0.2
"""The weight of the latest interval between two ends in their running mean."""


class Pace:
    """The pace at which one worker ends its sessions, and what it is handed ahead for it."""

    def __init__(self) -> None:
        self.interval: float | None = None
        """The running mean of the seconds between two of its sessions' ends."""
        self._last: float | None = None

    def ended(self, now: float) -> None:
        """One of its sessions ended at ``now`` (seconds on a monotonic clock)."""
        if self._last is not None:
            gap = max(now - self._last, 0.0)
            self.interval = (
                gap if self.interval is None else ((1 - WEIGHT) * self.interval + WEIGHT * gap)
            )
        self._last = now

    def ahead(self, most: int) -> int:
        """Sessions to have handed ahead: enough for :data:`COVER` seconds at its pace, at
        least one, at most ``most`` (0 hands none ahead)."""
        if most <= 0:
            return 0
        if self.interval is None:
            return 1
        if self.interval <= 0:
            return most
        return max(1, min(most, math.ceil(COVER / self.interval)))
