"""The resource limits of a bot process: what the match file's ``[limits]`` table sets
and what a transport applies to each bot it starts."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ResourceLimits:
    """Resource limits applied to every bot process (``None`` = no limit).

    ``memory_mb`` limits each process's private writable mappings, heap included
    (RLIMIT_DATA), not its address space: the address space a JVM or a JavaScript engine
    reserves (``PROT_NONE`` until used) does not count, while an address-space limit kills
    such a bot mid-game (the JVM of a real Speed Clue contest bot died under 4 GiB). It also
    caps the memory all of a bot's processes use together, with a memory cgroup where arena
    can make one (:mod:`arena_kernel.sandbox.bot_cgroups`).
    Linux does not enforce ``processes`` (RLIMIT_NPROC) for root; a sandboxed bot's
    processes are capped by a cgroup where arena can make one
    (:mod:`arena_kernel.sandbox.pids`). ``write_mb`` caps each file a bot writes
    (RLIMIT_FSIZE; past it the write fails and the bot gets SIGXFSZ).
    """

    memory_mb: int | None = 4096
    cpu_seconds: int | None = None
    processes: int | None = 256
    write_mb: int | None = 64
    stderr_kb: int = 256
