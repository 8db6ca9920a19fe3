"""The results store: one SQLite file holding runs, games, seats, faults and event logs.

SQLite because a results file should be one thing a user can copy, open with any tool and
query with SQL, and because its transactions give resuming for free: every game is stored
in exactly one transaction, so after a crash (even ``kill -9`` in the middle of a write) a
game is either all there or not there at all, and a re-run plays exactly the missing ones.

The public game id (``arena replay GAME_ID``) is ``games.id``: unique in the whole file, so
a user never needs to say which run a game belongs to.

The tables are in :mod:`arena_kernel.store.schema`; a game's event log is one compressed
document (:mod:`arena_kernel.store.logs`), the one thing SQL alone cannot look into.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any

from arena_kernel.errors import ArenaError
from arena_kernel.model import Event, Fault, FaultKind, GameRecord, RunInfo
from arena_kernel.store.logs import pack, reply_pairs, seat_replies, unpack, unpack_times
from arena_kernel.store.outcomes import ResultReader, first_faults, result_text
from arena_kernel.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA, SCHEMA_VERSION

BUSY_TIMEOUT_MS = 30_000
"""How long a writer waits for another process holding the write lock (``arena standings``
reading while a run writes, two runs sharing one file) before giving up."""

_DAMAGED = ("SQLITE_NOTADB", "SQLITE_CORRUPT")
"""SQLite's (primary) error names for a file that is not, or no longer, a readable database."""


@dataclass(frozen=True)
class StoredGame:
    """One stored game's outcome: what scorers and the results table need, nothing more.

    ``seating`` names the bot in each seat; ``ranks``, ``scores`` and ``disqualified`` are
    per seat as in :class:`~arena_kernel.games.base.Outcome`.
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


UNKNOWN_SANDBOX = "unknown"
"""How a game whose sandbox was not recorded is counted and shown."""


def sandbox_counts(games: Iterable[StoredGame]) -> dict[str, int]:
    """How many of ``games`` ran under each sandbox mode, the modes in the order they first
    appear (what ``arena run`` and ``arena standings`` print under the standings)."""
    return dict(Counter(game.sandbox or UNKNOWN_SANDBOX for game in games))


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
    (seconds) are theirs, None without replies; ``p95`` is the nearest-rank 95th
    percentile, a time one of its replies really took. ``late`` counts replies that came
    after their request had timed out.

    On a CPU-time clock (``[clock] mode = "cpu"``) its replies' CPU times tell a slow bot
    from a starved one: ``cpu_replies`` are those of its replies whose CPU time was
    measured, and the CPU figures are over them (None without any). ``cpu_share`` is
    their CPU time over their wall time: below 1 the bot waited for a core, slept or
    blocked; above 1 it ran on several cores at once. ``idle_mean`` is their mean wall
    time less CPU time, the time each reply spent not running (negative on several cores).
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
class StartupFaults:
    """A bot's failures to come up in a run (:meth:`Store.startup_faults`): in how many
    games, and the first of them (its id, what ``arena replay`` takes) with its fault."""

    bot: str
    games: int
    game_id: int
    fault: Fault


@dataclass(frozen=True)
class RunRecord:
    """A stored run with its times, for listings: ``created`` and ``finished`` are Unix
    times; ``finished`` is None until every scheduled game was played (or the run's SPRT
    decided)."""

    info: RunInfo
    created: float
    finished: float | None


class Store:
    """An open arena database. Use as a context manager, or call :meth:`close`.

    One connection, guarded by a lock, so a runner may store games from worker threads.
    Writes use ``BEGIN IMMEDIATE``: the write lock is taken up front, so two processes
    sharing a file queue up (``busy_timeout``) instead of failing half-way.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArenaError(
                f"cannot create the folder of database {self.path}: {exc.strerror or exc}"
            ) from None
        try:
            self._db = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise ArenaError(f"cannot open database {self.path}: {exc}") from None
        try:
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if _error_name(exc).startswith(_DAMAGED):
                raise ArenaError(
                    f"{self.path} is not an arena database (not a readable SQLite file): {exc}"
                ) from None
            raise ArenaError(f"cannot open database {self.path}: {exc}") from None
        except BaseException:
            self._db.close()
            raise

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- opening -------------------------------------------------------------------------

    def _prepare(self) -> None:
        """Check the file is ours (or empty) before writing a single byte to it, then create
        the tables or bring an older schema up to date (readers too: ``arena standings`` on
        a file of an older arena migrates it; from version 2 that converts every event
        log, see :mod:`arena_kernel.store.schema`)."""
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        version = self._check_identity()
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        if version == SCHEMA_VERSION:
            return
        with self._write():
            # Another process may have initialised or migrated the file since we looked.
            version = self._check_identity()
            if version is None:
                for statement in SCHEMA:
                    db.execute(statement)
                return
            for step in range(version, SCHEMA_VERSION):
                MIGRATIONS[step](db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _check_identity(self) -> int | None:
        """The file's schema version, None for a blank file; raise unless it is an arena
        database this arena can read (maybe after migrating it)."""
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version: int = db.execute("PRAGMA user_version").fetchone()[0]
        objects = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id == 0 and objects == 0:
            return None
        if app_id != APPLICATION_ID:
            raise ArenaError(
                f"{self.path} is not an arena database (it is some other SQLite database); "
                "choose another `database` path"
            )
        if version != SCHEMA_VERSION and version not in MIGRATIONS:
            raise ArenaError(
                f"{self.path} has arena schema version {version}, but this arena reads "
                f"version {SCHEMA_VERSION}"
                + ("; upgrade arena" if version > SCHEMA_VERSION else "")
            )
        return version

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._errors():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                if self._db.in_transaction:
                    # A damaged file may refuse even this; the error that matters is the first.
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """Several reads that see the same state of the file, even while a run stores
        games (a read transaction: WAL keeps its snapshot)."""
        with self._lock, self._errors():
            self._db.execute("BEGIN")
            try:
                yield
            finally:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("COMMIT")

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._lock, self._errors():
            return self._db.execute(sql, params).fetchall()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """A failure of the file itself (damaged, disk full, read-only, locked too long) is
        one clear :class:`ArenaError` naming the file, not a traceback; errors that can only
        come from a bug in arena (a constraint, a bad statement) stay what they are."""
        try:
            yield
        except (sqlite3.IntegrityError, sqlite3.ProgrammingError):
            raise
        except sqlite3.DatabaseError as exc:
            raise ArenaError(self._describe(_error_name(exc), str(exc))) from None

    def _describe(self, name: str, message: str) -> str:
        """One line for SQLite's error ``name`` (``SQLITE_FULL``...) and its message."""
        if name.startswith(_DAMAGED):
            return (
                f"{self.path} is damaged ({message}); restore a copy, or save what is left with "
                "the sqlite3 shell's .recover and point `database` at the result"
            )
        if name.startswith("SQLITE_FULL"):
            return f"cannot write {self.path}: the disk is full"
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return (
                f"{self.path} stayed locked by another process for "
                f"{BUSY_TIMEOUT_MS // 1000} s; try again when it is done"
            )
        if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")):
            return f"cannot write {self.path} or the files beside it: {message}"
        return f"database {self.path}: {message}"

    def check_intact(self) -> None:
        """Raise :class:`ArenaError` unless the whole file reads back intact.

        A run checks before its first game (``PRAGMA quick_check``, a quarter of a second
        for a 200 MB file): a damage found only when a finished game is stored would cost
        the games played until then.
        """
        problems = [row[0] for row in self._read("PRAGMA quick_check(1)")]
        if problems != ["ok"]:
            # Its report spans lines ("*** in database main ***\nPage 9: ..."): keep one.
            found = " ".join(problems[0].split()) if problems else "no answer from quick_check"
            raise ArenaError(self._describe("SQLITE_CORRUPT", found))

    # -- runs ----------------------------------------------------------------------------

    def open_run(
        self, key: str, name: str, game: str, spec: dict[str, Any], total_games: int
    ) -> RunInfo:
        """Create the run ``key``, or return the stored one: the same key is the same
        schedule, so the caller resumes it by playing the indexes :meth:`stored_indexes` lacks.
        """
        with self._write() as db:
            db.execute(
                "INSERT INTO runs (key, name, game, spec, total_games, created)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
                (key, name, game, _to_json(spec), total_games, time.time()),
            )
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
            db.execute("UPDATE runs SET finished = ? WHERE id = ?", (time.time(), run_id))

    def runs(self) -> list[RunInfo]:
        """Every run in the file, oldest first."""
        return [self._run_info(row) for row in self._read(_RUN_QUERY + " ORDER BY r.id")]

    def run_records(self) -> list[RunRecord]:
        """Every run in the file, oldest first, with when it was created and finished
        (``arena runs``)."""
        rows = self._read(
            "SELECT r.id, r.key, r.name, r.game, r.total_games,"
            " (SELECT count(*) FROM games g WHERE g.run_id = r.id), r.created, r.finished"
            " FROM runs r ORDER BY r.id"
        )
        return [RunRecord(self._run_info(row[:6]), row[6], row[7]) for row in rows]

    def latest_run(self) -> RunInfo | None:
        """The most recently created run, or None in an empty database."""
        rows = self._read(_RUN_QUERY + " ORDER BY r.id DESC LIMIT 1")
        return self._run_info(rows[0]) if rows else None

    def run(self, run: int | str) -> RunInfo:
        """A run by id or by key.

        A string is looked up as a key first, then (if all digits) as an id, because the
        command line hands over ids as strings.
        """
        found = self.find_run(run) if isinstance(run, str) else None
        if found is None and (isinstance(run, int) or run.isdigit()):
            rows = self._read(_RUN_QUERY + " WHERE r.id = ?", (int(run),))
            found = self._run_info(rows[0]) if rows else None
        if found is None:
            raise ArenaError(f'no run "{run}" in {self.path} (`arena runs` lists them)')
        return found

    def find_run(self, key: str) -> RunInfo | None:
        """The run ``key`` if it is stored: what a run looks at before it creates anything."""
        rows = self._read(_RUN_QUERY + " WHERE r.key = ?", (key,))
        return self._run_info(rows[0]) if rows else None

    def spec(self, run_id: int) -> dict[str, Any]:
        """The match settings the run was created with, as given to :meth:`open_run`."""
        rows = self._read("SELECT spec FROM runs WHERE id = ?", (run_id,))
        if not rows:
            raise ArenaError(f"no run {run_id} in {self.path}")
        spec: dict[str, Any] = json.loads(rows[0][0])
        return spec

    def _run_info(self, row: Sequence[Any]) -> RunInfo:
        run_id, key, name, game, total, done = row
        return RunInfo(run_id, key, name, game, total, done, str(self.path))

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

    def save_game(self, run_id: int, record: GameRecord) -> int | None:
        """Store one game with its seats, faults and events in one transaction.

        Returns the new game id, or None if the run already holds this game index (a
        resumed run racing a previous one must not count a game twice).
        """
        scheduled, outcome = record.game, record.outcome
        seats = len(scheduled.seating)
        if len(outcome.ranks) != seats or (
            outcome.scores is not None and len(outcome.scores) != seats
        ):
            raise ValueError(
                f"game {scheduled.index}: {seats} seats but ranks {outcome.ranks} "
                f"and scores {outcome.scores}"
            )
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO games (run_id, idx, session, seed, started_at, duration, reason,"
                " void, details, extra, sandbox, outcome)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (run_id, idx) DO NOTHING",
                (
                    run_id,
                    scheduled.index,
                    scheduled.session,
                    scheduled.seed,
                    record.started_at,
                    record.duration,
                    outcome.reason,
                    outcome.void,
                    _to_json(outcome.details),
                    _to_json(record.extra),
                    record.sandbox,
                    result_text(
                        scheduled.seating,
                        outcome.ranks,
                        outcome.scores,
                        outcome.disqualified,
                        first_faults(seats, ((f.seat, str(f.kind)) for f in record.faults)),
                    ),
                ),
            )
            if cursor.rowcount == 0:
                return None
            game_id = cursor.lastrowid
            scores: Sequence[float | None] = outcome.scores or [None] * seats
            replies = seat_replies(record.events, seats)
            db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        seat,
                        bot,
                        outcome.ranks[seat],
                        scores[seat],
                        seat in outcome.disqualified,
                        record.stderr_logs.get(seat),
                        replies[seat].times,
                        replies[seat].late,
                        replies[seat].cpu,
                    )
                    for seat, bot in enumerate(scheduled.seating)
                ],
            )
            out = sorted({scheduled.seating[seat] for seat in outcome.disqualified})
            if out:
                # Out of the run: every game of a disqualified bot stops counting, in the
                # same transaction, so a crash can never leave half of them counted. Its
                # games are found by seats_by_bot ("+" keeps SQLite from walking every
                # game of the run by the run's index instead).
                marks = ", ".join("?" * len(out))
                db.execute(
                    "UPDATE games SET void = 1 WHERE +run_id = ? AND id IN "
                    f"(SELECT game_id FROM seats WHERE bot IN ({marks}))",
                    (run_id, *out),
                )
            db.executemany(
                "INSERT INTO faults VALUES (?, ?, ?, ?, ?)",
                [(game_id, f.seat, str(f.kind), f.detail, f.at) for f in record.faults],
            )
            if record.events:
                db.execute("INSERT INTO event_logs VALUES (?, ?)", (game_id, pack(record.events)))
        return game_id

    def results(self, run_id: int) -> list[StoredGame]:
        """The run's stored games in schedule order (void ones included: scorers skip them).

        What every standings reads, so read lean, for the hundred thousand games of a long
        run: a row per game, its result kept whole in it (:mod:`.outcomes`).
        """
        read = ResultReader()
        known = read.known
        return [
            StoredGame(
                game_id,
                idx,
                result.seating,
                result.ranks,
                result.scores,
                bool(void),
                result.disqualified,
                reason,
                first_faults=result.first_faults,
                sandbox=sandbox,
            )
            for game_id, idx, void, reason, sandbox, text in self._read(
                "SELECT id, idx, void, reason, sandbox, outcome FROM games"
                " WHERE run_id = ? ORDER BY idx",
                (run_id,),
            )
            for result in (known.get(text) or read(text),)
        ]

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

    def bot_faults(self, run_id: int) -> dict[str, dict[str, int]]:
        """Per bot with any fault in the run's stored games, its faults counted by kind
        (every fault of its seats): what ``arena run`` and ``arena standings`` print,
        without the reply times :meth:`bot_stats` also reads."""
        with self._snapshot():
            return self._bot_faults(run_id)

    def startup_faults(self, run_id: int, kinds: Iterable[str]) -> list[StartupFaults]:
        """Per bot that failed to come up in the run's stored games (a fault of its seat
        of one of ``kinds``, in a game where it answered no request in time: its seat has
        no reply times), in order of its first such game: how many games, and the first
        one's id and fault (of those kinds, the first of its seat)."""
        wanted = sorted(set(kinds))
        marks = ", ".join("?" * len(wanted))
        rows = self._read(
            "SELECT s.bot, f.game_id, f.kind, f.detail, f.seat, f.at FROM games g"
            " JOIN faults f ON f.game_id = g.id"
            " JOIN seats s ON s.game_id = f.game_id AND s.seat = f.seat"
            f" WHERE g.run_id = ? AND length(s.reply_times) = 0 AND f.kind IN ({marks})"
            " ORDER BY g.idx, f.rowid",
            (run_id, *wanted),
        )
        games: dict[str, set[int]] = {}
        first: dict[str, tuple[int, Fault]] = {}
        for bot, game_id, kind, detail, seat, at in rows:
            games.setdefault(bot, set()).add(game_id)
            if bot not in first:
                first[bot] = (game_id, Fault(FaultKind(kind), detail, seat, at))
        return [StartupFaults(bot, len(games[bot]), *first[bot]) for bot in first]

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

    def _bot_faults(self, run_id: int) -> dict[str, dict[str, int]]:
        faults: dict[str, dict[str, int]] = {}
        for bot, kind, count in self._read(
            "SELECT s.bot, f.kind, count(*) FROM games g"
            " JOIN faults f ON f.game_id = g.id"
            " JOIN seats s ON s.game_id = f.game_id AND s.seat = f.seat"
            " WHERE g.run_id = ? GROUP BY s.bot, f.kind",
            (run_id,),
        ):
            faults.setdefault(bot, {})[kind] = count
        return faults

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
        packed: dict[str, list[bytes]] = {}
        measured: dict[str, tuple[list[bytes], list[bytes]]] = {}
        for bot, seat_times, seat_cpu in self._read(
            "SELECT s.bot, s.reply_times, s.reply_cpu FROM games g"
            " JOIN seats s ON s.game_id = g.id"
            " WHERE g.run_id = ? AND length(s.reply_times) > 0",
            (run_id,),
        ):
            packed.setdefault(bot, []).append(seat_times)
            if seat_cpu:
                walls, cpus = measured.setdefault(bot, ([], []))
                walls.append(seat_times)
                cpus.append(seat_cpu)
        times = {bot: list(unpack_times(b"".join(parts))) for bot, parts in packed.items()}
        pairs = {
            bot: reply_pairs(b"".join(walls), b"".join(cpus))
            for bot, (walls, cpus) in measured.items()
        }
        return [
            BotStats(
                bot,
                count,
                dict(faults.get(bot, {})),
                *_reply_times(times.get(bot, [])),
                late=late,
                **_cpu_figures(pairs.get(bot, [])),
            )
            for bot, count, _first, late in games
        ]

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


_RUN_QUERY = (
    "SELECT r.id, r.key, r.name, r.game, r.total_games,"
    " (SELECT count(*) FROM games g WHERE g.run_id = r.id) FROM runs r"
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


def _reply_times(times: list[float]) -> tuple[int, float | None, float | None, float | None]:
    """``(replies, mean, p95, max)`` of reply times ``times`` (sorted in place); the 95th
    percentile by nearest rank, the ceil(0.95 n)-th smallest."""
    if not times:
        return 0, None, None, None
    times.sort()
    n = len(times)
    return n, math.fsum(times) / n, times[math.ceil(0.95 * n) - 1], times[-1]


def _cpu_figures(pairs: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """The CPU fields of a :class:`BotStats` from its replies' ``(wall, cpu)`` times."""
    count, mean, p95, longest = _reply_times([cpu for _wall, cpu in pairs])
    if not count:
        return {}
    wall = math.fsum(wall for wall, _cpu in pairs)
    return {
        "cpu_replies": count,
        "cpu_mean": mean,
        "cpu_p95": p95,
        "cpu_max": longest,
        # Replies measured as instant (a coarse clock) leave no time to share.
        "cpu_share": math.fsum(cpu for _wall, cpu in pairs) / wall if wall else None,
        "idle_mean": math.fsum(wall - cpu for wall, cpu in pairs) / count,
    }


def _error_name(exc: sqlite3.Error) -> str:
    """SQLite's name for the error (``SQLITE_CORRUPT``, ``SQLITE_FULL``...), or ''."""
    return getattr(exc, "sqlite_errorname", "") or ""


def _to_json(value: dict[str, Any]) -> str:
    """JSON for free-form plugin data; anything JSON cannot hold is stored as its ``str``
    rather than losing a finished game over a detail."""
    return json.dumps(value, sort_keys=True, default=str)
