"""A database of schema version 5 (no leagues) opens at the latest version and reads
exactly as it did; its tables end up as those of a new file, with the league's tables
empty; and a league can be kept in it from then on."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from old_stores import (
    expected_stats,
    games,
    packed_results_database,
    schema_of,
    schema_version,
)
from paths import OLD_SCHEMAS

from arena_kernel.model import GameRecord
from arena_kernel.scoring.league_ratings import RatingPoint
from arena_kernel.store import SCHEMA_VERSION, Store
from arena_kernel.store.league import LeagueBlock, LeagueBot

SCHEMA_V5 = OLD_SCHEMAS / "schema_v5.sql"


def version_5_database(path: Path, records: list[GameRecord]) -> Path:
    """``path`` with one run of ``records``, stored as arena's ``save_game`` stored them at
    schema version 5 (the same statements)."""
    return packed_results_database(path, SCHEMA_V5, "v5-key", records)


def test_a_version_5_database_reads_exactly_as_it_did(tmp_path: Path) -> None:
    records = list(games(30, seed=5))
    path = version_5_database(tmp_path / "v5.sqlite", records)
    assert schema_version(path) == 5
    with Store(path) as store:
        run = store.run("v5-key")
        stored = store.games(run.run_id)
        assert [g.index for g in stored] == [r.game.index for r in records]
        for game, record in zip(stored, records, strict=True):
            assert store.events(game.game_id) == record.events
            assert game.seating == record.game.seating and game.seed == record.game.seed
        assert store.bot_stats(run.run_id) == expected_stats(records)
        assert store.league_bots(run.run_id) == []
        assert store.league_blocks(run.run_id) == []
        assert store.rating_history(run.run_id) == []
    assert schema_version(path) == SCHEMA_VERSION


def test_a_migrated_file_has_the_tables_of_a_new_one(tmp_path: Path) -> None:
    migrated = version_5_database(tmp_path / "v5.sqlite", list(games(3)))
    Store(migrated).close()
    new = tmp_path / "new.sqlite"
    Store(new).close()
    assert schema_of(migrated) == schema_of(new)


def test_a_migrated_file_keeps_a_league(tmp_path: Path) -> None:
    path = version_5_database(tmp_path / "v5.sqlite", list(games(4)))
    bot = LeagueBot(1, "ann", "ann", 1, "0123456789abcdef", {"how": {}, "files": {}}, 0, None)
    block = LeagueBlock(0, 4, ("ann", "bo"), (("ann", "bo"), ("bo", "ann")))
    point = RatingPoint(0, 6, "ann", 1510.5, 80.25, 6)
    with Store(path) as store:
        store.add_league_bots(1, [bot])
        store.add_league_block(1, block, 6)
        store.add_ratings(1, [point])
        store.retire_league_bots(1, {"ann": 3})
    with Store(path) as store:
        assert store.league_bots(1) == [dataclasses.replace(bot, retired=3)]
        assert store.league_blocks(1) == [block]
        assert store.rating_history(1) == [point]
        assert store.run(1).total_games == 6
        assert sum(store.games_by_seat(1).values()) == sum(len(g.seating) for g in store.results(1))
