"""Open files: a run takes all it may have, and refuses to start with clearly too few.

Every bot costs the arena descriptors for as long as it lives (its pipes or socket, its
stderr pipe and log file, a pidfd). Running out mid-run is the arena's failure, not the
bots': it stops the run (:class:`~arena_kernel.errors.SetupError`), so a limit that cannot hold
the games played at once is better refused before the first game.
"""

from __future__ import annotations

import resource

from arena_kernel.errors import SetupError

FDS_PER_BOT = 7
"""Descriptors one running bot holds in the arena: 5 measured for a process on stdio (4
over TCP), one more for the CPU total of a bot on a CPU-time clock, plus one of margin."""

FDS_BASE = 32
"""Descriptors of the arena itself: the database and its journal files, the event loop,
listening sockets, about 20 measured."""


def raise_open_file_limit() -> None:
    """Raise the soft limit on open files to the hard limit (``ulimit -n`` is often 1024,
    its ceiling much higher). Bots inherit the raised limit, which gives them nothing: any
    process may raise its own soft limit up to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard and hard != resource.RLIM_INFINITY:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def check_open_file_limit(bots_at_once: int, source: str) -> None:
    """Raise :class:`SetupError` if the open-file limit cannot hold ``bots_at_once`` bots
    (``source`` names the match file in the message)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = FDS_BASE + FDS_PER_BOT * bots_at_once
    if soft != resource.RLIM_INFINITY and soft < needed:
        raise SetupError(
            f"{source}: {bots_at_once} bots at once need about {needed} open files, but this "
            f"process may open only {soft} (ulimit -n); lower `concurrency` or raise the limit"
        )
