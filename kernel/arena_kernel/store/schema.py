"""The database's tables, and the steps that bring a file of an older arena up to date.

A file is brought to :data:`SCHEMA_VERSION` when it is opened (see
:meth:`Database._prepare <arena_kernel.store.database.Database._prepare>`), all steps in one
transaction, so that a crash leaves it as it was. What a newer arena adds to a game an
older one could not know is NULL or empty: a game stored before version 2 has no
``sandbox`` ("unknown").

Every command that opens a file imports this module, and few files need a step: each step
imports what it works with itself.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from itertools import groupby
from operator import itemgetter

APPLICATION_ID = 0x6172656E
"""``PRAGMA application_id`` of arena databases ("aren"): tells our files from any other
SQLite file, so arena never writes into somebody else's database."""

SCHEMA_VERSION = 8
"""``PRAGMA user_version``; bump it, and add the step from the previous version to
:data:`MIGRATIONS`, on schema changes."""

_REPLY_COLUMNS = (
    "reply_times  BLOB    NOT NULL DEFAULT x''",
    "late_replies INTEGER NOT NULL DEFAULT 0",
)
"""The seat's replies in its game, for the per-bot figures (:func:`.logs.seat_replies`)."""

_REPLY_CPU = "reply_cpu    BLOB    NOT NULL DEFAULT x''"
"""The CPU times of the seat's replies, beside their times (:class:`.logs.SeatReplies`):
added with version 5, after the other reply columns."""

_SEAT_INDEXES = (
    "CREATE INDEX seats_by_bot ON seats (bot)",
    "CREATE INDEX seats_disqualified ON seats (bot) WHERE disqualified",
)
"""What disqualifying a bot looks up (every game it sat in), and what a resumed run looks
up (the bots out of it), without reading every seat."""

_EVENT_LOGS = """CREATE TABLE event_logs (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        events  BLOB    NOT NULL
    )"""
"""A game's events, one compressed log per game (:mod:`.logs`); none for a game without
events. Apart from ``games`` so that reading results never pages through logs."""

_LEAGUE_TABLES = (
    """CREATE TABLE league_bots (
        run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        number   INTEGER NOT NULL,
        seat     TEXT    NOT NULL,
        name     TEXT    NOT NULL,
        version  INTEGER NOT NULL,
        identity TEXT    NOT NULL,
        runs     TEXT    NOT NULL,
        joined   INTEGER NOT NULL,
        retired  INTEGER,
        PRIMARY KEY (run_id, number),
        UNIQUE (run_id, seat)
    ) WITHOUT ROWID""",
    """CREATE TABLE league_blocks (
        run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        block       INTEGER NOT NULL,
        first_index INTEGER NOT NULL,
        bots        TEXT    NOT NULL,
        games       TEXT    NOT NULL,
        created     REAL    NOT NULL,
        PRIMARY KEY (run_id, block)
    ) WITHOUT ROWID""",
    """CREATE TABLE league_ratings (
        run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        block     INTEGER NOT NULL,
        bot       TEXT    NOT NULL,
        games     INTEGER NOT NULL,
        rating    REAL    NOT NULL,
        error     REAL    NOT NULL,
        bot_games INTEGER NOT NULL,
        PRIMARY KEY (run_id, block, bot)
    ) WITHOUT ROWID""",
)
"""A league's own records (:mod:`.league`): each bot as the league knows it (the seat
name its games are stored under, its ``[[bots]]`` name and version, the digest of what it
runs and, as JSON, what that is; the block it joined in, the block from which it is
retired), each block as planned (its first game's index, the bots that could play and the
seating of each of its games, as JSON), and each bot's rating after each block."""
_SPRT_STEPS = """CREATE TABLE sprt_steps (
        run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        seq      INTEGER NOT NULL,
        pair     INTEGER NOT NULL,
        total    REAL    NOT NULL,
        llr      REAL    NOT NULL,
        decision TEXT,
        PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID"""
"""A run's SPRT, one row per completed pair in the order they were completed
(:class:`~arena_kernel.scoring.sprt_run.SprtStep`), stored with the game that completes
the pair: the LLR history, and in ``decision`` the pair at which the test decided."""

_RESULT_TALLIES = """CREATE TABLE result_tallies (
        run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        result  TEXT    NOT NULL,
        void    INTEGER NOT NULL,
        sandbox TEXT    NOT NULL,
        games   INTEGER NOT NULL,
        first   INTEGER NOT NULL,
        PRIMARY KEY (run_id, result, void, sandbox)
    ) WITHOUT ROWID"""
"""Per run, its games counted by result (``games.outcome`` without the scores:
:func:`.outcomes.tally_text`), whether they are void and what their bots ran under ('' when
unknown), with the schedule index of the first of them: what standings that do not depend
on the games' order read (:meth:`Store.tally <arena_kernel.store.sqlite.Store.tally>`), a
few rows however many games. Kept by each write to ``games`` in its transaction
(:mod:`.writes`)."""

SCHEMA = (
    """CREATE TABLE runs (
        id          INTEGER PRIMARY KEY,
        key         TEXT    NOT NULL UNIQUE,
        name        TEXT    NOT NULL,
        game        TEXT    NOT NULL,
        spec        TEXT    NOT NULL,
        total_games INTEGER NOT NULL,
        created     REAL    NOT NULL,
        finished    REAL
    )""",
    """CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        idx         INTEGER NOT NULL,
        session     INTEGER NOT NULL,
        seed        INTEGER NOT NULL,
        started_at  REAL    NOT NULL,
        duration    REAL    NOT NULL,
        reason      TEXT    NOT NULL,
        void        INTEGER NOT NULL,
        details     TEXT    NOT NULL,
        extra       TEXT    NOT NULL,
        sandbox     TEXT,
        outcome     TEXT    NOT NULL DEFAULT '',
        UNIQUE (run_id, idx)
    )""",
    f"""CREATE TABLE seats (
        game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL,
        bot          TEXT    NOT NULL,
        rank         INTEGER NOT NULL,
        score        REAL,
        disqualified INTEGER NOT NULL,
        stderr_log   TEXT,
        {_REPLY_COLUMNS[0]},
        {_REPLY_COLUMNS[1]},
        {_REPLY_CPU},
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID""",
    *_SEAT_INDEXES,
    """CREATE TABLE faults (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat    INTEGER,
        kind    TEXT    NOT NULL,
        detail  TEXT    NOT NULL,
        at      REAL    NOT NULL
    )""",
    "CREATE INDEX faults_by_game ON faults (game_id)",
    _EVENT_LOGS,
    *_LEAGUE_TABLES,
    _SPRT_STEPS,
    _RESULT_TALLIES,
    f"PRAGMA application_id = {APPLICATION_ID}",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)
"""Created in one transaction, so a file is never left half-initialised. ``seats`` is
clustered on its primary key: a game's seats are read back in one range scan, in seat
order."""


def _add_sandbox(db: sqlite3.Connection) -> None:
    """Version 2 records what each game's bots ran under."""
    db.execute("ALTER TABLE games ADD COLUMN sandbox TEXT")


def _pack_event_logs(db: sqlite3.Connection) -> None:
    """Version 3 keeps a game's events as one compressed log instead of a row per event
    (2 to 12 times less room, the more the longer the games), its seats' replies beside
    their results, and finds a bot's games, and the bots out of a run, by indexes. Every
    stored log is converted, once: a minute or two per hundred thousand games, the write
    lock held meanwhile. The file does not shrink (SQLite reuses the freed pages for new
    games; ``VACUUM`` gives them back)."""
    from arena_kernel.model import Event
    from arena_kernel.store.logs import pack, seat_replies

    db.execute(_EVENT_LOGS)
    for column in _REPLY_COLUMNS:
        db.execute(f"ALTER TABLE seats ADD COLUMN {column}")
    for index in _SEAT_INDEXES:
        db.execute(index)
    rows = db.execute(
        "SELECT game_id, t, kind, seat, text, elapsed FROM events ORDER BY game_id, seq"
    )
    for game_id, game_rows in groupby(rows, key=itemgetter(0)):
        events = [Event(*row[1:]) for row in game_rows]
        db.execute("INSERT INTO event_logs VALUES (?, ?)", (game_id, pack(events)))
        (seats,) = db.execute("SELECT count(*) FROM seats WHERE game_id = ?", (game_id,)).fetchone()
        db.executemany(
            "UPDATE seats SET reply_times = ?, late_replies = ? WHERE game_id = ? AND seat = ?",
            [
                (replies.times, replies.late, game_id, seat)
                for seat, replies in enumerate(seat_replies(events, seats))
                if replies.times or replies.late
            ],
        )
    db.execute("DROP TABLE events")


def _keep_results(db: sqlite3.Connection) -> None:
    """Version 4 also keeps each game's result whole in its row (:mod:`.outcomes`), which
    is what standings read: every stored game's is written once, from its seats and
    faults."""
    from arena_kernel.store.outcomes import first_faults, result_text

    db.execute("ALTER TABLE games ADD COLUMN outcome TEXT NOT NULL DEFAULT ''")
    faults: dict[int, list[tuple[int, str]]] = {}
    for game_id, seat, kind in db.execute(
        "SELECT game_id, seat, kind FROM faults WHERE seat IS NOT NULL ORDER BY rowid"
    ):
        faults.setdefault(game_id, []).append((seat, kind))
    seats = db.execute(
        "SELECT game_id, bot, rank, score, disqualified FROM seats ORDER BY game_id, seat"
    )
    for game_id, rows in groupby(seats, key=itemgetter(0)):
        _ids, bots, ranks, scores, out = zip(*rows, strict=True)
        text = result_text(
            bots,
            ranks,
            None if all(score is None for score in scores) else scores,
            (seat for seat, flag in enumerate(out) if flag),
            first_faults(len(bots), faults.get(game_id, ())),
        )
        db.execute("UPDATE games SET outcome = ? WHERE id = ?", (text, game_id))


def _add_reply_cpu(db: sqlite3.Connection) -> None:
    """Version 5 keeps the CPU times of each seat's replies beside their wall times (for
    CPU-time clocks). No arena before it measured CPU time, so every stored game's are
    empty, the column's default: no log needs reading, and the step takes no time."""
    db.execute(f"ALTER TABLE seats ADD COLUMN {_REPLY_CPU}")


def _add_league(db: sqlite3.Connection) -> None:
    """Version 6 keeps leagues: their bots, blocks and ratings over time. No run of an
    older arena is a league, so the tables start empty."""
    for table in _LEAGUE_TABLES:
        db.execute(table)


def _keep_sprt_steps(db: sqlite3.Connection) -> None:
    """Version 7 keeps each SPRT run's test a pair at a time, as the pairs were completed.
    The pairs of runs stored before are replayed in the order their games were stored
    (``games.id``), which is the order their run counted them in, and the first pair at
    which the LLR left the bounds is their decision."""
    from dataclasses import astuple

    from arena_kernel.scoring.played import PlayedGame
    from arena_kernel.scoring.sprt_run import SprtTracker, settings_of
    from arena_kernel.store.outcomes import ResultReader

    db.execute(_SPRT_STEPS)
    read = ResultReader()
    for run_id, spec_text in db.execute("SELECT id, spec FROM runs").fetchall():
        spec = json.loads(spec_text)
        if not spec.get("sprt") or not spec.get("bots"):
            continue
        games = [
            PlayedGame(idx, result.seating, result.ranks, bool(void))
            for idx, void, text in db.execute(
                "SELECT idx, void, outcome FROM games WHERE run_id = ? ORDER BY id", (run_id,)
            )
            for result in (read(text),)
        ]
        tracker = SprtTracker.resume(
            settings_of(spec["sprt"]), str(spec["bots"][0]["name"]), (), games
        )
        db.executemany(
            "INSERT INTO sprt_steps VALUES (?, ?, ?, ?, ?, ?)",
            [(run_id, *step) for step in map(astuple, tracker.steps)],
        )


def _tally_results(db: sqlite3.Connection) -> None:
    """Version 8 keeps each run's games counted by result: every stored game is counted
    once, from its row."""
    from arena_kernel.store.outcomes import ResultReader, tally_text

    db.execute(_RESULT_TALLIES)
    read = ResultReader()
    tallies: dict[tuple[int, str, int, str], list[int]] = {}
    for run_id, text, void, sandbox, idx in db.execute(
        "SELECT run_id, outcome, void, coalesce(sandbox, ''), idx FROM games"
    ):
        result = read.known.get(text) or read(text)
        key = (run_id, tally_text(*result[:2], *result[3:]), void, sandbox)
        entry = tallies.setdefault(key, [0, idx])
        entry[0] += 1
        entry[1] = min(entry[1], idx)
    db.executemany(
        "INSERT INTO result_tallies VALUES (?, ?, ?, ?, ?, ?)",
        [(*key, games, first) for key, (games, first) in tallies.items()],
    )


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _add_sandbox,
    2: _pack_event_logs,
    3: _keep_results,
    4: _add_reply_cpu,
    5: _add_league,
    6: _keep_sprt_steps,
    7: _tally_results,
}
"""Per older schema version, the step that brings a database of that version to the next
one, in the caller's transaction."""
