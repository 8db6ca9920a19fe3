"""The cgroups of one bot: which it gets, what they are set to, what they tell once it
exits. This is the one place that decides them, sandboxed or not.

Where the machine lets arena make them (:mod:`.cgroups`), each bot the arena starts gets:

- a cap on the memory of all its processes together, ``[limits] memory_mb``: cgroup v2's
  ``memory.max`` (with no swap beyond it, and the whole bot killed at once when the
  out-of-memory killer picks one of its processes, ``memory.oom.group``), v1's
  ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes``, swap included, where
  the kernel counts swap). ``RLIMIT_DATA`` caps each process, not their sum: without the
  cgroup, a bot of many processes could drive the machine into the out-of-memory killer,
  which may then pick anyone. An out-of-memory kill in it is the bot's ``memory`` fault
  (:meth:`BotCgroups.oom_kills`);
- a CPU weight equal to every other bot's (``cpu.weight``, v1 ``cpu.shares``): on a busy
  machine a bot gets one bot's share of the CPU however many threads and processes burn
  it, not one share per process at its neighbours' expense;
- its CPU-time total, for a CPU-time clock (:mod:`arena_kernel.processes.cpu_meter`);
- a place in the cgroup the warden empties if arena dies (:func:`warden_cgroup`);
- when sandboxed, a cap on its processes, made with its sandbox (:mod:`.pids`) and given
  here.

One cgroup per hierarchy serves all the bot needs from that hierarchy (on cgroup v2, one
cgroup in all; on v1, one per mounted hierarchy: a ``cpu,cpuacct`` mount gives the weight
and the CPU-time total in one cgroup).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from arena_kernel.sandbox.cgroup_kill import kill_members
from arena_kernel.sandbox.cgroups import (
    V2,
    Need,
    join_command,
    new_cgroup,
    offering,
    remove_cgroup,
)
from arena_kernel.sandbox.pids import PROCESSES

MEMORY: tuple[Need, ...] = ((V2, "memory.max"), ("memory", "memory.limit_in_bytes"))
"""Where a bot's memory cap can be set, in order of preference."""

WEIGHT: tuple[Need, ...] = ((V2, "cpu.weight"), ("cpu", "cpu.shares"))
"""Where a bot's CPU weight can be set."""

ACCOUNTING: tuple[Need, ...] = ((V2, "cpu.stat"), ("cpuacct", "cpuacct.usage"))
"""Where the kernel keeps a bot's CPU-time total."""

RUN: tuple[Need, ...] = (
    (V2, "cgroup.procs"),
    ("freezer", "freezer.state"),
    *(need for needs in (PROCESSES, MEMORY, WEIGHT, ACCOUNTING) for need in needs[1:]),
)
"""Where every bot gets a cgroup, for the warden to empty: cgroup v2 (``cgroup.kill``),
else v1's freezer, else any v1 hierarchy arena uses."""

EQUAL_WEIGHT = {"cpu.weight": "100", "cpu.shares": "1024"}
"""Every bot's CPU weight: the kernel's default, the same for all."""

OOM_KILLS = {"memory.max": "memory.events", "memory.limit_in_bytes": "memory.oom_control"}
"""Where a memory cgroup counts its out-of-memory kills (``oom_kill N``), by the file of
its cap."""


def warden_cgroup() -> Path | None:
    """The run cgroup every bot has a cgroup in, which the warden empties if arena dies;
    None where arena can make none (the warden then finds bots by their tag only)."""
    found = offering(RUN)
    return None if found is None else found[0]


def memory_settings(cap: str, limit: int) -> list[tuple[str, str]]:
    """The files and values that cap a bot's memory at ``limit`` bytes, for the hierarchy
    whose cap is the file ``cap``; the first is required, the others are set where the
    kernel has them."""
    if cap == "memory.max":
        return [(cap, str(limit)), ("memory.swap.max", "0"), ("memory.oom.group", "1")]
    return [(cap, str(limit)), ("memory.memsw.limit_in_bytes", str(limit))]


class BotCgroups:
    """One bot's cgroups, made by :meth:`make` before it starts: it joins them through
    :meth:`command`, and :meth:`remove` deletes them once its processes are gone."""

    def __init__(self, cap: Path | None) -> None:
        self.joined: dict[Path, Path] = {} if cap is None else {cap.parent: cap}
        """The run cgroup of each hierarchy -> the bot's cgroup in it."""
        self._cap = cap
        self._oom_kills: Path | None = None
        self._own: Path | None = None
        """The bot's cgroup in the run cgroup of :func:`warden_cgroup`."""
        self.accounting: tuple[Path, str] | None = None
        """The cgroup that keeps the bot's CPU-time total, and the file (for a CPU-time
        clock only)."""

    @classmethod
    def make(cls, memory_mb: int | None, cpu_clock: bool, cap: Path | None) -> BotCgroups:
        """The cgroups of a bot capped at ``memory_mb`` MiB (None: no cap), with its CPU-time
        total when it is on a ``cpu_clock``; ``cap`` is its process cap's cgroup, made with
        its sandbox, if any. Raises OSError when a cgroup the machine offers cannot be made."""
        cgroups = cls(cap)
        try:
            cgroups._make(memory_mb, cpu_clock)
        except BaseException:
            cgroups.remove()
            raise
        return cgroups

    def _make(self, memory_mb: int | None, cpu_clock: bool) -> None:
        if memory_mb is not None and (found := offering(MEMORY)) is not None:
            run, cap = found
            cgroup = self._in(run)
            for number, (name, value) in enumerate(memory_settings(cap, memory_mb << 20)):
                if number == 0 or (cgroup / name).exists():
                    (cgroup / name).write_text(f"{value}\n")
            self._oom_kills = cgroup / OOM_KILLS[cap]
        if (found := offering(WEIGHT)) is not None:
            run, weight = found
            (self._in(run) / weight).write_text(f"{EQUAL_WEIGHT[weight]}\n")
        if cpu_clock and (found := offering(ACCOUNTING)) is not None:
            run, total = found
            self.accounting = (self._in(run), total)
        if (found := offering(RUN)) is not None:
            self._own = self._in(found[0])

    def _in(self, run: Path) -> Path:
        """The bot's cgroup in the run cgroup ``run``, made on first use."""
        if run not in self.joined:
            self.joined[run] = new_cgroup(run)
        return self.joined[run]

    def command(self) -> list[str]:
        """The prefix of the bot's command that joins its cgroups (see
        :func:`~arena_kernel.sandbox.cgroups.join_command`)."""
        return join_command(list(self.joined.values()))

    def oom_kills(self) -> int:
        """How many of the bot's processes the out-of-memory killer ended for passing its
        memory cap (0 without a cap, or on a kernel older than 4.13, which does not count
        them)."""
        if self._oom_kills is None:
            return 0
        with contextlib.suppress(OSError, ValueError), open(self._oom_kills) as counts:
            for line in counts:
                name, _, value = line.partition(" ")
                if name == "oom_kill":
                    return int(value)
        return 0

    def kill_leftovers(self) -> bool:
        """SIGKILL whatever of the bot is still running (what it left outside its process
        group); whether there was anything (call again until there is not)."""
        return self._own is not None and kill_members([self._own])

    def remove(self) -> None:
        """Delete the cgroups made here (they must be empty: call once the bot's processes
        are gone); the process cap's is its sandbox's to remove."""
        for cgroup in self.joined.values():
            if cgroup != self._cap:
                remove_cgroup(cgroup)
        self.joined = {} if self._cap is None else {self._cap.parent: self._cap}
