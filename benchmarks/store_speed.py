"""How long storing one game with many events takes, against bare SQLite.

    python benchmarks/store_speed.py [--events 10000] [--trials 9]

Each trial stores one game of ``--events`` events with :meth:`Store.save_game` (its seats,
faults and its compressed event log in one transaction) and, back to back, inserts the same
events as bare rows with ``executemany`` into a table of a row per event (what the store
did up to schema version 2) in a database set up the same way (WAL, ``synchronous =
NORMAL``), in one transaction: the floor of storing a row per event.
Rates on a shared machine drift, so trials are interleaved and the report gives the median
of each and the median of the per-trial ratios. This was a test (under 0.1 s for 10,000
events) until a loaded machine made it fail: speed is measured here, not asserted.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from pathlib import Path
from statistics import median

from arena_kernel.games.base import Outcome
from arena_kernel.model import Event, GameRecord, ScheduledGame
from arena_kernel.store import Store


def game(index: int, events: int) -> GameRecord:
    return GameRecord(
        game=ScheduledGame(index=index, seed=index, seating=("alice", "bob")),
        outcome=Outcome.win(index % 2, 2, "took the last stone"),
        events=[
            Event(0.001 * n, "recv" if n % 2 else "send", n % 2, f"take {n % 3 + 1}", 0.0004)
            for n in range(events)
        ],
    )


def time_store(store: Store, run_id: int, record: GameRecord) -> float:
    started = time.perf_counter()
    store.save_game(run_id, record)
    return time.perf_counter() - started


def time_bare(db: sqlite3.Connection, game_id: int, record: GameRecord) -> float:
    rows = [
        (game_id, seq, e.t, e.kind, e.seat, e.text, e.elapsed)
        for seq, e in enumerate(record.events)
    ]
    started = time.perf_counter()
    db.execute("BEGIN IMMEDIATE")
    db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    db.execute("COMMIT")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--trials", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bare = sqlite3.connect(Path(folder) / "bare.sqlite", isolation_level=None)
        bare.execute("PRAGMA journal_mode = WAL")
        bare.execute("PRAGMA synchronous = NORMAL")
        bare.execute(
            "CREATE TABLE events (game_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
            " t REAL NOT NULL, kind TEXT NOT NULL, seat INTEGER, text TEXT NOT NULL,"
            " elapsed REAL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID"
        )
        stores, floors = [], []
        with Store(Path(folder) / "arena.sqlite") as store:
            run = store.open_run("bench", "bench", "nim", {}, args.trials)
            for trial in range(args.trials):
                record = game(trial, args.events)
                stores.append(time_store(store, run.run_id, record))
                floors.append(time_bare(bare, trial, record))
        bare.close()
    ratios = [s / f for s, f in zip(stores, floors, strict=True)]
    print(f"{args.events} events per game, {args.trials} interleaved trials (medians):")
    print(f"  arena Store.save_game: {median(stores) * 1000:8.1f} ms")
    print(f"  bare executemany:      {median(floors) * 1000:8.1f} ms")
    print(f"  arena / bare:          {median(ratios):8.2f}")


if __name__ == "__main__":
    main()
