"""Damaging an arena database as a disk or a careless copy would, for the tests of what
arena says of it."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def zero_the_tables(db: Path) -> None:
    """Zero the root page of every table and index: the header and the schema (page 1 and
    wherever it overflows to) still read, so the file opens as an arena database, but its
    tables cannot be read."""
    with sqlite3.connect(db) as conn:
        conn.execute("pragma wal_checkpoint(truncate)")
        page = conn.execute("pragma page_size").fetchone()[0]
        roots = [root for (root,) in conn.execute("select rootpage from sqlite_master") if root]
    conn.close()
    with open(db, "r+b") as f:
        for root in roots:
            f.seek((root - 1) * page)
            f.write(bytes(page))
