"""A database of schema version 4 (no CPU times) opens as the latest version and reads exactly as it
did, its replies never measured for CPU time; its tables end up as those of a new file;
and its run goes on with games whose CPU times count."""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path

from old_stores import (
    expected_stats,
    games,
    packed_results_database,
    schema_of,
    schema_version,
)
from paths import OLD_SCHEMAS

from arena_kernel.model import Event, GameRecord, Outcome, ScheduledGame
from arena_kernel.store import SCHEMA_VERSION, Store
from arena_kernel.store.logs import pack

SCHEMA_V4 = OLD_SCHEMAS / "schema_v4.sql"


def version_4_log(events: list[Event]) -> bytes:
    """``events`` as arena stored a log at schema version 4: today's form without the
    CPU times it did not measure."""
    log = json.loads(zlib.decompress(pack(events)))
    for key in ("cpu", "cpu_step"):
        log.pop(key, None)
    return zlib.compress(json.dumps(log, ensure_ascii=False, separators=(",", ":")).encode())


def version_4_database(path: Path, records: list[GameRecord]) -> Path:
    """``path`` with one run of ``records``, stored as arena's ``save_game`` stored them at
    schema version 4 (the same statements)."""
    return packed_results_database(path, SCHEMA_V4, "v4-key", records, log=version_4_log, cpu=False)


def test_a_version_4_database_reads_exactly_as_it_did(tmp_path: Path) -> None:
    records = list(games(40, seed=4))
    path = version_4_database(tmp_path / "v4.sqlite", records)
    assert schema_version(path) == 4
    with Store(path) as store:
        run = store.run("v4-key")
        stored = store.games(run.run_id)
        assert [g.index for g in stored] == [r.game.index for r in records]
        for game, record in zip(stored, records, strict=True):
            assert store.events(game.game_id) == record.events
            assert all(event.cpu is None for event in store.events(game.game_id))
            assert game.seating == record.game.seating and game.seed == record.game.seed
            assert list(game.faults) == record.faults and game.sandbox == record.sandbox
        stats = store.bot_stats(run.run_id)
        assert stats == expected_stats(records)
        assert all(s.cpu_replies == 0 and s.cpu_mean is s.cpu_share is None for s in stats)
        assert store.stored_indexes(run.run_id) == [range(0, 40)]
    assert schema_version(path) == SCHEMA_VERSION
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT count(*) FROM seats WHERE reply_cpu != x''").fetchone() == (0,)
    raw.close()


def test_a_migrated_file_has_the_tables_of_a_new_one(tmp_path: Path) -> None:
    migrated = version_4_database(tmp_path / "v4.sqlite", list(games(3)))
    Store(migrated).close()
    new = tmp_path / "new.sqlite"
    Store(new).close()
    assert schema_of(migrated) == schema_of(new)


def test_a_migrated_run_goes_on_with_cpu_times(tmp_path: Path) -> None:
    records = list(games(5))
    path = version_4_database(tmp_path / "v4.sqlite", records)
    events = [
        Event(0.0, "send", 0, "move"),
        Event(0.5, "recv", 0, "take 1", elapsed=0.5, cpu=0.25),
        Event(0.5, "send", 1, "move"),
        Event(1.5, "recv", 1, "take 2", elapsed=1.0, cpu=1.0),
    ]
    last = GameRecord(ScheduledGame(5, 1, ("ann", "zed")), Outcome.win(0, 2, "r"), events=events)
    with Store(path) as store:
        game_id = store.save_game(1, last)
        assert game_id is not None and store.events(game_id) == events
        stats = {s.bot: s for s in store.bot_stats(1)}
    # Ann's replies of old count for its reply times, its one measured reply for CPU time.
    ann = stats["ann"]
    assert ann.replies == {s.bot: s for s in expected_stats([*records, last])}["ann"].replies
    assert ann.replies > 1 and ann.cpu_replies == 1
    assert (ann.cpu_mean, ann.cpu_max, ann.cpu_share, ann.idle_mean) == (0.25, 0.25, 0.5, 0.25)
    assert (stats["zed"].cpu_share, stats["zed"].idle_mean) == (1.0, 0.0)
