"""The arena database file itself: opening it, telling it from any other file, bringing an
older schema up to date, transactions, and turning SQLite's failures into clear errors.

What is written through it is in :mod:`arena_kernel.store.writes`, what is read in
:class:`~arena_kernel.store.sqlite.Store`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from arena_kernel.errors import ArenaError
from arena_kernel.store.checkpointer import WRITER_PAGES, Checkpointer
from arena_kernel.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA, SCHEMA_VERSION

BUSY_TIMEOUT_MS = 30_000
"""How long a writer waits for another process holding the write lock (``arena standings``
reading while a run writes, two runs sharing one file) before giving up."""

_DAMAGED = ("SQLITE_NOTADB", "SQLITE_CORRUPT")
"""SQLite's (primary) error names for a file that is not, or no longer, a readable database."""


class Database:
    """An open arena database file. Use as a context manager, or call :meth:`close`.

    One connection, guarded by a lock, so a runner may store games from worker threads.
    Writes use ``BEGIN IMMEDIATE``: the write lock is taken up front, so two processes
    sharing a file queue up (``busy_timeout``) instead of failing half-way.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArenaError(
                f"cannot create the folder of database {self.path}: {exc.strerror or exc}"
            ) from None
        try:
            self._db = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise ArenaError(f"cannot open database {self.path}: {exc}") from None
        try:
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if _error_name(exc).startswith(_DAMAGED):
                raise ArenaError(
                    f"{self.path} is not an arena database (not a readable SQLite file): {exc}"
                ) from None
            raise ArenaError(f"cannot open database {self.path}: {exc}") from None
        except BaseException:
            self._db.close()
            raise

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def checkpoints_aside(self) -> Iterator[None]:
        """While inside, the log is checkpointed by a thread of its own
        (:mod:`arena_kernel.store.checkpointer`), not by the commits: for a run, whose
        commits are on its event loop."""
        with self._lock:
            default = self._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
            self._db.execute(f"PRAGMA wal_autocheckpoint = {WRITER_PAGES}")
        checkpointer = Checkpointer(self.path)
        checkpointer.start()
        try:
            yield
        finally:
            checkpointer.stop()
            with self._lock:
                self._db.execute(f"PRAGMA wal_autocheckpoint = {default}")

    def _prepare(self) -> None:
        """Check the file is ours (or empty) before writing a single byte to it, then create
        the tables or bring an older schema up to date (readers too: ``arena standings`` on
        a file of an older arena migrates it; from version 2 that converts every event
        log, see :mod:`arena_kernel.store.schema`)."""
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        version = self._check_identity()
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        if version == SCHEMA_VERSION:
            return
        with self._write():
            # Another process may have initialised or migrated the file since we looked.
            version = self._check_identity()
            if version is None:
                for statement in SCHEMA:
                    db.execute(statement)
                return
            for step in range(version, SCHEMA_VERSION):
                MIGRATIONS[step](db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _check_identity(self) -> int | None:
        """The file's schema version, None for a blank file; raise unless it is an arena
        database this arena can read (maybe after migrating it)."""
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version: int = db.execute("PRAGMA user_version").fetchone()[0]
        objects = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id == 0 and objects == 0:
            return None
        if app_id != APPLICATION_ID:
            raise ArenaError(
                f"{self.path} is not an arena database (it is some other SQLite database); "
                "choose another `database` path"
            )
        if version != SCHEMA_VERSION and version not in MIGRATIONS:
            raise ArenaError(
                f"{self.path} has arena schema version {version}, but this arena reads "
                f"version {SCHEMA_VERSION}"
                + ("; upgrade arena" if version > SCHEMA_VERSION else "")
            )
        return version

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._errors():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                if self._db.in_transaction:
                    # A damaged file may refuse even this; the error that matters is the first.
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """Several reads that see the same state of the file, even while a run stores
        games (a read transaction: WAL keeps its snapshot)."""
        with self._lock, self._errors():
            self._db.execute("BEGIN")
            try:
                yield
            finally:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("COMMIT")

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._lock, self._errors():
            return self._db.execute(sql, params).fetchall()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """A failure of the file itself (damaged, disk full, read-only, locked too long) is
        one clear :class:`ArenaError` naming the file, not a traceback; errors that can only
        come from a bug in arena (a constraint, a bad statement) stay what they are."""
        try:
            yield
        except (sqlite3.IntegrityError, sqlite3.ProgrammingError):
            raise
        except sqlite3.DatabaseError as exc:
            raise ArenaError(self._describe(_error_name(exc), str(exc))) from None

    def _describe(self, name: str, message: str) -> str:
        """One line for SQLite's error ``name`` (``SQLITE_FULL``...) and its message."""
        if name.startswith(_DAMAGED):
            return (
                f"{self.path} is damaged ({message}); restore a copy, or save what is left with "
                "the sqlite3 shell's .recover and point `database` at the result"
            )
        if name.startswith("SQLITE_FULL"):
            return f"cannot write {self.path}: the disk is full"
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return (
                f"{self.path} stayed locked by another process for "
                f"{BUSY_TIMEOUT_MS // 1000} s; try again when it is done"
            )
        if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")):
            return f"cannot write {self.path} or the files beside it: {message}"
        return f"database {self.path}: {message}"

    def check_intact(self, tables: Sequence[str] | None = None) -> None:
        """Raise :class:`ArenaError` unless the whole file (or, given ``tables``, each of
        those tables and its indexes) reads back intact.

        A run checks the whole file before its first game (``PRAGMA quick_check``, a
        quarter of a second for a 200 MB file): a damage found only when a finished game
        is stored would cost the games played until then.
        """
        checks = [f'PRAGMA quick_check("{table}")' for table in tables or ()]
        problems = ["ok"]
        for check in checks or ["PRAGMA quick_check(1)"]:
            problems = [row[0] for row in self._read(check)]
            if problems != ["ok"]:
                break
        if problems != ["ok"]:
            # Its report spans lines ("*** in database main ***\nPage 9: ..."): keep one.
            found = " ".join(problems[0].split()) if problems else "no answer from quick_check"
            raise ArenaError(self._describe("SQLITE_CORRUPT", found))


def _error_name(exc: sqlite3.Error) -> str:
    """SQLite's name for the error (``SQLITE_CORRUPT``, ``SQLITE_FULL``...), or ''."""
    return getattr(exc, "sqlite_errorname", "") or ""
