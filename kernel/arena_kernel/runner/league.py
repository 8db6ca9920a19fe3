"""Running a league (``format = "league"``): one sitting of an open-ended run.

A sitting brings the league's bots up to date with the match file
(:mod:`arena_kernel.match.league`), then plays block after block until it is told to stop:
after ``games`` games stored, at ``until``, or by Ctrl-C. Each block is planned from the
games of the blocks before it (:func:`~arena_kernel.match.matchmaking.next_block`) and
stored as planned before its first game is played; when every game of it that can still be
played is stored, the league's ratings after it are stored and the next block is planned.
A sitting that stops in the middle of a block leaves the rest of it to the next one, so
the league's games are the same however its sittings were cut, and wherever they were
played: only this process plans, from the store.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from arena_kernel import hookspecs
from arena_kernel.errors import ArenaError, SetupError
from arena_kernel.executors.crowding import crowding_note
from arena_kernel.executors.player import starts_any
from arena_kernel.match.ladder import ladder, ladder_table
from arena_kernel.match.league import Roster, playable, roster
from arena_kernel.match.matchmaking import Pairing, next_block
from arena_kernel.match.schedule import Pending, Session, Sessions
from arena_kernel.match.spec import MatchSpec
from arena_kernel.match.stages import StageSchedule
from arena_kernel.match.standings import RunStandings, run_standings
from arena_kernel.model import RunInfo
from arena_kernel.registries.manager import ArenaPluginManager
from arena_kernel.registries.registry import Registries
from arena_kernel.runner.results import RunResults
from arena_kernel.runner.run import Runner, RunSummary, spec_record
from arena_kernel.scoring.league_ratings import LeagueTally, fit_league, rating_points
from arena_kernel.store.league import LeagueBlock, LeagueBot
from arena_kernel.store.runs import sandbox_counts
from arena_kernel.store.sqlite import Store, StoredGame


@dataclass(frozen=True)
class Sitting:
    """When a league's run stops, beyond Ctrl-C: after ``games`` games stored, or at
    ``until`` (a Unix time: no game starts after it); and the bots whose changed
    version starts a new rating (``arena run --new-rating NAME``)."""

    games: int | None = None
    until: float | None = None
    new_ratings: tuple[str, ...] = ()

    def check(self, spec: MatchSpec) -> None:
        """Raise :class:`ArenaError` unless ``spec`` is a league or nothing is asked."""
        if spec.format == "league":
            return
        asked = [
            flag
            for flag, given in (
                ("--games", self.games is not None),
                ("--until", self.until is not None),
                ("--new-rating", bool(self.new_ratings)),
            )
            if given
        ]
        if asked:
            raise ArenaError(
                f'{spec.path}: {asked[0]} is for a league (format = "league"); this file '
                f'plays format = "{spec.format}", whose schedule says when it ends'
            )


class LeagueRunner(Runner):
    """Plays one sitting of a league: see the module. The executor plays the bots of the
    league that may still play, each named by its seat (``alice v2``)."""

    def __init__(
        self,
        spec: MatchSpec,
        registries: Registries,
        store: Store,
        pm: ArenaPluginManager,
        sitting: Sitting,
    ) -> None:
        self.file_spec = spec
        self.sitting = sitting
        self.pairing = Pairing.of(spec.seats[0], spec.league)
        self.game_cls = registries.games.cls(spec.game)
        self.roster = self._roster(store)
        playing = dataclasses.replace(spec, bots=tuple(self.roster.tables.values()))
        super().__init__(playing, registries, store, pm)
        self.record = spec_record(dataclasses.replace(spec, path=spec.path.absolute()))

    def _roster(self, store: Store) -> Roster:
        """The league's bots after the match file, from what the store holds now."""
        stored = store.find_run(self.file_spec.key())
        if stored is None:
            return roster(self.file_spec, self.game_cls, [], {}, 0, None, self.sitting.new_ratings)
        run_id = stored.run_id
        bots, blocks = store.league_bots(run_id), store.league_blocks(run_id)
        done = {g.index for g in store.results(run_id, blocks[-1].indexes)} if blocks else set()
        current = blocks[-1].block if blocks and _missing(blocks[-1], bots, done) else None
        games = store.games_by_seat(run_id)
        return roster(
            self.file_spec,
            self.game_cls,
            bots,
            games,
            len(blocks),
            current,
            self.sitting.new_ratings,
        )

    async def _play_pending(self) -> RunSummary:
        spec, store = self.spec, self.store
        again = self._roster(store)
        if again != self.roster:
            raise SetupError(
                f"{spec.path}: the league's bots changed in {store.path} while this run "
                "started; run it again"
            )
        stored = store.find_run(spec.key())
        run = store.open_run(spec.key(), spec.name, spec.game, self.record, 0)
        store.update_spec(run.run_id, self.record)
        if self.roster.added:
            store.add_league_bots(run.run_id, self.roster.added)
        if self.roster.retired:
            store.retire_league_bots(run.run_id, dict(self.roster.retired))
        league = _League(store, run.run_id, self.pairing, spec.seed)
        skipped = run.done_games
        budget = _Budget(self.sitting)
        results: RunResults | None = None
        stopped: str | None = None
        try:
            while True:
                block = league.current()
                if block is None:
                    if budget.spent():
                        break
                    playing = [
                        seat
                        for seat in self.roster.playing(league.next_number)
                        if seat not in league.disqualified()
                    ]
                    if len(playing) < max(self.pairing.seats, 2):
                        stopped = (
                            f"the league stopped: {len(playing)} of its bots may play, and "
                            f"a game of {self.pairing.seats} seats needs "
                            f"{max(self.pairing.seats, 2)}"
                        )
                        break
                    league.plan(playing)
                    continue
                indexes = budget.cut(league.missing(block))
                if not indexes:
                    break
                if results is None:
                    results = await self._start(stored, run, block)
                played = results.played
                pending = _pending(block, indexes, spec.seed, league.total)
                sessions = Sessions(pending, self.lifetime, spec.concurrency)
                await self.executor.play(budget.sessions(iter(sessions)), results)
                budget.played += results.played - played
                if league.missing(block) and not budget.spent():
                    # Games that could not be stored (a referee error on each): the next
                    # run plays them; this one plays no others, to keep the blocks in order.
                    break
        except SetupError as exc:
            raise SetupError(
                f"{exc} (the league stopped; run it again to go on where it stopped)"
            ) from None
        if results is None:
            results = RunResults(store, run, self.observers, None, spec.logs / f"run-{run.run_id}")
            self.observers.notify(hookspecs.arena_run_start, run=run)
        return self._summary(store.run(run.run_id), results, skipped, league, stopped)

    async def _start(self, stored: RunInfo | None, run: RunInfo, block: LeagueBlock) -> RunResults:
        """Before the first game of the sitting: prepare the executor (for a block's worth
        of sessions), hold the run to its sandbox, tell the observers."""
        spec = self.spec
        whole = _pending(block, list(block.indexes), spec.seed, block.indexes.stop)
        await self.executor.prepare(Sessions(whole, self.lifetime, spec.concurrency))
        started = starts_any(self.match, self.match.bots)
        if stored is not None and started:
            self._refuse_other_sandboxes(stored)
        if started:
            run = run.replace(
                sandbox=self.executor.sandbox,
                sandbox_note=self.executor.sandbox_note,
                clock_note=crowding_note(self.match.clocks, self.executor.crowding),
            )
        if self.sitting.games is not None:
            run = run.replace(total_games=run.done_games + self.sitting.games)
        results = RunResults(self.store, run, self.observers, None, spec.logs / f"run-{run.run_id}")
        self.observers.notify(hookspecs.arena_run_start, run=run)
        return results

    def _summary(
        self,
        run: RunInfo,
        results: RunResults,
        skipped: int,
        league: _League,
        stopped: str | None,
    ) -> RunSummary:
        stored_results = self.store.results(run.run_id)
        bots = self.store.league_bots(run.run_id)
        tables = self.standings_of(stored_results, bots)
        rungs = ladder(stored_results, bots, league.blocks, league.disqualified())
        summary = RunSummary(
            run,
            played=results.played,
            skipped=skipped,
            errors=results.errors,
            standings=tables.tables,
            faults=tables.faults,
            format=ladder_table(rungs, league.blocks, run.done_games),
            stopped=stopped,
            sandboxes=sandbox_counts(stored_results),
        )
        self.observers.notify(hookspecs.arena_run_end, run=results.run, standings=summary.standings)
        return summary

    def standings_of(self, results: list[StoredGame], bots: Sequence[LeagueBot]) -> RunStandings:
        """Every scorer's table of the league's stored games, its bots in the league's
        order (each version its own row)."""
        return run_standings(
            results,
            [bot.seat for bot in bots],
            self.spec.scorers,
            self.registries.scorers.cls,
            self.record,
        )


class _League:
    """The league's blocks and the tally of the games of its finished blocks, kept as the
    sitting plays."""

    def __init__(self, store: Store, run_id: int, pairing: Pairing, seed: int) -> None:
        self.store, self.run_id, self.pairing, self.seed = store, run_id, pairing, seed
        self.blocks = store.league_blocks(run_id)
        self.tally = LeagueTally()
        last = self.blocks[-1] if self.blocks else None
        finished_up_to = last.first_index if last is not None else 0
        self.tally.add(store.results(run_id, range(0, finished_up_to)))
        self.finished = len(self.blocks) - 2
        """The last block whose games :attr:`tally` holds (every block but the last, which
        :meth:`current` looks into)."""

    @property
    def next_number(self) -> int:
        return len(self.blocks)

    @property
    def total(self) -> int:
        """Every game planned so far."""
        return self.blocks[-1].indexes.stop if self.blocks else 0

    def disqualified(self) -> set[str]:
        return self.store.disqualified(self.run_id)

    def missing(self, block: LeagueBlock) -> list[int]:
        done = {game.index for game in self.store.results(self.run_id, block.indexes)}
        return _missing(block, self.store.league_bots(self.run_id), done)

    def current(self) -> LeagueBlock | None:
        """The block in progress: the last one, unless every game of it that can be
        played is stored, in which case its games join the tally and its ratings are
        stored (once), and there is none."""
        if not self.blocks:
            return None
        last = self.blocks[-1]
        if self.finished == last.block:
            return None
        if self.missing(last):
            return last
        self.tally.add(self.store.results(self.run_id, last.indexes))
        self.finished = last.block
        points = rating_points(last.block, self.tally, fit_league(self.tally))
        self.store.add_ratings(self.run_id, points)
        return None

    def plan(self, playing: Sequence[str]) -> LeagueBlock:
        """Plan and store the next block among the seats ``playing``."""
        number = self.next_number
        games = next_block(self.tally, playing, self.pairing, self.seed, number)
        block = LeagueBlock(number, self.total, tuple(playing), tuple(games))
        self.store.add_league_block(self.run_id, block, block.indexes.stop)
        self.blocks.append(block)
        return block


class _Budget:
    """What is left of the sitting: games (``sitting.games``) and time (``sitting.until``)."""

    def __init__(self, sitting: Sitting) -> None:
        self.sitting = sitting
        self.played = 0

    def spent(self) -> bool:
        games, until = self.sitting.games, self.sitting.until
        return (games is not None and self.played >= games) or (
            until is not None and time.time() >= until
        )

    def cut(self, indexes: list[int]) -> list[int]:
        """The first of ``indexes`` the games left allow (none once the time is up)."""
        if self.spent():
            return []
        games = self.sitting.games
        return indexes if games is None else indexes[: games - self.played]

    def sessions(self, sessions: Iterator[Session]) -> Iterator[Session]:
        """``sessions`` until the time is up: the games being played then end and are
        stored, no other starts."""
        for session in sessions:
            until = self.sitting.until
            if until is not None and time.time() >= until:
                return
            yield session


def _missing(block: LeagueBlock, bots: Sequence[LeagueBot], done: Collection[int]) -> list[int]:
    """The games of ``block`` that can still be played and are not stored (``done``)."""
    return [index for index in playable(block, bots) if index not in done]


def _pending(block: LeagueBlock, indexes: Sequence[int], seed: int, total: int) -> Pending:
    """The games of ``block`` at ``indexes`` as a schedule to play."""
    seatings = dict(zip(block.indexes, block.games, strict=True))
    schedule = StageSchedule(
        {index: seatings[index] for index in indexes}, seed, total, list(block.bots)
    )
    return Pending(schedule, schedule.others())
