"""What a run writes: its row, each finished game with its seats, faults and event log, and
the mark that it is finished. Each function runs inside one write transaction
(:meth:`Database._write <arena_kernel.store.database.Database._write>`), so that a game is
either all stored or not at all."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arena_kernel.model import GameRecord
from arena_kernel.store.logs import pack, seat_replies
from arena_kernel.store.outcomes import ResultReader, first_faults, result_text, tally_text

if TYPE_CHECKING:
    from arena_kernel.scoring.sprt_run import SprtStep


def insert_run(
    db: sqlite3.Connection,
    key: str,
    name: str,
    game: str,
    spec: dict[str, Any],
    total: int,
    *,
    run_id: int | None = None,
) -> None:
    """Create the run ``key`` unless it is stored already, under a new id or ``run_id``
    (the id it had in another database)."""
    db.execute(
        "INSERT INTO runs (id, key, name, game, spec, total_games, created)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
        (run_id, key, name, game, _to_json(spec), total, time.time()),
    )


def finish_run(db: sqlite3.Connection, run_id: int) -> None:
    """Mark every scheduled game of the run as played."""
    db.execute("UPDATE runs SET finished = ? WHERE id = ?", (time.time(), run_id))


def check_seats(record: GameRecord) -> None:
    """Raise :class:`ValueError` unless the outcome has a rank (and a score, if any) per
    seat."""
    scheduled, outcome = record.game, record.outcome
    seats = len(scheduled.seating)
    if len(outcome.ranks) != seats or (outcome.scores is not None and len(outcome.scores) != seats):
        raise ValueError(
            f"game {scheduled.index}: {seats} seats but ranks {outcome.ranks} "
            f"and scores {outcome.scores}"
        )


def insert_game(
    db: sqlite3.Connection, run_id: int, record: GameRecord, game_id: int | None = None
) -> int | None:
    """Store one game with its seats, faults and events, under a new id or ``game_id``
    (the id it had in another database), and count it in its run's tally of results; its
    id, or None if the run already holds this game index."""
    scheduled, outcome = record.game, record.outcome
    seats = len(scheduled.seating)
    faults = first_faults(seats, ((f.seat, str(f.kind)) for f in record.faults))
    cursor = db.execute(
        "INSERT INTO games (id, run_id, idx, session, seed, started_at, duration, reason,"
        " void, details, extra, sandbox, outcome)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (run_id, idx) DO NOTHING",
        (
            game_id,
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
                scheduled.seating, outcome.ranks, outcome.scores, outcome.disqualified, faults
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
    _count(
        db,
        run_id,
        tally_text(scheduled.seating, outcome.ranks, outcome.disqualified, faults),
        int(outcome.void),
        record.sandbox or "",
        1,
        scheduled.index,
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
        # The run's SPRT counted games that no longer count: its pairs go with them.
        db.execute("DELETE FROM sprt_steps WHERE run_id = ?", (run_id,))
        _void_tallies(db, run_id, out)
    if record.faults:
        db.executemany(
            "INSERT INTO faults VALUES (?, ?, ?, ?, ?)",
            [(game_id, f.seat, str(f.kind), f.detail, f.at) for f in record.faults],
        )
    if record.events:
        db.execute("INSERT INTO event_logs VALUES (?, ?)", (game_id, pack(record.events)))
    return game_id


def _count(
    db: sqlite3.Connection,
    run_id: int,
    result: str,
    void: int,
    sandbox: str,
    games: int,
    first: int,
) -> None:
    """Add ``games`` games, the first of them at index ``first``, to a row of the run's
    tally (``result_tallies``)."""
    db.execute(
        "INSERT INTO result_tallies VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE"
        " SET games = games + excluded.games, first = min(first, excluded.first)",
        (run_id, result, void, sandbox, games, first),
    )


def _void_tallies(db: sqlite3.Connection, run_id: int, out: Sequence[str]) -> None:
    """Count as void the games of the run's tally that seat a bot of ``out``: a result
    names every bot of its game, so each of its rows goes whole, and nothing but the
    tally's few rows is read."""
    read = ResultReader()
    gone = set(out)
    for result, sandbox, games, first in db.execute(
        "SELECT result, sandbox, games, first FROM result_tallies WHERE run_id = ? AND NOT void",
        (run_id,),
    ).fetchall():
        if gone.isdisjoint(read(result).seating):
            continue
        db.execute(
            "DELETE FROM result_tallies WHERE run_id = ? AND result = ? AND void = 0"
            " AND sandbox = ?",
            (run_id, result, sandbox),
        )
        _count(db, run_id, result, 1, sandbox, games, first)


def insert_sprt_steps(db: sqlite3.Connection, run_id: int, steps: Sequence[SprtStep]) -> None:
    """Store steps of the run's SPRT (each once: a step already stored stays as it is)."""
    db.executemany(
        "INSERT INTO sprt_steps VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        [(run_id, s.seq, s.pair, s.total, s.llr, s.decision) for s in steps],
    )


def _to_json(value: dict[str, Any]) -> str:
    """JSON for free-form plugin data; anything JSON cannot hold is stored as its ``str``
    rather than losing a finished game over a detail."""
    return json.dumps(value, sort_keys=True, default=str)
