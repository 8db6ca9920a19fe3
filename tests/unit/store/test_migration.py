"""A database of an older arena opens, is brought up to date once, and reads as it was:
what the older arena did not record (each game's sandbox) reads as unknown."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from paths import OLD_SCHEMAS

from arena_kernel.games.base import Outcome
from arena_kernel.model import Event, GameRecord, ScheduledGame
from arena_kernel.store import SCHEMA_VERSION, Store, sandbox_counts

SCHEMA_V1 = OLD_SCHEMAS / "schema_v1.sql"


def version_1_database(path: Path) -> Path:
    """``path``, written as an arena of schema version 1 left it (schema_v1.sql)."""
    with sqlite3.connect(path) as raw:
        raw.executescript(SCHEMA_V1.read_text())
    return path


def schema_version(path: Path) -> int:
    with sqlite3.connect(path) as raw:
        version: int = raw.execute("PRAGMA user_version").fetchone()[0]
    return version


def test_a_version_1_database_reads_as_it_was_with_its_sandboxes_unknown(
    tmp_path: Path,
) -> None:
    path = version_1_database(tmp_path / "old.sqlite")
    assert schema_version(path) == 1
    with Store(path) as store:
        run = store.run("old-key")
        assert (run.run_id, run.name, run.total_games, run.done_games) == (1, "league", 3, 2)
        results = store.results(run.run_id)
        assert [(g.index, g.seating, g.ranks, g.reason) for g in results] == [
            (0, ("alice", "bob"), (1, 2), "took the last stone"),
            (1, ("bob", "alice"), (1, 2), "no reply"),
        ]
        assert [g.first_faults for g in results] == [(None, None), (None, "timeout")]
        assert [g.sandbox for g in results] == [None, None]
        detail = store.game(2)
        assert detail.sandbox is None
        assert detail.stderr_logs == {1: "logs/run-1/game-1/1-alice.stderr"}
        assert [e.text for e in store.events(1)] == ["pile 3", "take 3"]
        assert store.events(2) == [Event(0.0, "send", 0, "pile 3")]
        assert sandbox_counts(results) == {"unknown": 2}
        alice, bob = store.bot_stats(run.run_id)
        assert (alice.bot, alice.replies, alice.reply_max, alice.timeouts) == ("alice", 1, 0.1, 1)
        assert (bob.bot, bob.replies, bob.late) == ("bob", 0, 0)
    assert schema_version(path) == SCHEMA_VERSION


def test_a_migrated_run_resumes_and_records_the_sandbox_of_its_new_games(
    tmp_path: Path,
) -> None:
    path = version_1_database(tmp_path / "old.sqlite")
    with Store(path) as store:
        run = store.open_run("old-key", "league", "nim", {}, 3)
        assert run.run_id == 1 and store.stored_indexes(run.run_id) == [range(0, 2)]
        last = GameRecord(
            ScheduledGame(2, 13, ("alice", "bob")), Outcome.win(0, 2, "r"), sandbox="bwrap"
        )
        game_id = store.save_game(run.run_id, last)
    with Store(path) as store:  # opened again: already up to date
        assert game_id is not None and store.game(game_id).sandbox == "bwrap"
        results = store.results(run.run_id)
        assert sandbox_counts(results) == {"unknown": 2, "bwrap": 1}


def test_two_openers_of_an_old_database_at_once_migrate_it_once(
    tmp_path: Path,
) -> None:
    """Two connections (two arena processes) both find version 1; the one that gets the
    write lock second finds it done (a second ALTER TABLE would fail: "duplicate column
    name")."""
    path = version_1_database(tmp_path / "old.sqlite")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the openers read version 1, then queue for this
    outcomes: list[object] = []

    def open_it() -> None:
        try:
            with Store(path) as store:
                outcomes.append(len(store.results(1)))
        except Exception as exc:
            outcomes.append(exc)

    openers = [threading.Thread(target=open_it) for _ in range(2)]
    for opener in openers:
        opener.start()
    time.sleep(1)  # let both reach the lock (if one is slower, the test passes anyway)
    holder.execute("ROLLBACK")
    holder.close()
    for opener in openers:
        opener.join()
    assert outcomes == [2, 2]
    assert schema_version(path) == SCHEMA_VERSION
