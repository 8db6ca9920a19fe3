"""Reading Linux ``/proc``: the processes of a bot's process group."""

from __future__ import annotations

import os
from collections.abc import Iterator


def stat_fields(pid: int | str) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None


def group_members(pgid: int, *, living: bool = False) -> Iterator[int]:
    """PIDs of the processes in group ``pgid``; ``living`` leaves out zombies (dead,
    waiting for whoever reaps orphans)."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        fields = stat_fields(entry.name)
        if fields is None or int(fields[2]) != pgid:
            continue
        if living and fields[0] in (b"Z", b"X"):
            continue
        yield int(entry.name)
