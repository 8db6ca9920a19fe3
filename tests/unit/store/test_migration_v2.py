"""A database of schema version 2 (a row per event) opens as version 3 (a compressed log
per game) and reads exactly as it did: every game's events, results and per-bot figures;
its tables end up as those of a new file; a migration that fails leaves it untouched."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from old_stores import expected_stats, games, schema_of, schema_version, version_2_database

from arena_kernel.errors import ArenaError
from arena_kernel.model import Event
from arena_kernel.store import SCHEMA_VERSION, Store


def test_a_version_2_database_reads_exactly_as_it_did(tmp_path: Path) -> None:
    records = list(games(60))
    path = version_2_database(tmp_path / "v2.sqlite", records)
    with Store(path) as store:
        run = store.run("v2-key")
        stored = store.games(run.run_id)
        assert [g.index for g in stored] == [r.game.index for r in records]
        for game, record in zip(stored, records, strict=True):
            assert store.events(game.game_id) == record.events
            assert game.seating == record.game.seating and game.seed == record.game.seed
            assert list(game.faults) == record.faults and game.sandbox == record.sandbox
        assert store.bot_stats(run.run_id) == expected_stats(records)
        assert store.stored_indexes(run.run_id) == [range(0, 60)]
    assert schema_version(path) == SCHEMA_VERSION


def test_new_games_of_a_migrated_file_read_as_those_it_held(tmp_path: Path) -> None:
    records = list(games(30))
    path = version_2_database(tmp_path / "v2.sqlite", records[:20])
    with Store(path) as store:
        for record in records[20:]:
            store.save_game(1, record)
        stored = store.results(1)
        assert [store.events(g.game_id) for g in stored] == [r.events for r in records]
        assert store.bot_stats(1) == expected_stats(records)


def test_a_migrated_file_has_the_tables_of_a_new_one(tmp_path: Path) -> None:
    migrated = version_2_database(tmp_path / "v2.sqlite", list(games(3)))
    Store(migrated).close()
    new = tmp_path / "new.sqlite"
    Store(new).close()
    assert schema_of(migrated) == schema_of(new)


def test_a_failed_migration_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every step runs in one transaction: a failure half-way (here the third game's
    log) rolls all of it back, and the next opening migrates the whole file."""
    records = list(games(10))
    path = version_2_database(tmp_path / "v2.sqlite", records)
    before = schema_of(path)
    from arena_kernel.store import logs

    packed = 0
    real_pack = logs.pack

    def failing_pack(events: list[Event]) -> bytes:
        nonlocal packed
        packed += 1
        if packed == 3:
            raise sqlite3.OperationalError("disk I/O error")
        return real_pack(events)

    monkeypatch.setattr(logs, "pack", failing_pack)  # the migration imports it when it runs
    with pytest.raises(ArenaError, match="disk I/O error"):
        Store(path)
    assert schema_of(path) == before
    monkeypatch.undo()
    with Store(path) as store:
        assert [store.events(g.game_id) for g in store.results(1)] == [r.events for r in records]
