"""Running a match: schedule -> sessions -> an executor plays them -> each game stored."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena_kernel import hookspecs
from arena_kernel.errors import SetupError
from arena_kernel.executors.base import Executor
from arena_kernel.executors.crowding import crowding_note
from arena_kernel.executors.fd_budget import raise_open_file_limit
from arena_kernel.executors.player import starts_any
from arena_kernel.match.resolved import resolve
from arena_kernel.match.schedule import Pending, Schedule, Session, Sessions
from arena_kernel.match.spec import MatchSpec
from arena_kernel.match.stages import Stages, StageSchedule
from arena_kernel.match.standings import RunStandings, run_standings
from arena_kernel.model import RunInfo, Standings
from arena_kernel.registries.manager import ArenaPluginManager, named_plugins
from arena_kernel.registries.observers import Observers
from arena_kernel.registries.registry import Registries
from arena_kernel.runner.first_starts import FirstStarts
from arena_kernel.runner.results import RunResults
from arena_kernel.scoring.sprt_run import SprtStep, SprtTracker, settings_of
from arena_kernel.store.lock import exclusive_run
from arena_kernel.store.runs import sandbox_counts
from arena_kernel.store.sqlite import Store, StoredGame


@dataclass
class RunSummary:
    """What a run did: games played now, games found already stored, referee errors.

    ``faults`` counts, per bot, the games it lost with a fault of its own, by kind (None:
    no bot lost a game to a fault). ``sandboxes`` counts the run's stored games by the
    sandbox they ran under (:func:`~arena_kernel.store.runs.sandbox_counts`): a run
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
    local one <arena_kernel.executors.local>`: ``concurrency`` at a time on this event loop)
    and hands, game by game, to the run's :class:`~arena_kernel.runner.results.RunResults`,
    which stores each one.

    A failure of the set-up rather than of a bot (:class:`~arena_kernel.errors.SetupError`: a
    command that does not exist, a port in use, no file descriptor left, an unwritable log
    folder) is a run error, never a game result: what can be checked is checked before the
    first game, and one met during a game stops the run, the games in progress unstored, so
    that the next run plays them. One run at a time plays into a database
    (:mod:`arena_kernel.store.lock`).
    """

    def __init__(
        self,
        spec: MatchSpec,
        registries: Registries,
        store: Store,
        pm: ArenaPluginManager,
    ) -> None:
        self.spec = spec
        self.record = spec_record(spec)
        """The spec as the store keeps it with the run: what a staged format and the
        standings read, as they do for a run read back from the store."""
        self.registries = registries
        self.store = store
        self.observers = Observers(pm)
        self.match = resolve(spec, registries)
        self.schedule = Schedule(spec)
        self.stages = Stages.of(self.record)
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
        stored = self.store.find_run(spec.key())
        stored_id = stored.run_id if stored is not None else None
        sprt = self._sprt(stored_id)
        if self.stages is None:
            total = len(self.schedule)
            done = self.store.stored_indexes(stored_id) if stored_id is not None else []
            pending = Pending(self.schedule, done)
            skipped = total - len(pending)
        else:
            total = self.stages.most_games
            stored_results = self.store.results(stored_id) if stored_id is not None else []
            pending = self._stage(stored_results)
            skipped = len(stored_results)
        sessions = Sessions(pending, self.lifetime, spec.concurrency)
        playing = bool(sessions) and not (sprt is not None and sprt.decided)
        if playing:
            await self.executor.prepare(sessions)
            if stored is not None and starts_any(self.match, self.match.bots):
                self._refuse_other_sandboxes(stored)
        run = self.store.open_run(spec.key(), spec.name, spec.game, self.record, total)
        if playing:
            run = run.replace(executor_note=self.executor.note)
        if playing and starts_any(self.match, self.match.bots):
            run = run.replace(
                sandbox=self.executor.sandbox,
                sandbox_note=self.executor.sandbox_note,
                clock_note=crowding_note(self.match.clocks, self.executor.crowding),
            )
        first_starts = FirstStarts(str(spec.path)) if spec.startup_failures == "stop" else None
        log_root = spec.logs / f"run-{run.run_id}"
        results = RunResults(self.store, run, self.observers, sprt, log_root, first_starts)
        self.observers.notify(hookspecs.arena_run_start, run=run)
        try:
            if playing:
                await self.executor.play(_until_decided(iter(sessions), sprt), results)
                results.settle()
                await self._later_stages(pending, results)
                await self._undecided_again(sprt, results)
        except SetupError as exc:
            left = (
                f"{len(pending) - results.played} of its games not played"
                if self.stages is None
                else "the rest of its games not played"
            )
            raise SetupError(
                f"{exc} (the run stopped with {left}; run it again to play them)"
            ) from None
        decided = sprt is not None and sprt.decided
        done_games = self.store.run(run.run_id).done_games
        if self._over(done_games, run.run_id) or decided:
            self.store.finish_run(run.run_id)
        stopped = None
        if decided and done_games < len(self.schedule):
            assert sprt is not None
            after = len(sprt.after())
            stopped = (
                f"the SPRT accepted {sprt.result.decision} after "
                f"{sprt.result.pairs} pairs of games: the run stopped with "
                f"{len(self.schedule) - done_games} of its games not played"
                + (f" ({after} pairs completed after the decision, shown apart)" if after else "")
            )
        stored_results = self.store.results(run.run_id)
        standings = self.standings(stored_results, self.store.sprt_steps(run.run_id))
        summary = RunSummary(
            run,
            played=results.played,
            skipped=skipped,
            errors=results.errors,
            standings=standings.tables,
            faults=standings.faults,
            sprt=standings.sprt,
            format=standings.format,
            stopped=stopped,
            sandboxes=sandbox_counts(stored_results),
        )
        self.observers.notify(hookspecs.arena_run_end, run=run, standings=summary.standings)
        return summary

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

    def standings(
        self, results: list[StoredGame], sprt_steps: Sequence[SprtStep] = ()
    ) -> RunStandings:
        """One table per scorer, the games each bot lost to faults and the SPRT, of the
        run's stored ``results`` and ``sprt_steps``."""
        names = [b.name for b in self.spec.bots]
        return run_standings(
            results,
            names,
            self.spec.scorers,
            self.registries.scorers.cls,
            self.record,
            sprt_steps,
        )

    def _stage(self, results: Sequence[StoredGame]) -> Pending:
        """The games of the run's next stage (``self.stages``), from the stored ones."""
        assert self.stages is not None
        games = self.stages.to_play(results)
        names = [bot.name for bot in self.spec.bots]
        schedule = StageSchedule(games, self.spec.seed, self.stages.most_games, names)
        return Pending(schedule, schedule.others())

    async def _later_stages(self, first: Pending, results: RunResults) -> None:
        """Play the stages after the first, each worked out from the games stored when
        the one before has ended, until none is left. A stage whose games could not be
        stored (a referee error on each) is not tried again in this run."""
        previous = _indexes(first)
        while self.stages is not None:
            pending = self._stage(self.store.results(results.run.run_id))
            indexes = _indexes(pending)
            if not indexes or indexes == previous:
                return
            previous = indexes
            sessions = Sessions(pending, self.lifetime, self.spec.concurrency)
            await self.executor.play(iter(sessions), results)
            results.settle()

    async def _undecided_again(self, sprt: SprtTracker | None, results: RunResults) -> None:
        """Play the games left when the run's SPRT decided and then was undone (a bot put
        out of the run, with every game the test had counted) while games were still in
        play: with no decision, the schedule goes on."""
        if sprt is None or sprt.decided or self.stages is not None:
            return
        done = self.store.stored_indexes(results.run.run_id)
        left = Sessions(Pending(self.schedule, done), self.lifetime, self.spec.concurrency)
        if left:
            await self.executor.play(_until_decided(iter(left), sprt), results)

    def _over(self, done_games: int, run_id: int) -> bool:
        """Whether every game of the run is stored (for a staged format: no stage left)."""
        if self.stages is None:
            return done_games == len(self.schedule)
        return not self.stages.to_play(self.store.results(run_id))

    def _sprt(self, run_id: int | None) -> SprtTracker | None:
        """The run's SPRT (None without ``[sprt]``), with the steps and games already
        stored; the steps of stored games that had none are stored now."""
        if not self.spec.sprt:
            return None
        settings, first = settings_of(self.spec.sprt), self.spec.bots[0].name
        if run_id is None:
            return SprtTracker(settings, first)
        steps = self.store.sprt_steps(run_id)
        games = sorted(self.store.results(run_id), key=lambda game: game.game_id)
        tracker = SprtTracker.resume(settings, first, steps, games)
        if len(tracker.steps) > len(steps):
            self.store.save_sprt_steps(run_id, tracker.steps[len(steps) :])
        return tracker


def _until_decided(sessions: Iterator[Session], sprt: SprtTracker | None) -> Iterator[Session]:
    """The sessions left, until the run's ``sprt`` decides. The games being played then
    still end and are stored, and the partner of a pair's first game is still played (the
    stored games stay whole pairs, each bot in each seat); nothing else starts. The pairs
    they complete are kept apart from the decision. (A session of several games, for a
    game whose bots live for a session, plays on to its end.)"""
    if sprt is None:
        yield from sessions
        return
    last = None
    for session in sessions:
        if sprt is not None and sprt.decided:
            index = next(iter(session)).index
            if not (index % 2 == 1 and last == index - 1):
                return
        last = next(iter(session)).index
        yield session


def _sandboxed(mode: str) -> str:
    """How bots ran under sandbox ``mode``, in words."""
    return {"bwrap": "in a bubblewrap sandbox", "none": "unsandboxed"}.get(mode, f"under {mode}")


def _indexes(pending: Pending) -> list[int]:
    return [pending.index(position) for position in range(len(pending))]
