"""Making a bot's process in a worker thread, so that the event loop runs on meanwhile.

``subprocess`` makes a process with ``vfork``: the calling thread waits until the child
has started its program. That takes a tenth of a millisecond on a quiet machine, but on a
busy one the child first waits for a processor: measured on two busy cores, a 1 ms timer
of the event loop ran 5 to 6 ms late (median; 10 to 11 ms at the 90th percentile) per bot
started on the loop's thread, against 1 ms (3.6 ms) started here. Every game's replies
waited that long to be read. CPython lets other threads run during that wait
(gh-104372: 3.12, and 3.11 once backported, as the 3.11.7 measured here); where it does
not, a start made here costs the loop what it cost on the loop's thread.

The worker threads live as long as the arena: a bot's parent-death signal (see
:func:`~arena_kernel.processes.launcher.launcher`) is sent when the *thread* that started it
ends (``prctl(2)``), so a thread ending earlier would kill the bots it started.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from arena_kernel.processes.cancel_proof import to_the_end

THREADS = 4
"""Bots made at the same time; each takes its thread for a moment only."""


@functools.cache
def _threads() -> ThreadPoolExecutor:
    """The arena's process-making threads, never shut down (see the module docstring)."""
    return ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="arena-spawn")


async def popen_aside(make: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    """``make()``, a ``subprocess.Popen`` of a bot in a session of its own, in a worker thread.

    Awaited to its end even if the caller is cancelled meanwhile: until ``make`` returns,
    the child may still be taking its ends of the pipes the caller closes on the way out.
    A process made for a cancelled caller is killed and reaped, then the cancellation is
    raised; what it may have forked meanwhile carries its tag, and goes with the reaper's
    next sweep.
    """
    made = asyncio.get_running_loop().run_in_executor(_threads(), make)
    try:
        return await to_the_end(made)
    except asyncio.CancelledError:
        if made.done() and not made.cancelled() and made.exception() is None:
            _kill(made.result())
        raise


def _kill(popen: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(popen.pid, signal.SIGKILL)
    popen.wait()
