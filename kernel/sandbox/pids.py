"""A cap on a bot's processes that holds for root too: a cgroup of the ``pids`` controller.

``RLIMIT_NPROC`` counts every process of the user and is not applied to root at all, so an
arena run as root (a container, a CI box) could not stop a fork bomb with it. A cgroup
counts exactly the processes of one bot, whoever runs it. arena makes one per bot under its
own cgroup, where the machine lets it (cgroup v1's ``pids`` hierarchy, or a cgroup v2
subtree with ``pids`` enabled for it); elsewhere ``RLIMIT_NPROC`` stays the only cap.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
from pathlib import Path

_names = itertools.count()


def _mount_points() -> dict[str, Path]:
    """The mount point of the cgroup2 file system (key ``""``) and of the v1 ``pids``
    hierarchy (key ``"pids"``), from ``/proc/self/mountinfo``."""
    found: dict[str, Path] = {}
    with contextlib.suppress(OSError), open("/proc/self/mountinfo") as info:
        for line in info:
            before, _, after = line.partition(" - ")
            fields, tail = before.split(), after.split()
            if len(fields) < 5 or len(tail) < 3:
                continue
            if tail[0] == "cgroup2":
                found.setdefault("", Path(fields[4]))
            elif tail[0] == "cgroup" and "pids" in tail[2].split(","):
                found.setdefault("pids", Path(fields[4]))
    return found


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup path per hierarchy (``""``: cgroup v2), from ``/proc/self/cgroup``."""
    paths: dict[str, str] = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup") as cgroups:
        for line in cgroups:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for controller in controllers.split(",") if controllers else [""]:
                paths[controller] = path
    return paths


def _usable(parent: Path) -> bool:
    """Whether arena can make a child cgroup under ``parent`` that caps processes."""
    probe = parent / f"arena-probe-{os.getpid()}"
    try:
        probe.mkdir()
    except OSError:
        return False
    try:
        return (probe / "pids.max").exists() and os.access(probe / "cgroup.procs", os.W_OK)
    finally:
        with contextlib.suppress(OSError):
            probe.rmdir()


@functools.cache
def pids_parent() -> Path | None:
    """The cgroup under which each bot gets its own ``pids`` cgroup, or None. Cgroups an
    arena killed before its bots ended left behind are removed on the way."""
    mounts, own = _mount_points(), _own_cgroups()
    for hierarchy in ("", "pids"):
        if hierarchy in mounts and hierarchy in own:
            parent = mounts[hierarchy] / own[hierarchy].lstrip("/")
            if _usable(parent):
                _remove_stale(parent)
                return parent
    return None


def _remove_stale(parent: Path) -> None:
    """Remove the empty cgroups of arenas that are gone (``arena-PID-N``, PID not running)."""
    for child in parent.glob("arena-*-*"):
        pid = child.name.split("-")[1]
        if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            with contextlib.suppress(OSError):
                child.rmdir()


class PidsCgroup:
    """One bot's cgroup: at most ``limit`` processes. The bot joins it before bwrap starts
    (:meth:`join_command`), so that nothing it forks is ever outside it; :meth:`remove`
    deletes it once the bot's processes are gone."""

    def __init__(self, parent: Path, limit: int) -> None:
        self.path = parent / f"arena-{os.getpid()}-{next(_names)}"
        self.path.mkdir()
        try:
            (self.path / "pids.max").write_text(f"{limit}\n")
        except OSError:
            self.path.rmdir()
            raise

    def join_command(self) -> list[str]:
        """A ``sh`` prefix that moves itself into the cgroup, then execs the rest of argv."""
        procs = str(self.path / "cgroup.procs")
        return ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', procs]

    def remove(self) -> None:
        """Delete the cgroup (it must be empty: call once the bot's processes are gone)."""
        with contextlib.suppress(OSError):
            self.path.rmdir()
