"""What one game is and makes: its place in the schedule, its outcome, its event log and
its record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena_kernel.model.faults import Fault


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
