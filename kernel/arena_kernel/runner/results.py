"""Where the executor hands the games of a run it plays: each finished game is stored in one
transaction as soon as it is handed over, so an interrupted run loses at most the games
that were in progress."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from arena_kernel import hookspecs
from arena_kernel.errors import SetupError
from arena_kernel.executors.player import os_error
from arena_kernel.model import GameRecord, RunInfo, ScheduledGame
from arena_kernel.referee.startup import with_stderr_tails
from arena_kernel.registries.observers import Observers
from arena_kernel.runner.first_starts import FirstStarts
from arena_kernel.scoring.played import played
from arena_kernel.scoring.sprt_run import SprtStep, SprtTracker
from arena_kernel.store.sqlite import Store


class RunResults:
    """The :class:`~arena_kernel.executors.base.Results` of ``run``: stores each game,
    feeds the run's SPRT (``sprt``, None without one), keeps the bots out of the run
    (those the store already holds as disqualified, then those each game puts out) and
    counts the games stored and the errors, which the run's summary reports.

    With ``first_starts`` (:class:`~arena_kernel.runner.first_starts.FirstStarts`), a game
    in which a bot failed to come up waits until that bot has come up in another, and a
    bot that never does stops the run; without, every game is stored as it ends."""

    def __init__(
        self,
        store: Store,
        run: RunInfo,
        observers: Observers,
        sprt: SprtTracker | None,
        log_root: Path,
        first_starts: FirstStarts | None = None,
    ) -> None:
        self.store = store
        self.run = run
        self.observers = observers
        self.sprt = sprt
        self.log_root = log_root
        self.first_starts = first_starts
        self.disqualified = store.disqualified(run.run_id)
        self.played = 0
        self.errors: list[str] = []

    def game_started(self, game: ScheduledGame) -> None:
        self.observers.notify(hookspecs.arena_game_start, run=self.run, game=game)

    def game_ended(self, record: GameRecord) -> None:
        """Store ``record`` (once its bots have come up in the run, with ``first_starts``).
        A bot that failed to come up has the end of its stderr in its fault's reason
        (:func:`~arena_kernel.referee.startup.with_stderr_tails`)."""
        record = with_stderr_tails(record)
        if self.first_starts is None:
            self._store(record)
            return
        for ready in self.first_starts.admit(record):
            self._store(ready)

    def settle(self) -> None:
        """The executor has played what it was given: a bot still to come up stops the
        run (:meth:`~arena_kernel.runner.first_starts.FirstStarts.settle`)."""
        if self.first_starts is not None:
            self.first_starts.settle()

    def _store(self, record: GameRecord) -> None:
        """Store ``record`` in one transaction, then put the bots it disqualified out."""
        game = record.game
        if self.disqualified.intersection(game.seating) and not record.outcome.void:
            # Played while another game put one of its bots out of the run (several games
            # at once): it must not count either.
            record = dataclasses.replace(
                record, outcome=dataclasses.replace(record.outcome, void=True)
            )
        self.store.save_game(self.run.run_id, record, self._sprt_step(record))
        self.disqualified.update(game.seating[seat] for seat in record.outcome.disqualified)
        self.played += 1
        self.observers.notify(hookspecs.arena_game_end, run=self.run, game=game, record=record)

    def _sprt_step(self, record: GameRecord) -> SprtStep | None:
        """Count ``record`` in the run's SPRT; the step it makes, to store with it. A game
        that puts a bot out voids every game of that bot, and the test with them."""
        if self.sprt is None:
            return None
        if record.outcome.disqualified:
            self.sprt.clear()
            return None
        return self.sprt.add(played(record))

    def failed(self, label: str, message: str, details: str) -> None:
        """A game plugin (or the executor) failed on ``label``: the traceback goes to
        ``<label>.error`` in the run's log folder and the run counts the error."""
        path = self.log_root / f"{label}.error"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(details)
        except OSError as write_error:
            raise SetupError(f"cannot write {path}: {os_error(write_error)}") from None
        self.errors.append(f"{label}: {message} (see {path})")
