"""A database of schema version 6 (no SPRT steps) opens at the current version with each
SPRT run's test worked out a pair at a time, in the order its games were stored: the first
pair whose LLR left the bounds is the decision, as the run that stored them would have
decided had it kept it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from old_stores import schema_of, schema_version

from arena_kernel.model import GameRecord, Outcome, ScheduledGame
from arena_kernel.store import SCHEMA_VERSION, Store

SPEC = {
    "bots": [{"name": "a"}, {"name": "b"}],
    "sprt": {"elo0": 0, "elo1": 200, "alpha": 0.4, "beta": 0.4},
}
"""Bounds of +-0.405: a pair a wins both games of alone accepts H1 (LLR 0.419), one b wins
both of alone H0 (-0.735); the two together are inside the bounds (-0.315)."""


def game(index: int, winner: str) -> GameRecord:
    seating = ("a", "b") if index % 2 == 0 else ("b", "a")
    return GameRecord(ScheduledGame(index, 7, seating), Outcome.win(seating.index(winner), 2, "r"))


def version_6_database(path: Path, records: list[GameRecord]) -> Path:
    """``path`` with one SPRT run of ``records``, stored in that order as an arena of
    schema version 6 stored them: version 7 only adds the table of the SPRT's steps, and
    version 8 that of the runs' tallies, so this is today's file without them."""
    with Store(path) as store:
        run = store.open_run("v6-key", "sprt", "nim", SPEC, 20)
        for record in records:
            store.save_game(run.run_id, record)
    with sqlite3.connect(path) as raw:
        raw.execute("DROP TABLE sprt_steps")
        raw.execute("DROP TABLE result_tallies")
        raw.execute("PRAGMA user_version = 6")
    raw.close()
    return path


@pytest.mark.parametrize(
    ("order", "decided"),
    [((0, 1, 2, 3, 4), ("H1", 0.419)), ((2, 3, 0, 1, 4), ("H0", -0.735))],
    ids=["a-first", "b-first"],
)
def test_the_steps_of_a_stored_sprt_follow_the_order_its_games_were_stored(
    tmp_path: Path, order: tuple[int, ...], decided: tuple[str, float]
) -> None:
    winners = {0: "a", 1: "a", 2: "b", 3: "b", 4: "a"}  # pair 0 to a, pair 1 to b, half of 2
    path = version_6_database(tmp_path / "v6.sqlite", [game(i, winners[i]) for i in order])
    assert schema_version(path) == 6
    with Store(path) as store:
        first, second = store.sprt_steps(1)
    assert schema_version(path) == SCHEMA_VERSION
    assert (first.seq, first.decision, round(first.llr, 3)) == (1, *decided)
    assert (second.seq, second.decision, round(second.llr, 3)) == (2, None, -0.315)
    assert {first.pair, second.pair} == {0, 1} and first.pair == order[0] // 2


def test_a_migrated_file_has_the_tables_of_a_new_one(tmp_path: Path) -> None:
    migrated = version_6_database(tmp_path / "v6.sqlite", [game(0, "a")])
    Store(migrated).close()
    new = tmp_path / "new.sqlite"
    Store(new).close()
    assert schema_of(migrated) == schema_of(new)
