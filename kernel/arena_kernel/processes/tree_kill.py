"""Ending whole trees of processes that may fight back: no PID mistaken, no fork escaping.

A process is signalled only through a pidfd, opened before its identity (PID and start
time) is checked once more, so a PID that was reused by an unrelated process in the
meantime is never signalled. A tree is stopped first, from the top down, and read again
until no new process shows up: SIGSTOP cannot be caught or ignored and a stopped process
cannot fork, so the tree then holds still, and SIGKILL ends all of it at once. Killing
without stopping would let a process fork between the reading of the tree and its death,
and the child, orphaned, would be found only later, if at all.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterable

from arena_kernel.processes.procfs import Stat, all_processes, descendants, read_stat

POLL = 0.002
"""Seconds between two looks at processes that were sent SIGKILL."""


def signal_process(proc: Stat, sig: signal.Signals) -> bool:
    """Send ``sig`` to ``proc`` if it is still that process; False if it is gone (or not
    ours to signal)."""
    try:
        pidfd: int | None = os.pidfd_open(proc.pid)
    except ProcessLookupError:
        return False
    except OSError:
        # Out of file descriptors, exactly when ending bots is most needed: check, then
        # signal by PID; the PID could only be reused within these microseconds.
        pidfd = None
    try:
        now = read_stat(proc.pid)
        if now is None or now.started != proc.started:
            return False
        if pidfd is None:
            os.kill(proc.pid, sig)
        else:
            signal.pidfd_send_signal(pidfd, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False
    finally:
        if pidfd is not None:
            os.close(pidfd)


def stop_trees(roots: Iterable[Stat]) -> list[Stat]:
    """SIGSTOP ``roots`` and every living process below them, reading the process tree
    again until it holds still; return the processes stopped."""
    stopped: dict[int, Stat] = {}
    tried: set[tuple[int, int]] = set()
    pending = list(roots)
    while pending:
        for proc in pending:
            tried.add((proc.pid, proc.started))
            if signal_process(proc, signal.SIGSTOP):
                stopped[proc.pid] = proc
        pending = [
            proc
            for proc in descendants(stopped, all_processes())
            if not proc.dead and (proc.pid, proc.started) not in tried
        ]
    return list(stopped.values())


def kill_trees(roots: Iterable[Stat]) -> list[Stat]:
    """Stop ``roots`` and everything below them, then SIGKILL all of it; return what was
    killed (dying, not necessarily dead yet: see :func:`all_dead`)."""
    victims = stop_trees(roots)
    for proc in victims:
        signal_process(proc, signal.SIGKILL)
    return victims


def all_dead(procs: Iterable[Stat]) -> bool:
    """Whether every process of ``procs`` has exited (a zombie counts as exited)."""
    for proc in procs:
        now = read_stat(proc.pid)
        if now is not None and now.started == proc.started and not now.dead:
            return False
    return True


def wait_dead(procs: list[Stat], deadline: float) -> bool:
    """Block until every process of ``procs`` has exited, or ``deadline`` (monotonic)
    passed; whether they all did. For the warden, which has no event loop."""
    while not all_dead(procs):
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL)
    return True
