"""Stores as older arena versions wrote them, for the migration tests: games with every kind
of event, what their per-bot figures must be, and a file's layout."""

from __future__ import annotations

import math
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

from paths import OLD_SCHEMAS

from arena_kernel.model import Event, Fault, FaultKind, GameRecord, Outcome, ScheduledGame
from arena_kernel.store.logs import pack, seat_replies
from arena_kernel.store.outcomes import first_faults, result_text
from arena_kernel.store.sqlite import BotStats

SCHEMA_V2 = OLD_SCHEMAS / "schema_v2.sql"
BOTS = ("ann", "bo", "cy", "di")


def games(count: int, seed: int = 16) -> Iterator[GameRecord]:
    """Games of 2 or 3 seats with every kind of event: replies with and without a reply
    time, late ones, notes of no seat, events of a seat the game does not have, long and
    non-ASCII texts, times with every bit of a double."""
    rng = random.Random(seed)
    for index in range(count):
        seating = tuple(rng.sample(BOTS, rng.choice((2, 3))))
        events = []
        for _ in range(rng.randrange(0, 60)):
            kind = rng.choice(("send", "recv", "recv", "late", "fault", "note"))
            seat = rng.choice((None, len(seating), *range(len(seating))))
            elapsed = rng.random() if kind == "recv" and rng.random() < 0.8 else None
            text = rng.choice(("take 3", "é→ 🂡", "x" * rng.randrange(4000), ""))
            events.append(Event(rng.random() * 100, kind, seat, text, elapsed))
        faults = [
            Fault(rng.choice(list(FaultKind)), "why", rng.choice((None, 0, 1)), rng.random())
            for _ in range(rng.randrange(3))
        ]
        yield GameRecord(
            ScheduledGame(index, rng.getrandbits(63), seating, session=index % 3),
            Outcome.win(0, len(seating), f"game {index}"),
            faults=faults,
            events=events,
            started_at=1.7e9 + index,
            duration=rng.random(),
            stderr_logs={0: f"logs/{index}.stderr"},
            sandbox=rng.choice(("none", "bwrap", None)),
        )


def schema_version(path: Path) -> int:
    with sqlite3.connect(path) as raw:
        version: int = raw.execute("PRAGMA user_version").fetchone()[0]
    raw.close()
    return version


def version_2_database(path: Path, records: list[GameRecord]) -> Path:
    """``path`` with one run of ``records``, stored as arena's ``save_game`` stored them at
    schema version 2 (the same statements)."""
    with sqlite3.connect(path) as raw:
        raw.executescript(SCHEMA_V2.read_text())
        raw.execute(
            "INSERT INTO runs (key, name, game, spec, total_games, created)"
            " VALUES ('v2-key', 'league', 'nim', '{}', ?, 1.7e9)",
            (len(records),),
        )
        for record in records:
            game, outcome = record.game, record.outcome
            game_id = raw.execute(
                "INSERT INTO games (run_id, idx, session, seed, started_at, duration, reason,"
                " void, details, extra, sandbox) VALUES (1, ?, ?, ?, ?, ?, ?, ?, '{}', '{}', ?)",
                (
                    game.index,
                    game.session,
                    game.seed,
                    record.started_at,
                    record.duration,
                    outcome.reason,
                    outcome.void,
                    record.sandbox,
                ),
            ).lastrowid
            raw.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, seat, bot, outcome.ranks[seat], None, 0, record.stderr_logs.get(seat))
                    for seat, bot in enumerate(game.seating)
                ],
            )
            raw.executemany(
                "INSERT INTO faults VALUES (?, ?, ?, ?, ?)",
                [(game_id, f.seat, str(f.kind), f.detail, f.at) for f in record.faults],
            )
            raw.executemany(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, seq, e.t, e.kind, e.seat, e.text, e.elapsed)
                    for seq, e in enumerate(record.events)
                ],
            )
    raw.close()
    return path


def packed_results_database(
    path: Path,
    schema: Path,
    key: str,
    records: list[GameRecord],
    *,
    log: Callable[[list[Event]], bytes] = pack,
    cpu: bool = True,
) -> Path:
    """``path`` with one run of ``records`` keyed ``key``, stored as the ``save_game`` of
    an arena whose tables are ``schema`` stored them, from version 4 on (a result kept in
    each game's row, a compressed log per game): the same statements, its logs written by
    ``log``, its seats with the CPU times of their replies where ``cpu``."""
    with sqlite3.connect(path) as raw:
        raw.executescript(schema.read_text())
        raw.execute(
            "INSERT INTO runs (key, name, game, spec, total_games, created)"
            " VALUES (?, 'league', 'nim', '{}', ?, 1.7e9)",
            (key, len(records) + 1),
        )
        for record in records:
            game, outcome = record.game, record.outcome
            seats = len(game.seating)
            game_id = raw.execute(
                "INSERT INTO games (run_id, idx, session, seed, started_at, duration, reason,"
                " void, details, extra, sandbox, outcome)"
                " VALUES (1, ?, ?, ?, ?, ?, ?, ?, '{}', '{}', ?, ?)",
                (
                    game.index,
                    game.session,
                    game.seed,
                    record.started_at,
                    record.duration,
                    outcome.reason,
                    outcome.void,
                    record.sandbox,
                    result_text(
                        game.seating,
                        outcome.ranks,
                        outcome.scores,
                        outcome.disqualified,
                        first_faults(seats, ((f.seat, str(f.kind)) for f in record.faults)),
                    ),
                ),
            ).lastrowid
            replies = seat_replies(record.events, seats)
            columns = 10 if cpu else 9
            raw.executemany(
                f"INSERT INTO seats VALUES ({', '.join('?' * columns)})",
                [
                    (
                        game_id,
                        seat,
                        bot,
                        outcome.ranks[seat],
                        None,
                        0,
                        record.stderr_logs.get(seat),
                        replies[seat].times,
                        replies[seat].late,
                        *((replies[seat].cpu,) if cpu else ()),
                    )
                    for seat, bot in enumerate(game.seating)
                ],
            )
            raw.executemany(
                "INSERT INTO faults VALUES (?, ?, ?, ?, ?)",
                [(game_id, f.seat, str(f.kind), f.detail, f.at) for f in record.faults],
            )
            if record.events:
                raw.execute("INSERT INTO event_logs VALUES (?, ?)", (game_id, log(record.events)))
    raw.close()
    return path


def expected_stats(records: list[GameRecord]) -> list[BotStats]:
    """Per bot, what the per-bot figures of ``records`` are, counted here event by event."""
    first: dict[str, tuple[int, int]] = {}
    games: dict[str, int] = {}
    faults: dict[str, dict[str, int]] = {}
    times: dict[str, list[float]] = {}
    late: dict[str, int] = {}
    for record in records:
        seating = record.game.seating
        for seat, bot in enumerate(seating):
            first.setdefault(bot, (record.game.index, seat))
            games[bot] = games.get(bot, 0) + 1
        for fault in record.faults:
            if fault.seat is not None and fault.seat < len(seating):
                kinds = faults.setdefault(seating[fault.seat], {})
                kinds[fault.kind] = kinds.get(fault.kind, 0) + 1
        for e in record.events:
            if e.seat is None or e.seat >= len(seating):
                continue
            if e.kind == "recv" and e.elapsed is not None:
                times.setdefault(seating[e.seat], []).append(e.elapsed)
            if e.kind == "late":
                late[seating[e.seat]] = late.get(seating[e.seat], 0) + 1
    stats = []
    for bot in sorted(first, key=first.__getitem__):
        mine = sorted(times.get(bot, []))
        n = len(mine)
        figures = (
            (math.fsum(mine) / n, mine[math.ceil(0.95 * n) - 1], mine[-1]) if n else (None,) * 3
        )
        stats.append(
            BotStats(bot, games[bot], faults.get(bot, {}), n, *figures, late=late.get(bot, 0))
        )
    return stats


def schema_of(path: Path) -> dict[str, object]:
    """Every table's columns (name, type, not null, default, key) and every index."""
    with sqlite3.connect(path) as raw:
        tables = [
            name
            for (name,) in raw.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        layout: dict[str, object] = {
            table: raw.execute(f"PRAGMA table_info({table})").fetchall() for table in tables
        }
        layout["indexes"] = raw.execute(
            "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            " ORDER BY name"
        ).fetchall()
        layout["version"] = raw.execute("PRAGMA user_version").fetchone()
    raw.close()
    return layout
