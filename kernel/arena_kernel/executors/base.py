"""What an executor is: given a run's sessions, play them somewhere and hand every game's
record to the run's results, which store it.

The runner (:class:`~arena_kernel.runner.run.Runner`) schedules, stores and scores; an
executor decides only where the referee code runs. Both built-in executors play a session
with the same :class:`~arena_kernel.executors.player.SessionPlayer`, so a game is refereed
the same way whichever plays it, and the same match file gives the same games.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from arena_kernel.options import Configurable

if TYPE_CHECKING:  # registering an executor imports no game and no referee
    from arena_kernel.match.resolved import ResolvedMatch
    from arena_kernel.match.schedule import Session, Sessions
    from arena_kernel.model import GameRecord, ScheduledGame


class Results(Protocol):
    """Where the games an executor plays go: on the coordinator, the run's
    :class:`~arena_kernel.runner.results.RunResults`, which store each one in a
    transaction of its own as soon as it is handed over."""

    disqualified: set[str]
    """The bots out of the run so far (their games not yet played are stored void)."""

    log_root: Path
    """The run's log folder on this machine: bots' stderr, session logs, referee errors."""

    def game_started(self, game: ScheduledGame) -> None:
        """``game`` is about to be played (observers hear of it)."""

    def game_ended(self, record: GameRecord) -> None:
        """``record`` is a finished game: store it. Its ``stderr_logs`` are files under
        :attr:`log_root`."""

    def failed(self, label: str, message: str, details: str) -> None:
        """The game plugin failed on the game or session ``label`` (``game-12``,
        ``session-3``), or the executor could not play it: ``message`` in one line,
        ``details`` (a traceback) for the file ``<label>.error``. Its games stay unstored,
        for a later run to play."""


class Executor(Configurable, ABC):
    """Plays a run's sessions. One instance per run: :meth:`prepare` before the first game,
    :meth:`play` once (once per stage, for a format whose games depend on the results so
    far: a Swiss round, a knockout round), :meth:`aclose` in any case.

    Subclasses set ``name`` (the match file's ``executor = "..."``) and may declare
    :attr:`options`, which ``[executor_options.<name>]`` sets."""

    kind = "executor"
    summary: str = ""

    def __init__(
        self, match: ResolvedMatch, plugins: Sequence[str | object] = (), **options: Any
    ) -> None:
        super().__init__(**options)
        self.match = match
        self.plugins = tuple(plugins)
        """The plugins the run loaded beyond the built-in and installed ones (a match
        file's ``plugins``, ``arena run -p``): import paths, or the objects registered.
        An executor that plays elsewhere loads them there too."""
        self.sandbox = "none"
        """What the run's started bots run under (``"bwrap"``, ``"none"``), after
        :meth:`prepare`."""
        self.sandbox_note: str | None = None
        """A warning line for the run's header, or None, after :meth:`prepare`."""
        self.note: str | None = None
        """After :meth:`prepare`, a warning line for the run's header about where it plays
        (a cluster's settings that the executor cannot change and would have otherwise),
        or None."""
        self.crowding: dict[str, tuple[int, int]] = {}
        """After :meth:`prepare`, per machine that plays (its host name), how many games it
        plays at once and how many cores it has, where the executor knows them: what
        tells whether bots on wall-clock limits will be timed waiting for a core."""

    @abstractmethod
    async def prepare(self, sessions: Sessions) -> None:
        """Check, before the first game, what would otherwise fail every game (a bot that
        cannot be started where it would run, a log folder that cannot be written) and
        set :attr:`sandbox`; raise :class:`~arena_kernel.errors.SetupError` naming what
        and where. Called only when there is something to play."""

    @abstractmethod
    async def play(self, sessions: Iterator[Session], results: Results) -> None:
        """Play every session of ``sessions`` (take them in order: their number says which
        bots' processes stay up together), handing each finished game to ``results``.

        A :class:`~arena_kernel.errors.SetupError` met on the way stops the run: raise it.
        Cancellation (Ctrl-C) must end every bot before it propagates."""

    async def aclose(self) -> None:
        """Release what :meth:`prepare` and :meth:`play` acquired (transports, a cluster)."""
