"""The results store: one SQLite file holding runs, games, seats, faults and event logs.

SQLite because a results file should be one thing a user can copy, open with any tool and
query with SQL, and because its transactions give resuming for free: every game is stored
in exactly one transaction, so after a crash (even ``kill -9`` in the middle of a write) a
game is either all there or not there at all, and a re-run plays exactly the missing ones.

The public game id (``arena replay GAME_ID``) is ``games.id``: unique in the whole file, so
a user never needs to say which run a game belongs to.

The tables are in :mod:`arena_kernel.store.schema`; a game's event log is one compressed
document (:mod:`arena_kernel.store.logs`), the one thing SQL alone cannot look into. This
module reads the file; opening it (and migrating it) is :mod:`arena_kernel.store.database`'s,
writing a run and its games :mod:`arena_kernel.store.writes`'.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import TYPE_CHECKING, Any

from arena_kernel.errors import ArenaError
from arena_kernel.model import Event, Fault, FaultKind, GameRecord, RunInfo
from arena_kernel.scoring.played import PlayedGame
from arena_kernel.scoring.reply_figures import CpuFigures, cpu_figures, time_figures
from arena_kernel.store.league import LeagueRecords
from arena_kernel.store.logs import reply_pairs, unpack, unpack_times
from arena_kernel.store.outcomes import Result, ResultReader
from arena_kernel.store.writes import (
    check_seats,
    finish_run,
    insert_game,
    insert_run,
    insert_sprt_steps,
)

if TYPE_CHECKING:
    from arena_kernel.scoring.sprt_run import SprtStep


@dataclass(frozen=True)
class StoredGame:
    """One stored game's outcome: what scorers and the results table need, nothing more.

    ``seating`` names the bot in each seat; ``ranks``, ``scores`` and ``disqualified`` are
    per seat as in :class:`~arena_kernel.model.Outcome`.
    """

    game_id: int
    index: int
    seating: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None
    void: bool
    disqualified: frozenset[int]
    reason: str
    first_faults: tuple[str | None, ...] = field(default=(), kw_only=True)
    """Per seat, the kind of that seat's first fault in the game (None: it had none), what
    the faults table of the standings counts; empty for a result not read from a store."""
    sandbox: str | None = field(default=None, kw_only=True)
    """What the game's bots ran under, as :attr:`GameRecord.sandbox
    <arena_kernel.model.GameRecord.sandbox>` says: ``"bwrap"`` or ``"none"``; None when
    unknown (a game stored by an arena that did not record it, or a result not read from
    a store)."""


_new_object = object.__new__
_set_attribute = object.__setattr__


def stored_game(
    game_id: int, index: int, result: Result, void: bool, reason: str, sandbox: str | None
) -> StoredGame:
    """``StoredGame(...)`` of one row of :meth:`Store.results` and its parsed ``result``,
    for less: a frozen dataclass's ``__init__`` sets each of its ten fields through
    ``object.__setattr__``, half of what reading a long run's results cost; this sets the
    instance's ``__dict__`` at once (a test holds the two equal, field by field)."""
    game = _new_object(StoredGame)
    _set_attribute(
        game,
        "__dict__",
        {
            "game_id": game_id,
            "index": index,
            "seating": result.seating,
            "ranks": result.ranks,
            "scores": result.scores,
            "void": void,
            "disqualified": result.disqualified,
            "reason": reason,
            "first_faults": result.first_faults,
            "sandbox": sandbox,
        },
    )
    return game


@dataclass(frozen=True)
class GameDetail(StoredGame):
    """A stored game with everything but its event log (what ``arena replay GAME_ID``
    prints above the messages).

    ``faults`` are in the order they happened; ``stderr_logs`` maps a seat to the path of
    that bot's stderr file for this game.
    """

    run_id: int
    seed: int
    session: int
    started_at: float
    duration: float
    details: dict[str, Any]
    extra: dict[str, Any]
    faults: tuple[Fault, ...]
    stderr_logs: dict[int, str]


@dataclass(frozen=True)
class BotStats:
    """What one bot did over a run's stored games, beyond its results: how reliable and
    how quick it was (the report's and ``arena export``'s per-bot figures).

    ``faults`` counts every fault of its seats by kind (a game can hold several);
    ``replies`` are the messages that answered a request in time, and the reply times
    (seconds) are theirs, None without replies (figured as
    :func:`~arena_kernel.scoring.reply_figures.time_figures` says). ``late`` counts replies
    that came after their request had timed out.

    On a CPU-time clock (``[clock] mode = "cpu"``) its replies' CPU times tell a slow bot
    from a starved one: ``cpu_replies`` are those of its replies whose CPU time was
    measured, and the CPU figures are over them (None without any); ``cpu_share`` and
    ``idle_mean`` are those of :class:`~arena_kernel.scoring.reply_figures.CpuFigures`.
    """

    bot: str
    games: int
    faults: dict[str, int]
    replies: int
    reply_mean: float | None
    reply_p95: float | None
    reply_max: float | None
    late: int
    cpu_replies: int = field(default=0, kw_only=True)
    cpu_mean: float | None = field(default=None, kw_only=True)
    cpu_p95: float | None = field(default=None, kw_only=True)
    cpu_max: float | None = field(default=None, kw_only=True)
    cpu_share: float | None = field(default=None, kw_only=True)
    idle_mean: float | None = field(default=None, kw_only=True)

    @property
    def timeouts(self) -> int:
        return self.faults.get(FaultKind.TIMEOUT.value, 0)

    @property
    def fault_count(self) -> int:
        return sum(self.faults.values())


@dataclass(frozen=True)
class RunRecord:
    """A stored run with its times, for listings: ``created`` and ``finished`` are Unix
    times; ``finished`` is None until every scheduled game was played (or the run's SPRT
    decided)."""

    info: RunInfo
    created: float
    finished: float | None


class Store(LeagueRecords):
    """An open arena database: its runs and games (with what
    :class:`~arena_kernel.store.runs.RunReads` reads of each run, and a league's own
    records, :class:`~arena_kernel.store.league.LeagueRecords`), written and read. Use as a
    context manager, or call :meth:`close`."""

    # -- runs ----------------------------------------------------------------------------

    def open_run(
        self, key: str, name: str, game: str, spec: dict[str, Any], total_games: int
    ) -> RunInfo:
        """Create the run ``key``, or return the stored one: the same key is the same
        schedule, so the caller resumes it by playing the indexes :meth:`stored_indexes` lacks.
        """
        with self._write() as db:
            insert_run(db, key, name, game, spec, total_games)
        return self.run(key)

    def disqualified(self, run_id: int) -> set[str]:
        """The bots disqualified from the run (by a stored game's outcome): the few seats
        of the ``seats_disqualified`` index, then their games (CROSS JOIN keeps SQLite from
        walking every game of the run instead)."""
        rows = self._read(
            "SELECT DISTINCT s.bot FROM seats s CROSS JOIN games g ON g.id = s.game_id "
            "WHERE s.disqualified AND g.run_id = ?",
            (run_id,),
        )
        return {row[0] for row in rows}

    def finish_run(self, run_id: int) -> None:
        """Mark every scheduled game as played (``arena runs`` shows unfinished runs)."""
        with self._write() as db:
            finish_run(db, run_id)

    def run_records(self) -> list[RunRecord]:
        """Every run in the file, oldest first, with when it was created and finished
        (``arena runs``)."""
        rows = self._read(
            "SELECT r.id, r.key, r.name, r.game, r.total_games,"
            " (SELECT count(*) FROM games g WHERE g.run_id = r.id), r.created, r.finished"
            " FROM runs r ORDER BY r.id"
        )
        return [RunRecord(self._run_info(row[:6]), row[6], row[7]) for row in rows]

    # -- games ---------------------------------------------------------------------------

    def stored_indexes(self, run_id: int) -> list[range]:
        """The schedule indexes of the run's stored games, as ascending ranges of
        consecutive indexes: what a resumed run must not play again, a few ranges however
        many games. Mostly it is one (a run stopped between games), which SQLite's count
        says without handing over a single index; else the indexes are read in order one by
        one (SQLite's window functions took three times as long)."""
        with self._snapshot():
            count, first, last = self._read(
                "SELECT count(*), min(idx), max(idx) FROM games WHERE run_id = ?", (run_id,)
            )[0]
            if count == 0 or count == last - first + 1:
                return [range(first, last + 1)] if count else []
            indexes = self._db.execute(
                "SELECT idx FROM games WHERE run_id = ? ORDER BY idx", (run_id,)
            )
            return _consecutive(idx for (idx,) in indexes)

    def save_game(
        self, run_id: int, record: GameRecord, sprt_step: SprtStep | None = None
    ) -> int | None:
        """Store one game with its seats, faults and events in one transaction, and with
        them ``sprt_step``, the step of the run's SPRT that the game completes.

        Returns the new game id, or None if the run already holds this game index (a
        resumed run racing a previous one must not count a game twice).
        """
        check_seats(record)
        with self._write() as db:
            game_id = insert_game(db, run_id, record)
            if game_id is not None and sprt_step is not None:
                insert_sprt_steps(db, run_id, [sprt_step])
            return game_id

    def restore_games(
        self,
        games: Iterable[tuple[RunInfo, int, GameRecord]],
        specs: Callable[[], dict[int, dict[str, Any]]],
    ) -> None:
        """Store games under the ids they had in another database, each ``(run, game id,
        record)``: a file of records read back. A run is made with its id when its first
        game comes; once every game is in, each run gets ``specs()[run_id]`` as its
        settings, its first game's start as its creation and as many games scheduled as
        it holds. One transaction: all or none.

        Raises :class:`ArenaError` for a game index twice in a run."""
        with self._write() as db:
            made: set[int] = set()
            for run, game_id, record in games:
                if run.run_id not in made:
                    insert_run(db, run.key, run.name, run.game, {}, 0, run_id=run.run_id)
                    made.add(run.run_id)
                check_seats(record)
                if insert_game(db, run.run_id, record, game_id) is None:
                    raise ArenaError(
                        f"game {game_id}: run {run.run_id} holds game #{record.game.index} twice"
                    )
            for run_id, spec in specs().items():
                db.execute(
                    "UPDATE runs SET spec = ?, created = (SELECT min(started_at) FROM games g"
                    " WHERE g.run_id = runs.id), total_games = (SELECT count(*) FROM games g"
                    " WHERE g.run_id = runs.id) WHERE id = ?",
                    (json.dumps(spec), run_id),
                )

    def save_sprt_steps(self, run_id: int, steps: Sequence[SprtStep]) -> None:
        """Store steps of the run's SPRT worked out from games stored without them."""
        with self._write() as db:
            insert_sprt_steps(db, run_id, steps)

    def results(self, run_id: int, indexes: range | None = None) -> list[StoredGame]:
        """The run's stored games in schedule order (void ones included: scorers skip them),
        those at ``indexes`` only when given (a league's latest block).

        What every standings reads, so read lean, for the hundred thousand games of a long
        run: a row per game, its result kept whole in it (:mod:`.outcomes`).
        """
        where, params = "run_id = ?", [run_id]
        if indexes is not None:
            where += " AND idx >= ? AND idx < ?"
            params += [indexes.start, indexes.stop]
        read = ResultReader()
        known = read.known
        return [
            stored_game(game_id, idx, known.get(text) or read(text), bool(void), reason, sandbox)
            for game_id, idx, void, reason, sandbox, text in self._read(
                f"SELECT id, idx, void, reason, sandbox, outcome FROM games WHERE {where}"
                " ORDER BY idx",
                params,
            )
        ]

    def played(self, run_id: int) -> list[PlayedGame]:
        """The run's stored games in schedule order as scorers read them and no more: what
        a display kept up while a long run plays holds of the games stored before it (a
        tenth of the time and memory of :meth:`results`; void ones included)."""
        read = ResultReader()
        known = read.known
        with self._snapshot():  # rows streamed, never all held at once
            rows = self._db.execute(
                "SELECT idx, void, outcome FROM games WHERE run_id = ? ORDER BY idx", (run_id,)
            )
            return [
                PlayedGame(idx, result.seating, result.ranks, bool(void))
                for idx, void, text in rows
                for result in (known.get(text) or read(text),)
            ]

    def fault_count(self, run_id: int) -> int:
        """How many faults the run's stored games hold, the referee's own included."""
        rows = self._read(
            "SELECT count(*) FROM faults f JOIN games g ON g.id = f.game_id WHERE g.run_id = ?",
            (run_id,),
        )
        return int(rows[0][0])

    def game(self, game_id: int) -> GameDetail:
        """One game by its public id, with its seats and faults."""
        found = self._game_details(_GameFilter("g.id = ?", (game_id,)))
        if not found:
            raise ArenaError(f"no game {game_id} in {self.path}")
        return found[0]

    def games(
        self,
        run_id: int | None = None,
        *,
        bot: str | None = None,
        faulted: bool = False,
        limit: int | None = None,
    ) -> list[GameDetail]:
        """Stored games by run and schedule index (``run_id``: that run's only), each with
        its seats and faults: those where ``bot`` sat, with ``faulted`` only those with a
        fault, at most ``limit`` (the first ones). Three queries whatever the number of games: a
        listing or an export of ten thousand games reads them at once."""
        where: list[str] = []
        params: list[Any] = []
        if run_id is not None:
            where.append("g.run_id = ?")
            params.append(run_id)
        if bot is not None:
            where.append("EXISTS (SELECT 1 FROM seats b WHERE b.game_id = g.id AND b.bot = ?)")
            params.append(bot)
        if faulted:
            where.append("EXISTS (SELECT 1 FROM faults x WHERE x.game_id = g.id)")
        condition = " AND ".join(where) or "1"
        if limit is not None:
            condition = (
                f"g.id IN (SELECT g.id FROM games g WHERE {condition}"
                " ORDER BY g.run_id, g.idx LIMIT ?)"
            )
            params.append(limit)
        return self._game_details(_GameFilter(condition, tuple(params)))

    def iter_games(
        self, run_ids: Sequence[int], *, up_to: int, batch: int = 500
    ) -> Iterator[tuple[GameDetail, list[Event]]]:
        """The games of runs ``run_ids`` whose id is at most ``up_to``, in the order of
        their ids, each with its event log, ``batch`` games read at a time: a report of a
        hundred thousand games holds a batch in memory, not the hundred thousand."""
        runs = ", ".join("?" * len(run_ids))
        after = 0
        while True:
            ids = [
                game_id
                for (game_id,) in self._read(
                    f"SELECT id FROM games WHERE run_id IN ({runs}) AND id > ? AND id <= ?"
                    " ORDER BY id LIMIT ?",
                    (*run_ids, after, up_to, batch),
                )
            ]
            if not ids:
                return
            marks = ", ".join("?" * len(ids))
            details = self._game_details(_GameFilter(f"g.id IN ({marks})", tuple(ids)))
            logs = dict(
                self._read(
                    f"SELECT game_id, events FROM event_logs WHERE game_id IN ({marks})", ids
                )
            )
            for detail in sorted(details, key=lambda d: d.game_id):
                packed = logs.get(detail.game_id)
                yield detail, unpack(packed) if packed is not None else []
            after = ids[-1]

    def last_game_id(self, run_ids: Sequence[int]) -> int:
        """The highest game id of runs ``run_ids`` (0 when they have none): what a reader
        that must not see games stored after it began reads up to."""
        runs = ", ".join("?" * len(run_ids))
        rows = self._read(f"SELECT max(id) FROM games WHERE run_id IN ({runs})", tuple(run_ids))
        return int(rows[0][0] or 0)

    def _game_details(self, which: _GameFilter) -> list[GameDetail]:
        """The games ``which`` selects (a condition on ``games g``) by run and index."""
        with self._snapshot():
            heads = self._read(
                "SELECT g.id, g.run_id, g.idx, g.session, g.seed, g.started_at, g.duration,"
                " g.reason, g.void, g.details, g.extra, g.sandbox FROM games g"
                f" WHERE {which.condition} ORDER BY g.run_id, g.idx",
                which.params,
            )
            seats = self._read(
                "SELECT s.game_id, s.bot, s.rank, s.score, s.disqualified, s.stderr_log"
                f" FROM seats s JOIN games g ON g.id = s.game_id WHERE {which.condition}"
                " ORDER BY s.game_id, s.seat",
                which.params,
            )
            faults = self._read(
                "SELECT f.game_id, f.kind, f.detail, f.seat, f.at"
                f" FROM faults f JOIN games g ON g.id = f.game_id WHERE {which.condition}"
                " ORDER BY f.game_id, f.rowid",
                which.params,
            )
        seats_of = {k: [r[1:] for r in rows] for k, rows in groupby(seats, key=lambda r: r[0])}
        faults_of = {k: [r[1:] for r in rows] for k, rows in groupby(faults, key=lambda r: r[0])}
        return [
            _game_detail(head, seats_of.get(head[0], []), faults_of.get(head[0], []))
            for head in heads
        ]

    def seated_bots(self, run_id: int) -> list[str]:
        """The bots seated in the run's stored games, by name."""
        rows = self._read(
            "SELECT DISTINCT s.bot FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE g.run_id = ? ORDER BY s.bot",
            (run_id,),
        )
        return [bot for (bot,) in rows]

    def bot_stats(self, run_id: int) -> list[BotStats]:
        """Per bot seated in the run's stored games, in order of first appearance (game
        index, then seat): its games, faults, reply times with their CPU times, and late
        replies.

        Read from the seats (each holds its replies in the game, see
        :func:`~arena_kernel.store.logs.seat_replies`) and the faults, never from the event
        logs: SQLite counts all but the reply times, which come back packed, one value per
        seat.
        """
        with self._snapshot():
            return self._bot_stats(run_id)

    def sandboxes_besides(
        self, run_id: int, sandbox: str, started: Iterable[str]
    ) -> dict[str, int]:
        """How many of the run's stored games ran the bots the arena started under another
        sandbox than ``sandbox``, by sandbox. ``started`` names the bots the arena starts:
        a game with none of them ran under ``"none"`` whatever the run's sandbox, so it is
        not counted, nor are void games (no standings count them) and games whose sandbox
        was not recorded."""
        names = sorted(set(started))
        marks = ", ".join("?" * len(names))
        rows = self._read(
            "SELECT g.sandbox, count(*) FROM games g"
            " WHERE g.run_id = ? AND NOT g.void AND g.sandbox IS NOT NULL AND g.sandbox != ?"
            f" AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.bot IN ({marks}))"
            " GROUP BY g.sandbox ORDER BY min(g.idx)",
            (run_id, sandbox, *names),
        )
        return {mode: count for mode, count in rows}

    def _bot_stats(self, run_id: int) -> list[BotStats]:
        games = self._read(
            "SELECT s.bot, count(DISTINCT s.game_id), min(g.idx * 1000000 + s.seat),"
            " sum(s.late_replies)"
            " FROM games g JOIN seats s ON s.game_id = g.id WHERE g.run_id = ?"
            " GROUP BY s.bot ORDER BY 3",
            (run_id,),
        )
        faults = self._bot_faults(run_id)
        # Nearest rank needs each bot's times in order: sorted in Python, once unpacked
        # together.
        # The packed times gathered as they are read, a bot's times unpacked one bot at
        # a time: a long run's replies, every one a float of its own, would take more
        # memory than everything else a report holds.
        packed: dict[str, bytearray] = {}
        measured: dict[str, tuple[bytearray, bytearray]] = {}
        for bot, seat_times, seat_cpu in self._db.execute(
            "SELECT s.bot, s.reply_times, s.reply_cpu FROM games g"
            " JOIN seats s ON s.game_id = g.id"
            " WHERE g.run_id = ? AND length(s.reply_times) > 0",
            (run_id,),
        ):
            packed.setdefault(bot, bytearray()).extend(seat_times)
            if seat_cpu:
                walls, cpus = measured.setdefault(bot, (bytearray(), bytearray()))
                walls.extend(seat_times)
                cpus.extend(seat_cpu)
        found = []
        for bot, count, _first, late in games:
            times = time_figures(list(unpack_times(bytes(packed.pop(bot, b"")))))
            walls, cpus = measured.pop(bot, (bytearray(), bytearray()))
            cpu = cpu_figures(reply_pairs(bytes(walls), bytes(cpus)))
            found.append(
                BotStats(
                    bot,
                    count,
                    dict(faults.get(bot, {})),
                    *times,
                    late=late,
                    **_cpu_fields(cpu),
                )
            )
        return found

    def events(self, game_id: int) -> list[Event]:
        """A game's event log (its replay), in the order it happened."""
        rows = self._read("SELECT events FROM event_logs WHERE game_id = ?", (game_id,))
        if not rows and not self._read("SELECT 1 FROM games WHERE id = ?", (game_id,)):
            raise ArenaError(f"no game {game_id} in {self.path}")
        return unpack(rows[0][0]) if rows else []


@dataclass(frozen=True)
class _GameFilter:
    """A condition on ``games g`` and its parameters: which games a read selects."""

    condition: str
    params: tuple[Any, ...] = ()


def _game_detail(
    head: Sequence[Any], seats: Sequence[Sequence[Any]], faults: Sequence[Sequence[Any]]
) -> GameDetail:
    """A :class:`GameDetail` from its ``games`` row, its ``(bot, rank, score,
    disqualified, stderr_log)`` seat rows in seat order and its ``(kind, detail, seat,
    at)`` fault rows in the order they happened."""
    (game_id, run_id, idx, session, seed, started, took, reason, void, details, extra, sandbox) = (
        head
    )
    first_faults: dict[int | None, str] = {}
    for kind, _detail, seat, _at in faults:
        first_faults.setdefault(seat, kind)
    return GameDetail(
        game_id,
        idx,
        **_seat_fields([(*s[:4], first_faults.get(seat)) for seat, s in enumerate(seats)]),
        void=bool(void),
        reason=reason,
        sandbox=sandbox,
        run_id=run_id,
        seed=seed,
        session=session,
        started_at=started,
        duration=took,
        details=json.loads(details),
        extra=json.loads(extra),
        faults=tuple(Fault(FaultKind(k), detail, seat, at) for k, detail, seat, at in faults),
        stderr_logs={seat: s[4] for seat, s in enumerate(seats) if s[4] is not None},
    )


def _seat_fields(seats: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """The per-seat fields of a :class:`StoredGame` from its ``(bot, rank, score,
    disqualified, first fault kind)`` rows in seat order; a game without scores has NULL in
    every seat."""
    scores = tuple(s[2] for s in seats)
    return {
        "seating": tuple(s[0] for s in seats),
        "ranks": tuple(s[1] for s in seats),
        "scores": None if all(x is None for x in scores) else scores,
        "disqualified": frozenset(seat for seat, s in enumerate(seats) if s[3]),
        "first_faults": tuple(s[4] for s in seats),
    }


def _consecutive(indexes: Iterable[int]) -> list[range]:
    """Ascending ``indexes`` as ranges of consecutive ones."""
    ranges: list[range] = []
    for index in indexes:
        if ranges and ranges[-1].stop == index:
            ranges[-1] = range(ranges[-1].start, index + 1)
        else:
            ranges.append(range(index, index + 1))
    return ranges


def _cpu_fields(figures: CpuFigures | None) -> dict[str, Any]:
    """The CPU fields of a :class:`BotStats` (none without measured replies)."""
    if figures is None:
        return {}
    return {
        "cpu_replies": figures.cpu.replies,
        "cpu_mean": figures.cpu.mean,
        "cpu_p95": figures.cpu.p95,
        "cpu_max": figures.cpu.longest,
        "cpu_share": figures.share,
        "idle_mean": figures.idle_mean,
    }
