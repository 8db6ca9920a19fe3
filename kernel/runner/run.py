"""Running a match: schedule -> sessions -> games on one event loop -> the results store."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import time
import traceback
from collections.abc import Awaitable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Literal, TypeVar

from arena_kernel import hookspecs
from arena_kernel.errors import SetupError
from arena_kernel.match.resolved import resolve
from arena_kernel.match.schedule import Pending, Schedule, Session, Sessions
from arena_kernel.match.spec import MatchSpec
from arena_kernel.model import GameRecord, Outcome, RunInfo, ScheduledGame
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.registries.manager import ArenaPluginManager
from arena_kernel.registries.observers import Observers
from arena_kernel.registries.registry import Registries
from arena_kernel.runner.fd_budget import check_open_file_limit, raise_open_file_limit
from arena_kernel.runner.seating import Lineup, close_all
from arena_kernel.scoring.base import Standings
from arena_kernel.scoring.standings import run_standings
from arena_kernel.store.lock import exclusive_run
from arena_kernel.store.sqlite import Store, StoredGame, sandbox_counts

T = TypeVar("T")


class Failed(Enum):
    """What :meth:`Runner._guarded` returns for a plugin coroutine that raised (a session
    may legitimately be ``None``, so None cannot say it)."""

    FAILED = "failed"


FAILED = Failed.FAILED


@dataclass
class RunSummary:
    """What a run did: games played now, games found already stored, referee errors.

    ``faults`` counts, per bot, the games it lost with a fault of its own, by kind (None:
    no bot lost a game to a fault). ``sandboxes`` counts the run's stored games by the
    sandbox they ran under (:func:`~arena_kernel.store.sqlite.sandbox_counts`): those of
    an earlier, resumed invocation may differ."""

    run: RunInfo
    played: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)
    standings: list[Standings] = field(default_factory=list)
    faults: Standings | None = None
    sandboxes: dict[str, int] = field(default_factory=dict)


class RefereeError(Exception):
    """A game plugin broke its contract (raised, or returned a malformed outcome)."""


def spec_record(spec: MatchSpec) -> dict[str, Any]:
    """The match spec as JSON-able data, stored with the run for reference."""
    record: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(spec), default=str))
    return record


class Runner:
    """Plays the games of one match file that are not yet in the store.

    Games are grouped into sessions (one per game, or one per worker when bots stay
    connected across games); ``spec.concurrency`` workers each run one session at a time on
    the same event loop. Each finished game is stored in one transaction as soon as it
    ends, so an interrupted run loses at most the games that were in progress.

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
        self.game = self.match.game
        self.clocks = self.match.clocks
        self.schedule = Schedule(spec)
        self.lifetime = getattr(self.game, "lifetime", type(self.game).lifetime)

    async def play(self) -> RunSummary:
        raise_open_file_limit()
        holder = f"pid {os.getpid()}, arena run {self.spec.path}"
        with exclusive_run(self.store.path, holder):
            self.store.check_intact()
            lineup = Lineup(self.match)
            try:
                return await self._play_pending(lineup)
            finally:
                await lineup.aclose()

    async def _play_pending(self, lineup: Lineup) -> RunSummary:
        """Check the set-up, create (or resume) the run, play what is not stored yet."""
        spec = self.spec
        stored = self.store.find_run(spec.key())
        done = self.store.stored_indexes(stored.run_id) if stored is not None else []
        pending = Pending(self.schedule, done)
        sessions = Sessions(pending, self.lifetime, spec.concurrency)
        workers = min(spec.concurrency, len(sessions))
        if sessions:
            check_open_file_limit(workers * sessions.most_entrants(), str(spec.path))
            await lineup.prepare()
        self.run = self.store.open_run(
            spec.key(), spec.name, spec.game, spec_record(spec), len(self.schedule)
        )
        if sessions and self._starts_any(self.match.bots):
            self.run = dataclasses.replace(
                self.run, sandbox=lineup.sandbox, sandbox_note=lineup.sandbox_note
            )
        self.summary = RunSummary(self.run, skipped=len(self.schedule) - len(pending))
        self.log_root = spec.logs / f"run-{self.run.run_id}"
        self.disqualified = self.store.disqualified(self.run.run_id)
        self.observers.notify(hookspecs.arena_run_start, run=self.run)
        # One iterator for all workers: each takes the next session when it is free.
        todo = iter(sessions)
        tasks = [asyncio.create_task(self._worker(todo, lineup)) for _ in range(workers)]
        try:
            # Not gather(): when the run is cancelled, gather cancels the workers and the
            # finally below would cancel them again, in the middle of ending their bots.
            for finished in asyncio.as_completed(tasks):
                await finished
        except SetupError as exc:
            left = len(pending) - self.summary.played
            raise SetupError(
                f"{exc} (the run stopped with {left} of its games not played; "
                "run it again to play them)"
            ) from None
        finally:
            for task in tasks:
                task.cancel()  # once each: as_completed leaves them running
            await asyncio.gather(*tasks, return_exceptions=True)
        if self.store.run(self.run.run_id).done_games == len(self.schedule):
            self.store.finish_run(self.run.run_id)
        results = self.store.results(self.run.run_id)
        self.summary.standings, self.summary.faults = self.standings(results)
        self.summary.sandboxes = sandbox_counts(results)
        self.observers.notify(
            hookspecs.arena_run_end, run=self.run, standings=self.summary.standings
        )
        return self.summary

    def standings(self, results: list[StoredGame]) -> tuple[list[Standings], Standings | None]:
        """One table per scorer, and the games each bot lost to faults, of the run's stored
        ``results``."""
        names = [b.name for b in self.spec.bots]
        return run_standings(results, names, self.spec.scorers, self.registries.scorers.cls)

    async def _worker(self, todo: Iterator[Session], lineup: Lineup) -> None:
        for session in todo:
            if self.lifetime == "game":
                (game,) = session
                await self._single_game(game, lineup)
            else:
                await self._session(session, lineup)

    def _skipped(self, game: ScheduledGame) -> bool:
        """A game of a disqualified bot is not played: it is stored void, so that a resumed
        run counts it as done and no standings count it."""
        out = [name for name in game.seating if name in self.disqualified]
        if not out:
            return False
        seats = len(game.seating)
        outcome = Outcome([1] * seats, f"not played: {', '.join(out)} disqualified", void=True)
        record = GameRecord(game=game, outcome=outcome, sandbox="none")
        self.store.save_game(self.run.run_id, record)
        self.summary.played += 1
        return True

    async def _single_game(self, game: ScheduledGame, lineup: Lineup) -> None:
        """Bots live for this one game: connect, play, end every process."""
        if self._skipped(game):
            return
        self.observers.notify(hookspecs.arena_game_start, run=self.run, game=game)
        log_dir = self.log_root / f"game-{game.index}"
        channels = await self._bring_up(lineup, game.seating, log_dir, f"game-{game.index}")
        try:
            log = EventLog()
            table = Table(channels, self.clocks, log)
            outcome = await self._guarded(f"game-{game.index}", self._whole_game(table, game))
        finally:
            await close_all(channels)
        if outcome is not FAILED:
            self._store(game, table, log, outcome, channels, log_dir)

    async def _whole_game(self, table: Table, game: ScheduledGame) -> Outcome:
        session = await self.game.open_session(table)
        outcome = await self._checked_play(table, game, session)
        await self.game.close_session(table, session)
        return outcome

    async def _checked_play(self, table: Table, game: ScheduledGame, session: object) -> Outcome:
        outcome = await self.game.play(table, game.seed, session)
        _check_outcome(outcome, len(game.seating))
        return outcome

    async def _session(self, games: Session, lineup: Lineup) -> None:
        """Bots stay connected for all ``games`` (Speed Clue, Liar's Dice)."""
        entrants = games.entrants()
        label = f"session-{games.number}"
        log_dir = self.log_root / label
        channels = await self._bring_up(lineup, entrants, log_dir, label)
        by_name = dict(zip(entrants, channels, strict=True))
        session_log = EventLog()
        try:
            opening = self.game.open_session(Table(channels, self.clocks, session_log))
            session = await self._guarded(label, opening)
            if session is FAILED:
                return
            for game in games:
                if self._skipped(game):
                    continue
                self.observers.notify(hookspecs.arena_game_start, run=self.run, game=game)
                seated = [by_name[name] for name in game.seating]
                log = EventLog()
                entrant = [entrants.index(name) for name in game.seating]
                table = Table(seated, self.clocks, log, entrant)
                outcome = await self._guarded(
                    f"game-{game.index}", self._checked_play(table, game, session)
                )
                if outcome is not FAILED:
                    self._store(game, table, log, outcome, seated, log_dir)
                # Between games (and after a bot's last one) what bots send goes to the
                # session log, not into a game that is already stored.
                for position, channel in enumerate(channels):
                    channel.attach(session_log, position)
            closing = self.game.close_session(Table(channels, self.clocks, session_log), session)
            await self._guarded(label, closing)
        finally:
            await close_all(channels)
            _write_session_log(log_dir / "session.log", session_log, entrants)

    @staticmethod
    async def _bring_up(
        lineup: Lineup, names: Sequence[str], log_dir: Path, label: str
    ) -> list[Channel]:
        """The channels of ``names``. A bot that fails to come up is its own seat's fault
        (a failed channel); an OS error escaping a transport is the arena's own (out of
        file descriptors, a log folder it cannot create): a set-up error."""
        try:
            return await lineup.connect(names, log_dir)
        except OSError as exc:
            raise SetupError(f"{label}: cannot start its bots: {exc}") from None

    async def _guarded(self, label: str, call: Awaitable[T]) -> T | Literal[Failed.FAILED]:
        """Await a game plugin's coroutine: its result, or :data:`FAILED` when it raised.

        A plugin bug costs that game (or session), never the run: the traceback goes to
        ``<label>.error`` in the run's log folder and the summary counts the error. A
        :class:`SetupError` is not the plugin's doing: it stops the run."""
        try:
            return await call
        except (asyncio.CancelledError, KeyboardInterrupt, SetupError):
            raise
        except Exception as exc:
            path = self.log_root / f"{label}.error"
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(traceback.format_exc())
            except OSError as write_error:
                raise SetupError(f"cannot write {path}: {_os_error(write_error)}") from None
            self.summary.errors.append(
                f"{label}: referee error {type(exc).__name__}: {exc} (see {path})"
            )
            return FAILED

    def _store(
        self,
        game: ScheduledGame,
        table: Table,
        log: EventLog,
        outcome: Outcome,
        channels: Sequence[Channel],
        log_dir: Path,
    ) -> None:
        if self.disqualified.intersection(game.seating):
            # Played while another game put one of its bots out of the run (several games
            # at once): it must not count either.
            outcome = dataclasses.replace(outcome, void=True)
        record = GameRecord(
            game=game,
            outcome=outcome,
            faults=list(table.faults),
            events=log.events,
            started_at=log.started,
            duration=time.monotonic() - log.t0,
            stderr_logs={
                seat: str(log_dir / f"{ch.identifier}.stderr")
                for seat, ch in enumerate(channels)
                if (log_dir / f"{ch.identifier}.stderr").exists()
            },
            sandbox=self.run.sandbox if self._starts_any(game.seating) else "none",
        )
        self.store.save_game(self.run.run_id, record)
        self.disqualified.update(game.seating[seat] for seat in outcome.disqualified)
        self.summary.played += 1
        self.observers.notify(hookspecs.arena_game_end, run=self.run, game=game, record=record)

    def _starts_any(self, names: Iterable[str]) -> bool:
        """Whether the arena starts any of the bots ``names``: only those run sandboxed,
        so a game (or a run) of in-process bots and bots that connect by themselves has
        ``"none"`` for its sandbox (:attr:`GameRecord.sandbox`), and no header line."""
        return any(self.match.bots[name].program.argv is not None for name in names)


def _check_outcome(outcome: Any, seats: int) -> None:
    if not isinstance(outcome, Outcome):
        raise RefereeError(f"play() returned {type(outcome).__name__}, not an Outcome")
    if len(outcome.ranks) != seats or any(not isinstance(r, int) or r < 1 for r in outcome.ranks):
        raise RefereeError(f"outcome ranks {outcome.ranks!r} do not fit {seats} seats")
    if outcome.scores is not None and len(outcome.scores) != seats:
        raise RefereeError(f"outcome scores {outcome.scores!r} do not fit {seats} seats")
    if any(not isinstance(s, int) or not 0 <= s < seats for s in outcome.disqualified):
        raise RefereeError(
            f"outcome disqualifies {set(outcome.disqualified)!r}, not seats of {seats}"
        )


def _write_session_log(path: Path, log: EventLog, entrants: Sequence[str]) -> None:
    """Session-level messages (greetings, farewells) belong to no game: keep them in a file
    (none for a session that had none, so that quiet sessions leave no folders behind)."""
    if not log.events:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8") as out:
            for event in log.events:
                who = "-" if event.seat is None else entrants[event.seat]
                out.write(f"{event.t:10.4f} {event.kind:5} {who}: {event.text}\n")
    except OSError as exc:
        raise SetupError(f"cannot write {path}: {_os_error(exc)}") from None


def _os_error(exc: OSError) -> str:
    """``strerror`` alone when it exists: the callers name the file themselves."""
    return exc.strerror or str(exc)
