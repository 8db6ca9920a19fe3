"""Making one cgroup per bot, in whatever hierarchy the machine offers and lets arena use.

A cgroup holds every process a bot starts, whoever runs it and however they fork, and the
bot cannot leave it without rights to another one: what a process tree read from ``/proc``
cannot promise. arena makes its cgroups under its own (``arena-PID-N``), one per bot and
per purpose: a cap on processes (:mod:`.pids`) and CPU-time accounting
(:mod:`arena_kernel.transports.cpu_meter`). A bot joins its cgroups before anything of it
runs (:func:`join_command`), and each is removed once the bot's processes are gone.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Sequence
from pathlib import Path

V2 = ""
"""The key of the cgroup v2 (unified) hierarchy in :func:`mount_points` and :func:`own_cgroups`."""

_names = itertools.count()


def mount_points() -> dict[str, Path]:
    """The mount point of the cgroup2 file system (key :data:`V2`) and of each cgroup v1
    hierarchy, under each of its controllers (``"pids"``, ``"cpuacct"``), from
    ``/proc/self/mountinfo``."""
    found: dict[str, Path] = {}
    with contextlib.suppress(OSError), open("/proc/self/mountinfo") as info:
        for line in info:
            before, _, after = line.partition(" - ")
            fields, tail = before.split(), after.split()
            if len(fields) < 5 or len(tail) < 3:
                continue
            if tail[0] == "cgroup2":
                found.setdefault(V2, Path(fields[4]))
            elif tail[0] == "cgroup":
                for controller in tail[2].split(","):
                    found.setdefault(controller, Path(fields[4]))
    return found


def own_cgroups() -> dict[str, str]:
    """This process's cgroup path per hierarchy (:data:`V2` for cgroup v2), from
    ``/proc/self/cgroup``."""
    paths: dict[str, str] = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup") as cgroups:
        for line in cgroups:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for controller in controllers.split(",") if controllers else [V2]:
                paths[controller] = path
    return paths


def usable_parent(hierarchies: Sequence[str], needed: str) -> Path | None:
    """The first of arena's own cgroups in ``hierarchies`` (in that order) under which it
    can make a child cgroup that has the file ``needed`` and takes processes; None where
    there is none. Cgroups of arenas that are gone are removed
    from it on the way."""
    mounts, own = mount_points(), own_cgroups()
    for hierarchy in hierarchies:
        if hierarchy in mounts and hierarchy in own:
            parent = mounts[hierarchy] / own[hierarchy].lstrip("/")
            if _usable(parent, needed):
                _remove_stale(parent)
                return parent
    return None


def _usable(parent: Path, needed: str) -> bool:
    probe = parent / f"arena-probe-{os.getpid()}"
    try:
        probe.mkdir()
    except OSError:
        return False
    try:
        return (probe / needed).exists() and os.access(probe / "cgroup.procs", os.W_OK)
    finally:
        with contextlib.suppress(OSError):
            probe.rmdir()


def _remove_stale(parent: Path) -> None:
    """Remove the empty cgroups of arenas that are gone (``arena-PID-N``, PID not running)."""
    for child in parent.glob("arena-*-*"):
        pid = child.name.split("-")[1]
        if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            with contextlib.suppress(OSError):
                child.rmdir()


def new_cgroup(parent: Path) -> Path:
    """Make a cgroup of this arena under ``parent`` (raises OSError when it cannot)."""
    path = parent / f"arena-{os.getpid()}-{next(_names)}"
    path.mkdir()
    return path


def remove_cgroup(path: Path) -> None:
    """Delete a cgroup; it must be empty: call once the bot's processes are gone."""
    with contextlib.suppress(OSError):
        path.rmdir()


def join_command(cgroups: Sequence[Path]) -> list[str]:
    """A ``sh`` prefix that moves itself into each of ``cgroups``, then execs the rest of
    argv: whatever it runs, and whatever that forks, is in them from its first instruction."""
    writes = " && ".join(f'echo $$ > "${i}"' for i in range(len(cgroups)))
    shift = f" && shift {len(cgroups) - 1}" if len(cgroups) > 1 else ""
    return [
        "/bin/sh",
        "-c",
        f'{writes}{shift} && exec "$@"',
        *(str(path / "cgroup.procs") for path in cgroups),
    ]
