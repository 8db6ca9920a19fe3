"""The values that flow through arena: a game's outcome, a bot's faults, the event log, the
records of runs and games, and the standings tables the scorers make of them.

This module imports nothing else of the kernel, so that the referee, the runner, the store,
the scorers and the games all speak of the same things without importing one another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


@dataclass
class Outcome:
    """The result of one game.

    ``ranks[seat]`` is 1 for the winner(s); equal ranks are ties. ``scores`` are the game's
    own points, if it has any. ``void`` games are stored but count in no standings.
    ``disqualified`` seats are out of the whole RUN (the Speed Clue contest's policy): every
    game their bots played is made void when this one is stored, and their later games are
    not played. A game that only puts a seat out of itself ranks it last instead.
    """

    ranks: list[int]
    reason: str
    scores: list[float] | None = None
    details: dict[str, Any] = field(default_factory=dict)
    void: bool = False
    disqualified: frozenset[int] = frozenset()

    @classmethod
    def win(cls, winner: int, seats: int, reason: str, **kw: Any) -> Outcome:
        """One winner, every other seat shares second place."""
        return cls([1 if s == winner else 2 for s in range(seats)], reason, **kw)

    @classmethod
    def draw(cls, seats: int, reason: str, **kw: Any) -> Outcome:
        return cls([1] * seats, reason, **kw)

    @classmethod
    def by_scores(cls, scores: Sequence[float], reason: str, **kw: Any) -> Outcome:
        """Rank by score, highest first; equal scores tie (competition ranking: 1, 1, 3)."""
        ranks = [1 + sum(other > mine for other in scores) for mine in scores]
        return cls(ranks, reason, scores=list(scores), **kw)


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


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault: its kind, a precise human description, and when (seconds into the game)."""

    kind: FaultKind
    detail: str
    seat: int | None = None
    at: float = 0.0

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


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
    sandbox: str | None = field(default=None, kw_only=True)
    """While the run plays: what the bots it starts run under, ``"bwrap"`` or ``"none"``.
    None for a run read from the store, one with no game left to play, or one that starts
    no bot (in-process bots and bots that connect by themselves are never sandboxed)."""
    sandbox_note: str | None = field(default=None, kw_only=True)
    """While the run plays: a warning about its sandbox for the run's header (bots run
    unsandboxed because this machine cannot sandbox them, their processes cannot be capped
    or their system calls cannot be filtered), or None."""
    clock_note: str | None = field(default=None, kw_only=True)
    """While the run plays: a warning about its clocks for the run's header (wall-clock
    limits with more games at once than a machine has cores), or None."""
    executor_note: str | None = field(default=None, kw_only=True)
    """While the run plays: a warning about where it plays for the run's header (a
    cluster's settings that the executor relies on set otherwise), or None."""


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
    but in its capped per-game stderr file. ``cpu`` is the CPU time the bot's processes used
    for a reply, measured on CPU-time clocks only (``[clock] mode = "cpu"``).
    """

    t: float
    kind: str
    seat: int | None
    text: str
    elapsed: float | None = None
    cpu: float | None = None


_new_object = object.__new__
_set_t, _set_kind, _set_seat, _set_text, _set_elapsed, _set_cpu = (
    getattr(Event, name).__set__ for name in ("t", "kind", "seat", "text", "elapsed", "cpu")
)


def make_event(
    t: float,
    kind: str,
    seat: int | None,
    text: str,
    elapsed: float | None = None,
    cpu: float | None = None,
) -> Event:
    """``Event(t, kind, seat, text, elapsed, cpu)`` for less: a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``; this sets the slots
    straight, in half the time. Every message of every game becomes an event when the game
    is stored, and again when it is read back (a replay, a report); a test holds the two
    equal."""
    made = _new_object(Event)
    _set_t(made, t)
    _set_kind(made, kind)
    _set_seat(made, seat)
    _set_text(made, text)
    _set_elapsed(made, elapsed)
    _set_cpu(made, cpu)
    return made


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
    sandbox: str | None = None
    """What the game's bots ran under: ``"bwrap"`` when the arena started at least one of
    them, each in a bubblewrap sandbox; ``"none"`` when it started them unsandboxed, or
    started none (bots in-process or connecting by themselves, which no sandbox of the
    arena's holds, or a game not played); None: not known."""


@dataclass(frozen=True)
class Estimate:
    """A bot's figure in a table with, where the scorer knows it, the interval it is
    likely in: what the report draws as a bar with error bars and plots over the games."""

    value: float
    low: float | None = None
    high: float | None = None


@dataclass
class Standings:
    """One scorer's table: plain data, printed (and exported) by the CLI.

    ``rows`` are sorted best first, one value per column; a value is None where it is
    undefined (a rate of a bot that played no counted game). ``notes`` tell the reader
    what was left out and why. ``estimates`` hold, per bot that has one, the figure the
    table ranks by (or its natural scale) with its interval, and ``estimate`` says what
    it is ("Elo, 95% interval").
    """

    title: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    notes: list[str] = field(default_factory=list)
    estimate: str = ""
    estimates: dict[str, Estimate] = field(default_factory=dict)


def cell(value: Any) -> str:
    """A standings value as text, in a terminal and in the report alike. Scorers round their
    numbers for display already; None means "undefined"."""
    if isinstance(value, float):
        return f"{value:g}"
    return "-" if value is None else str(value)
