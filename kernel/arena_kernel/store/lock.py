"""One ``arena run`` at a time per database: the second one refuses with one clear line.

Two runs of one match file on one database would both play the whole schedule (the store
keeps each game once, but the work is doubled, both write the same log folders, and with
a fixed TCP port the loser faults every game). Sharing the schedule between processes would
need claims that survive a crash of their owner; a lock held for the life of a run is
simpler and cannot go stale: it is an advisory ``flock`` on ``<database>.lock``, which the
kernel releases whenever the process ends, ``kill -9`` included. Readers (``arena
standings``, ``arena replay``) do not take it.

The lock file is separate from the database because SQLite relies on POSIX locks on the
database file itself, which closing any other descriptor of that file would release.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from arena_kernel.errors import SetupError


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


@contextmanager
def exclusive_run(database: Path, holder: str) -> Iterator[None]:
    """Hold the database's run lock for the ``with`` block, or raise :class:`SetupError`
    naming the process that holds it. ``holder`` describes this run for that message.

    The descriptor is close-on-exec, so bots started meanwhile never inherit the lock (an
    orphaned bot must not keep a later run out).
    """
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise SetupError(f"cannot create the run lock {path}: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.pread(fd, 4096, 0).decode(errors="replace").strip()
            raise SetupError(
                f"{database} is in use by another arena run"
                + (f" ({other})" if other else "")
                + "; wait for it to end, or give this match file a `database` of its own"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, holder.encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)  # so that nobody is ever named for a lock no one holds
    finally:
        os.close(fd)
