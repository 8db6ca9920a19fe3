"""The database a reading command (``runs``, ``games``, ``export``, ``report``,
``replay``, and ``standings`` that read every game) opens: an existing file, checked whole
before anything is read.

A damaged page is found only by a read that reaches it: a command that reads around it
would print what is left as if it were all. So these commands check the whole file first,
as ``arena run`` does before its first game
(:meth:`~arena_kernel.store.database.Database.check_intact`), and a damaged file is the
same one line for each. Standings read from a run's tally check the tables they read
(:mod:`arena_kernel.cli.stored_standings`; docs/architecture.md, "Damaged files").
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from arena_kernel.errors import ArenaError

if TYPE_CHECKING:
    from arena_kernel.store.sqlite import Store


SQLITE_HEADER = b"SQLite format 3\x00"


def is_database(path: Path) -> bool:
    """Whether the file at ``path`` is an SQLite file (else, say, a file of records)."""
    try:
        with path.open("rb") as file:
            return file.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def open_database(path: Path) -> Store:
    """The database at ``path``, opened and checked intact (use it in a ``with``); raise
    :class:`ArenaError` for a path that is not a file (opening it would create an empty
    database) and for a file that is not an arena database or is damaged."""
    from arena_kernel.store.sqlite import Store

    if not path.is_file():
        raise ArenaError(f"{path}: no such database file")
    store = Store(path)
    try:
        store.check_intact()
    except BaseException:
        store.close()
        raise
    return store
