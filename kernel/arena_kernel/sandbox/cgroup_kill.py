"""Ending every process in a cgroup, forks and all, without ever signalling another.

What a bot leaves behind may have emptied its environment and left its process group and
its parent, but not its cgroups (:mod:`.cgroups`). On cgroup v2 (Linux 5.14 and later) one
write ends them all: ``cgroup.kill`` SIGKILLs every process in a cgroup and below it, and
none can fork out of that. Elsewhere the members are read from ``cgroup.procs`` and killed
one by one, round after round until none is left, with the cgroup frozen meanwhile where
it can be (v2's ``cgroup.freeze``, v1's ``freezer.state``) so that none forks between the
reading and the kill. Each member is signalled through a pidfd, once its PID is seen again
in the cgroup with the pidfd open: a PID reused meanwhile by a process elsewhere is never
signalled.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

POLL = 0.002
"""Seconds between two rounds of killing what is still in a cgroup."""

FREEZERS = (("cgroup.freeze", "1", "0"), ("freezer.state", "FROZEN", "THAWED"))
"""The file that freezes a cgroup (v2, v1), what freezes it and what thaws it."""


def listed(cgroup: Path) -> list[int]:
    """The PIDs ``cgroup`` itself lists (empty once it is gone)."""
    with contextlib.suppress(OSError), open(cgroup / "cgroup.procs") as procs:
        return [int(pid) for pid in procs.read().split()]
    return []


def members(cgroup: Path) -> list[tuple[Path, int]]:
    """The processes in ``cgroup`` and in the cgroups below it, each with the cgroup that
    lists it."""
    return [(Path(folder), pid) for folder, _, _ in os.walk(cgroup) for pid in listed(Path(folder))]


def kill_members(cgroups: Sequence[Path]) -> bool:
    """SIGKILL every process in ``cgroups`` and below them; whether there was any (those
    killed may take a moment to be gone: call again until there is none)."""
    if not any(members(cgroup) for cgroup in cgroups):
        return False
    by_hand = [cgroup for cgroup in cgroups if not _write(cgroup / "cgroup.kill", "1")]
    with _frozen(by_hand):
        for cgroup in by_hand:
            for folder, pid in members(cgroup):
                _kill(folder, pid)
    return True


def empty(cgroups: Sequence[Path], deadline: float) -> bool:
    """Kill every process in ``cgroups`` and below them until none is left, or ``deadline``
    (monotonic) passed; whether none is left. Blocking: for the warden."""
    while kill_members(cgroups):
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL)
    return True


@contextlib.contextmanager
def _frozen(cgroups: Sequence[Path]) -> Iterator[None]:
    """Freeze ``cgroups`` where they can be, thaw them after."""
    thaw = []
    for cgroup in cgroups:
        for name, freeze, unfreeze in FREEZERS:
            if _write(cgroup / name, freeze):
                thaw.append((cgroup / name, unfreeze))
                break
    try:
        yield
    finally:
        for path, unfreeze in thaw:
            _write(path, unfreeze)


def _kill(cgroup: Path, pid: int) -> None:
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            if pid in listed(cgroup):
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    finally:
        os.close(pidfd)


def _write(path: Path, value: str) -> bool:
    """Write ``value`` to a cgroup file; whether it could (False: no such file here)."""
    try:
        path.write_text(f"{value}\n")
    except OSError:
        return False
    return True
