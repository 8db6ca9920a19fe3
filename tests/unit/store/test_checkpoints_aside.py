"""A run's log is copied back into the database file by a thread of its own, not by the
commits of the writer (which the event loop makes), and the writer's own checkpoints are
back once the run is over."""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path

from arena_kernel.model import Event, GameRecord, Outcome, ScheduledGame
from arena_kernel.store import Store
from arena_kernel.store.checkpointer import WRITER_PAGES


def store_noisy_games(store: Store, games: int) -> None:
    """``games`` games whose logs do not compress: some 60 pages of the log each."""
    run = store.open_run("k", "noisy", "nim", {"bots": []}, games)
    for index in range(games):
        events = [Event(i * 0.001, "send", 0, secrets.token_hex(100)) for i in range(1200)]
        record = GameRecord(ScheduledGame(index, index, ("a", "b")), Outcome.win(0, 2, "x"))
        record.events = events
        store.save_game(run.run_id, record)


def checkpoint_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "arena-checkpoints"]


def test_the_thread_copies_the_log_into_the_file_while_the_writer_only_appends(
    tmp_path: Path,
) -> None:
    path = tmp_path / "run.sqlite"
    with Store(path) as store:
        empty = os.path.getsize(path)
        with store.checkpoints_aside():
            assert len(checkpoint_threads()) == 1
            store_noisy_games(store, 60)  # some 3600 pages: the writer's mark is far off
            deadline = time.monotonic() + 30
            while os.path.getsize(path) < empty + 8_000_000 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert os.path.getsize(path) >= empty + 8_000_000
        assert checkpoint_threads() == []
        assert store._read("PRAGMA wal_autocheckpoint") == [(1000,)]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (60,)


def test_the_writer_checkpoints_nothing_of_a_small_log_while_inside(tmp_path: Path) -> None:
    """Without the thread (stopped by hand here), the writer leaves its log in the WAL up to
    its own far mark: the copy seen above is the thread's."""
    path = tmp_path / "run.sqlite"
    with Store(path) as store:
        empty = os.path.getsize(path)
        with store.checkpoints_aside():
            (thread,) = checkpoint_threads()
            assert store._read("PRAGMA wal_autocheckpoint") == [(WRITER_PAGES,)]
        store._db.execute(f"PRAGMA wal_autocheckpoint = {WRITER_PAGES}")
        store_noisy_games(store, 60)
        assert not thread.is_alive()
        assert os.path.getsize(path) < empty + 1_000_000
