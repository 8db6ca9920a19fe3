"""The CPU time a bot's processes have used: what a CPU-time clock charges a reply.

A reply's CPU time is the difference of two readings, one as the request is written and one
as the reply is read, so a reading must be cheap and must count every process of the bot:
the threads of a JVM, the worker child a bot forks to do its thinking, and that child's
children once they have exited.

Where arena can make a cgroup, each bot started with a CPU-time clock has one of its own
that keeps the total, which it joins before anything of it runs
(:mod:`arena_kernel.sandbox.bot_cgroups`): the kernel then keeps the total of every process
in it, to the microsecond (cgroup v2's ``cpu.stat``) or nanosecond (v1's
``cpuacct.usage``), read with one ``pread`` of a file kept open (some 3 µs). A process
cannot leave its cgroup without rights to another one.

Elsewhere the bot's processes are found in ``/proc``: its leader and the processes below
it, each read by its CPU clock (to the nanosecond, threads included) plus what its reaped
children used (``cutime`` and ``cstime``, to the clock tick). That costs a scan of every
process on the machine per reading (some 50 µs per process), and a process that leaves the
tree (a double fork: it is then the child of init) is no longer counted, while it still
competes for the machine.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Protocol

from arena_kernel.processes.procfs import all_processes, descendants, read_stat, stat_fields
from arena_kernel.sandbox.bot_cgroups import ACCOUNTING, BotCgroups
from arena_kernel.sandbox.cgroups import offering

_TICK = 1 / os.sysconf("SC_CLK_TCK")


class CpuMeter(Protocol):
    """The CPU time of one bot's processes."""

    def seconds(self) -> float | None:
        """User plus system CPU seconds the bot's processes used since it was started, or
        None when that can no longer be read (the bot is gone)."""

    def close(self) -> None:
        """Release what the meter holds, once the bot's processes are gone."""


def accounting_parent() -> tuple[Path, str] | None:
    """The run cgroup in which each bot's CPU-time total is kept, and the file that holds
    it; None where arena can make none (the meter then reads ``/proc``)."""
    return offering(ACCOUNTING)


class CgroupMeter:
    """The total the kernel keeps for one bot's cgroup (:meth:`make`)."""

    def __init__(self, path: Path, total: str) -> None:
        self.path = path
        self._fd: int | None = os.open(path / total, os.O_RDONLY | os.O_CLOEXEC)
        self._v2 = total == "cpu.stat"

    @classmethod
    def make(cls, cgroups: BotCgroups) -> CgroupMeter | None:
        """The meter of a bot's CPU-time total, or None where its cgroups keep none."""
        if cgroups.accounting is None:
            return None
        try:
            return cls(*cgroups.accounting)
        except OSError:
            return None

    def seconds(self) -> float | None:
        if self._fd is None:
            return None
        try:
            data = os.pread(self._fd, 256, 0)
        except OSError:
            return None
        if self._v2:  # "usage_usec N" comes first
            return int(data.split(None, 2)[1]) / 1e6
        return int(data) / 1e9

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class TreeMeter:
    """The processes below a bot's leader, read from ``/proc`` at every reading."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        stat = read_stat(pid)
        self._started = None if stat is None else stat.started

    def seconds(self) -> float | None:
        leader = read_stat(self.pid)
        if leader is None or leader.started != self._started or leader.dead:
            return None
        # Without a cgroup, a bot's children are found only by a scan of every process.
        below = descendants([self.pid], all_processes())
        return _process_seconds(self.pid) + sum(_process_seconds(s.pid) for s in below)

    def close(self) -> None:
        pass


def _process_seconds(pid: int) -> float:
    """The CPU time of one process and of the children it reaped (0 when it is gone)."""
    fields = stat_fields(pid)
    if fields is None:
        return 0.0
    reaped = (int(fields[13]) + int(fields[14])) * _TICK
    with contextlib.suppress(OSError):
        # The process's CPU clock (Linux's clockid for another process's CPU time).
        return time.clock_gettime((~pid << 3) | 2) + reaped
    return (int(fields[11]) + int(fields[12])) * _TICK + reaped
