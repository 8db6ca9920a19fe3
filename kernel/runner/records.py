"""The values that flow from the runner to the store, the scorers and the observers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kernel.games.base import Outcome
from kernel.referee.faults import Fault


@dataclass(frozen=True)
class RunInfo:
    """One run of a match file, as stored (``key`` identifies it for resuming)."""

    run_id: int
    key: str
    name: str
    game: str
    total_games: int
    done_games: int
    database: str


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule: its position, seed, and the bots in seat order."""

    index: int
    seed: int
    seating: tuple[str, ...]
    session: int = 0


@dataclass(frozen=True, slots=True)
class Event:
    """One line of a game's event log (its replay).

    ``kind``: ``send`` (to ``seat``), ``recv`` (from ``seat``; ``elapsed`` is the measured
    reply time when it answered a request), ``late`` (a reply to a request that had timed
    out), ``fault``, ``note`` (the referee's commentary). A bot's stderr is not logged here
    but in its capped per-game stderr file.
    """

    t: float
    kind: str
    seat: int | None
    text: str
    elapsed: float | None = None


@dataclass
class GameRecord:
    """Everything stored for one finished game (one transaction)."""

    game: ScheduledGame
    outcome: Outcome
    faults: list[Fault] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    started_at: float = 0.0
    duration: float = 0.0
    stderr_logs: dict[int, str] = field(default_factory=dict)
    """Seat -> path of that bot's stderr log for this game."""
    extra: dict[str, Any] = field(default_factory=dict)
