"""Reading Linux ``/proc``: process states, the tree of parents and children, environments.

Everything here reads a snapshot that may be stale by the time it is used: a process can
exit, and its PID be reused, between two reads. Whoever acts on a snapshot checks
:attr:`Stat.started` again through a pidfd first (see :mod:`arena_kernel.processes.tree_kill`).
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

_TICK_NS = 1_000_000_000 // os.sysconf("SC_CLK_TCK")


def stat_fields(pid: int | str) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


@dataclass(frozen=True, slots=True)
class Stat:
    """What ``/proc/PID/stat`` says about a process that matters for ending it.

    ``started`` (clock ticks after boot) tells a process from a later one that got the same
    PID: together, ``pid`` and ``started`` name one process for ever.
    """

    pid: int
    ppid: int
    pgid: int
    session: int
    state: str
    started: int

    @property
    def dead(self) -> bool:
        """Exited, and only waiting to be reaped (a zombie) or being removed."""
        return self.state in ("Z", "X")


def boot_ticks() -> int:
    """Now, in the unit of :attr:`Stat.started` (clock ticks after boot, rounded down as
    ``/proc`` rounds): no later than the start of any process started after this call."""
    return time.clock_gettime_ns(time.CLOCK_BOOTTIME) // _TICK_NS


def read_stat(pid: int | str) -> Stat | None:
    """The :class:`Stat` of process ``pid``, or None when there is no such process."""
    fields = stat_fields(pid)
    if fields is None:
        return None
    return Stat(
        pid=int(pid),
        ppid=int(fields[1]),
        pgid=int(fields[2]),
        session=int(fields[3]),
        state=fields[0].decode(),
        started=int(fields[19]),
    )


def all_processes() -> Iterator[Stat]:
    """Every process on the machine (of this PID namespace), once each."""
    with os.scandir("/proc") as entries:  # closed even when the caller stops early
        for entry in entries:
            if entry.name.isdigit():
                stat = read_stat(entry.name)
                if stat is not None:
                    yield stat


def descendants(roots: Iterable[int], table: Iterable[Stat]) -> list[Stat]:
    """The processes of ``table`` below the PIDs ``roots``, parents before children."""
    children: dict[int, list[Stat]] = {}
    for stat in table:
        children.setdefault(stat.ppid, []).append(stat)
    found: list[Stat] = []
    todo = deque(roots)
    seen = set(todo)
    while todo:
        for child in children.get(todo.popleft(), ()):
            if child.pid not in seen:
                seen.add(child.pid)
                found.append(child)
                todo.append(child.pid)
    return found


def group_members(pgid: int, *, living: bool = False) -> Iterator[int]:
    """PIDs of the processes in group ``pgid``; ``living`` leaves out zombies (dead,
    waiting for whoever reaps orphans)."""
    for stat in all_processes():
        if stat.pgid == pgid and not (living and stat.dead):
            yield stat.pid


def environ_value(pid: int, key: str) -> str | None:
    """The value of ``key`` in the environment process ``pid`` was started with, or None
    (not set, a zombie, or not ours to read).

    ``/proc/PID/environ`` shows the environment given to the last ``execve``: a process that
    changes its own variables afterwards does not change it, one that starts a program with
    a cleared environment does."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            data = environ.read()
    except OSError:
        return None
    prefix = key.encode() + b"="
    for entry in data.split(b"\0"):
        if entry.startswith(prefix):
            return entry[len(prefix) :].decode(errors="replace")
    return None


def with_environ(key: str, accept: Callable[[str], bool]) -> list[Stat]:
    """The living processes started with ``key`` in their environment, with a value
    ``accept`` takes (those whose environment can be read: ours, or all for root)."""
    found = []
    for stat in all_processes():
        if not stat.dead:
            value = environ_value(stat.pid, key)
            if value is not None and accept(value):
                found.append(stat)
    return found


def no_new_privs(pid: int) -> bool | None:
    """Whether process ``pid`` runs with ``no_new_privs`` set (also readable for a zombie),
    or None when it is gone."""
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"NoNewPrivs:"):
                    return line.split()[1] == b"1"
    except OSError:
        return None
    return False
