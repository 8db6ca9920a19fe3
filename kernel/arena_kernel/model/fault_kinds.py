"""The kinds of fault a bot makes: what a stored run's readers count by, apart from the
faults themselves."""

from __future__ import annotations

from enum import StrEnum


class FaultKind(StrEnum):
    TIMEOUT = "timeout"
    """No reply within the clock (per-reply limit, start-up limit or game budget)."""
    EXIT = "exit"
    """The bot's process exited, closed its output or dropped its connection."""
    MALFORMED = "malformed"
    """Bytes that the codec cannot decode: invalid UTF-8, invalid JSON, not a datum."""
    OVERSIZE = "oversize"
    """A message larger than the codec's maximum."""
    ILLEGAL = "illegal"
    """A well-formed message that the game judged illegal."""
    CONNECT = "connect"
    """The bot never started or never connected."""
    FLOOD = "flood"
    """Too many unsolicited messages waiting to be read."""
    WALL_CAP = "wall-cap"
    """No reply within the wall-clock cap of a CPU-time clock (``[clock] mode = "cpu"``):
    the bot slept or blocked while its CPU time was still within the limit."""
    MEMORY = "memory"
    """The out-of-memory killer ended the bot's processes: together they passed the bot's
    ``[limits] memory_mb`` (its memory cgroup, where arena can make one)."""
