"""Running a match: schedule -> sessions -> an executor plays them -> each game stored."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena_kernel import hookspecs
from arena_kernel.errors import SetupError
from arena_kernel.match.resolved import resolve
from arena_kernel.match.schedule import Pending, Schedule, Session, Sessions
from arena_kernel.match.spec import MatchSpec
from arena_kernel.match.stages import Stages, StageSchedule
from arena_kernel.model import GameRecord, RunInfo, ScheduledGame
from arena_kernel.referee.startup import with_stderr_tails
from arena_kernel.registries.manager import ArenaPluginManager, named_plugins
from arena_kernel.registries.observers import Observers
from arena_kernel.registries.registry import Registries
from arena_kernel.runner.crowding import crowding_note
from arena_kernel.runner.fd_budget import raise_open_file_limit
from arena_kernel.runner.player import os_error, starts_any
from arena_kernel.scoring.base import Standings, played
from arena_kernel.scoring.sprt_run import SprtTracker, settings_of
from arena_kernel.scoring.standings import RunStandings, run_standings
from arena_kernel.store.lock import exclusive_run
from arena_kernel.store.sqlite import Store, StoredGame, sandbox_counts

if TYPE_CHECKING:  # the executor comes from the registry: the runner imports none
    from arena_kernel.executors.base import Executor


@dataclass
class RunSummary:
    """What a run did: games played now, games found already stored, referee errors.

    ``faults`` counts, per bot, the games it lost with a fault of its own, by kind (None:
    no bot lost a game to a fault). ``sandboxes`` counts the run's stored games by the
    sandbox they ran under (:func:`~arena_kernel.store.sqlite.sandbox_counts`): a run
    resumes only under the sandbox its games ran under, but a game of bots the arena
    does not start ran under none, and one stored by an older arena under an unknown
    one."""

    run: RunInfo
    played: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)
    standings: list[Standings] = field(default_factory=list)
    faults: Standings | None = None
    sprt: Standings | None = None
    """The run's SPRT as a table (None without ``[sprt]``)."""
    format: Standings | None = None
    """The format's own table (a Swiss's scores, a knockout's bracket), or None."""
    stopped: str | None = None
    """Why the run stopped before its schedule's end (its SPRT decided), or None."""
    sandboxes: dict[str, int] = field(default_factory=dict)


SANDBOX_ADVICE = {
    "bwrap": 'set [sandbox] mode = "none" to finish it unsandboxed as it began, or give this '
    "match file a `database` of its own to play every game sandboxed",
    "none": "finish it where its bots run sandboxed as they did (`arena doctor` says whether "
    'they can; not with [sandbox] mode = "none"), or give this match file a `database` of '
    "its own to play every game unsandboxed",
}
"""What to do about a run whose stored games ran under another sandbox than this run
would run them, by this run's sandbox."""


def spec_record(spec: MatchSpec) -> dict[str, Any]:
    """The match spec as JSON-able data, stored with the run for reference."""
    record: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(spec), default=str))
    return record


class Runner:
    """Plays the games of one match file that are not yet in the store.

    Games are grouped into sessions (one per game, or ``spec.concurrency`` of them when
    bots stay connected across games), which the match file's executor plays (:mod:`the
    local one <arena_kernel.executors.local>`: ``concurrency`` at a time on this event loop).
    The runner is the executor's :class:`~arena_kernel.executors.base.Results`: each
    finished game is stored in one transaction as soon as the executor hands it over, so an
    interrupted run loses at most the games that were in progress.

    A failure of the set-up rather than of a bot (:class:`~arena_kernel.errors.SetupError`: a
    command that does not exist, a port in use, no file descriptor left, an unwritable log
    folder) is a run error, never a game result: what can be checked is checked before the
    first game, and one met during a game stops the run, the games in progress unstored, so
    that the next run plays them. One run at a time plays into a database
    (:mod:`arena_kernel.store.lock`).
    """

    run: RunInfo
    summary: RunSummary
    log_root: Path
    disqualified: set[str]

    def __init__(
        self,
        spec: MatchSpec,
        registries: Registries,
        store: Store,
        pm: ArenaPluginManager,
    ) -> None:
        self.spec = spec
        self.registries = registries
        self.store = store
        self.observers = Observers(pm)
        self.match = resolve(spec, registries)
        self.schedule = Schedule(spec)
        self.lifetime = self.match.game.lifetime
        executor: type[Executor] = registries.executors.cls(spec.executor)
        options = spec.executor_options.get(spec.executor, {})
        self.executor = executor(self.match, named_plugins(pm), **options)

    async def play(self) -> RunSummary:
        raise_open_file_limit()
        holder = f"pid {os.getpid()}, arena run {self.spec.path}"
        with exclusive_run(self.store.path, holder):
            self.store.check_intact()
            try:
                return await self._play_pending()
            finally:
                await self.executor.aclose()

    async def _play_pending(self) -> RunSummary:
        """Check the set-up, create (or resume) the run, play what is not stored yet (a
        stage at a time for a format whose games depend on the results so far)."""
        spec = self.spec
        record = spec_record(spec)
        self.stages = Stages.of(record)
        stored = self.store.find_run(spec.key())
        stored_id = stored.run_id if stored is not None else None
        self.sprt = self._sprt(stored_id)
        if self.stages is None:
            total = len(self.schedule)
            done = self.store.stored_indexes(stored_id) if stored_id is not None else []
            pending = Pending(self.schedule, done)
            skipped = total - len(pending)
        else:
            total = self.stages.most_games
            results = self.store.results(stored_id) if stored_id is not None else []
            pending = self._stage(results)
            skipped = len(results)
        sessions = Sessions(pending, self.lifetime, spec.concurrency)
        playing = bool(sessions) and not (self.sprt is not None and self.sprt.decided)
        if playing:
            await self.executor.prepare(sessions)
            if stored is not None and starts_any(self.match, self.match.bots):
                self._refuse_other_sandboxes(stored)
        self.run = self.store.open_run(spec.key(), spec.name, spec.game, record, total)
        if playing and starts_any(self.match, self.match.bots):
            self.run = dataclasses.replace(
                self.run,
                sandbox=self.executor.sandbox,
                sandbox_note=self.executor.sandbox_note,
                clock_note=crowding_note(self.match.clocks, self.executor.crowding),
            )
        self.summary = RunSummary(self.run, skipped=skipped)
        self.log_root = spec.logs / f"run-{self.run.run_id}"
        self.disqualified = self.store.disqualified(self.run.run_id)
        self.observers.notify(hookspecs.arena_run_start, run=self.run)
        try:
            if playing:
                await self.executor.play(self._until_decided(iter(sessions)), self)
                await self._later_stages(pending)
        except SetupError as exc:
            left = (
                f"{len(pending) - self.summary.played} of its games not played"
                if self.stages is None
                else "the rest of its games not played"
            )
            raise SetupError(
                f"{exc} (the run stopped with {left}; run it again to play them)"
            ) from None
        decided = self.sprt is not None and self.sprt.decided
        done_games = self.store.run(self.run.run_id).done_games
        if self._over(done_games) or decided:
            self.store.finish_run(self.run.run_id)
        if decided and done_games < len(self.schedule):
            assert self.sprt is not None
            self.summary.stopped = (
                f"the SPRT accepted {self.sprt.result.decision} after "
                f"{self.sprt.result.pairs} pairs of games: the run stopped with "
                f"{len(self.schedule) - done_games} of its games not played"
            )
        results = self.store.results(self.run.run_id)
        standings = self.standings(results)
        self.summary.standings, self.summary.faults = standings.tables, standings.faults
        self.summary.sprt, self.summary.format = standings.sprt, standings.format
        self.summary.sandboxes = sandbox_counts(results)
        self.observers.notify(
            hookspecs.arena_run_end, run=self.run, standings=self.summary.standings
        )
        return self.summary

    def _refuse_other_sandboxes(self, stored: RunInfo) -> None:
        """Raise :class:`SetupError` when the stored run's games ran their bots under
        another sandbox than this run's (the executor's, once prepared): its standings
        would mix games played in two ways, and a ``mode = "required"`` file would pass
        for a sandboxed run that is not. The sandbox is not part of a run's identity (a
        run keeps its key whatever its ``[sandbox]`` table says), so this is where it is
        held to one."""
        mine = self.executor.sandbox
        started = [name for name, bot in self.match.bots.items() if bot.program.argv is not None]
        others = self.store.sandboxes_besides(stored.run_id, mine, started)
        if not others:
            return
        games = " and ".join(
            f"{n} of its games ran them {_sandboxed(mode)}" for mode, n in others.items()
        )
        raise SetupError(
            f"{self.spec.path}: run {stored.run_id} would go on with its bots "
            f"{_sandboxed(mine)}, but {games}: one run's games are played alike; "
            + SANDBOX_ADVICE.get(mine, "give this match file a `database` of its own")
        )

    def standings(self, results: list[StoredGame]) -> RunStandings:
        """One table per scorer, the games each bot lost to faults and the SPRT, of the
        run's stored ``results``."""
        names = [b.name for b in self.spec.bots]
        spec = self.spec
        return run_standings(
            results, names, spec.scorers, self.registries.scorers.cls, spec_record(spec)
        )

    def _stage(self, results: Sequence[StoredGame]) -> Pending:
        """The games of the run's next stage (``self.stages``), from the stored ones."""
        assert self.stages is not None
        games = self.stages.to_play(results)
        names = [bot.name for bot in self.spec.bots]
        schedule = StageSchedule(games, self.spec.seed, self.stages.most_games, names)
        return Pending(schedule, schedule.others())

    async def _later_stages(self, first: Pending) -> None:
        """Play the stages after the first, each worked out from the games stored when
        the one before has ended, until none is left. A stage whose games could not be
        stored (a referee error on each) is not tried again in this run."""
        previous = _indexes(first)
        while self.stages is not None:
            pending = self._stage(self.store.results(self.run.run_id))
            indexes = _indexes(pending)
            if not indexes or indexes == previous:
                return
            previous = indexes
            sessions = Sessions(pending, self.lifetime, self.spec.concurrency)
            await self.executor.play(iter(sessions), self)

    def _over(self, done_games: int) -> bool:
        """Whether every game of the run is stored (for a staged format: no stage left)."""
        if self.stages is None:
            return done_games == len(self.schedule)
        return not self.stages.to_play(self.store.results(self.run.run_id))

    def _sprt(self, run_id: int | None) -> SprtTracker | None:
        """The run's SPRT (None without ``[sprt]``), fed with the games already stored."""
        if not self.spec.sprt:
            return None
        tracker = SprtTracker(settings_of(self.spec.sprt), self.spec.bots[0].name)
        if run_id is not None:
            tracker.extend(self.store.results(run_id))
        return tracker

    def _until_decided(self, sessions: Iterator[Session]) -> Iterator[Session]:
        """The sessions left, until the run's SPRT decides. The games being played then
        still end and are stored, and the partner of a pair's first game is still played
        (the test counts whole pairs); nothing else starts. (A session of several games,
        for a game whose bots live for a session, plays on to its end.)"""
        last = None
        for session in sessions:
            if self.sprt is not None and self.sprt.decided:
                index = next(iter(session)).index
                if not (index % 2 == 1 and last == index - 1):
                    return
            last = next(iter(session)).index
            yield session

    # Results: where the executor hands the games it played.

    def game_started(self, game: ScheduledGame) -> None:
        self.observers.notify(hookspecs.arena_game_start, run=self.run, game=game)

    def game_ended(self, record: GameRecord) -> None:
        """Store ``record`` in one transaction, then put the bots it disqualified out. A
        bot that failed to come up has the end of its stderr in its fault's reason
        (:func:`~arena_kernel.referee.startup.with_stderr_tails`)."""
        record = with_stderr_tails(record)
        game = record.game
        if self.disqualified.intersection(game.seating) and not record.outcome.void:
            # Played while another game put one of its bots out of the run (several games
            # at once): it must not count either.
            record = dataclasses.replace(
                record, outcome=dataclasses.replace(record.outcome, void=True)
            )
        self.store.save_game(self.run.run_id, record)
        if self.sprt is not None:
            self.sprt.add(played(record))
        self.disqualified.update(game.seating[seat] for seat in record.outcome.disqualified)
        self.summary.played += 1
        self.observers.notify(hookspecs.arena_game_end, run=self.run, game=game, record=record)

    def failed(self, label: str, message: str, details: str) -> None:
        """A game plugin (or the executor) failed on ``label``: the traceback goes to
        ``<label>.error`` in the run's log folder and the summary counts the error."""
        path = self.log_root / f"{label}.error"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(details)
        except OSError as write_error:
            raise SetupError(f"cannot write {path}: {os_error(write_error)}") from None
        self.summary.errors.append(f"{label}: {message} (see {path})")


def _sandboxed(mode: str) -> str:
    """How bots ran under sandbox ``mode``, in words."""
    return {"bwrap": "in a bubblewrap sandbox", "none": "unsandboxed"}.get(mode, f"under {mode}")


def _indexes(pending: Pending) -> list[int]:
    return [pending.index(position) for position in range(len(pending))]
