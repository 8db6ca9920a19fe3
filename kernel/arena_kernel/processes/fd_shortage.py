"""Running out of file descriptors while starting a process: the arena's failure, never a
bot's."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator

from arena_kernel.errors import SetupError


@contextlib.contextmanager
def arena_descriptors(what: str) -> Iterator[None]:
    """Turn running out of file descriptors while starting ``what`` (``bot "x"``) into the
    arena's failure (:class:`SetupError`): the bot did nothing wrong, and no game result
    may say it did."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in (errno.EMFILE, errno.ENFILE):
            raise
        raise SetupError(
            f"cannot start {what}: the arena is out of file descriptors "
            f"({os.strerror(exc.errno)}); raise the limit (ulimit -n) or lower concurrency"
        ) from None
