"""Checkpoints of a database's write-ahead log in a thread of their own.

A run stores every game in its own transaction on the event loop's thread. In WAL mode a
commit only appends to the log; every 1000 pages or so SQLite copies the log back into the
database file, and that checkpoint waits for the disk twice (``fdatasync``), a few ms to
tens of ms on an ordinary disk. Done by the writer, it stops the event loop that referees
the games and hands sessions to the other referee processes: some 6 % of a quick run's
time. A checkpoint needs no write lock, and SQLite lets go of the GIL while it works, so a
thread with a connection of its own does it beside the writer. The writer keeps checkpoints
of its own for a log grown far past what the thread lets it reach (a thread that cannot
keep up, or has stopped on an error), so the log stays bounded whatever happens here.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from pathlib import Path

INTERVAL = 0.2
"""Seconds between two checkpoints of the thread: a quick run appends some 1000 pages (SQLite's
own mark) in about that time; a checkpoint with nothing new to copy costs no disk wait."""

WRITER_PAGES = 20_000
"""The writer's own checkpoint mark (in pages) while the thread runs."""


class Checkpointer:
    """The thread that checkpoints the log of the database at ``path`` every
    :data:`INTERVAL` seconds: :meth:`start`, then :meth:`stop`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="arena-checkpoints", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join()

    def _run(self) -> None:
        """Checkpoint until stopped; a failure ends the thread (the writer's own
        checkpoints take over)."""
        try:
            db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error:
            return
        with contextlib.closing(db):
            while not self._stopping.wait(INTERVAL):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    return
