"""Making cgroups for the bots of this arena, in whatever hierarchies the machine offers and
lets arena use.

A cgroup holds every process a bot starts, whoever runs it and however they fork, and the
bot cannot leave it without rights to another one: what a process tree read from ``/proc``
cannot promise. In each hierarchy it uses, arena makes one cgroup under its own for all its
bots (``arena-PID``, its *run cgroup*), and in it one per bot (``bot-N``), which the bot
joins before anything of it runs (:func:`join_command`). What a bot gets from them is
decided in :mod:`.bot_cgroups`. A bot's cgroups are removed once its processes are gone,
the run cgroups when arena exits. Those of an arena that died are removed by the next
arena that makes its run cgroup beside them (and the one its warden empties, by the
warden).

On cgroup v2 a controller (memory, cpu, pids) reaches a cgroup only when its parent passes
it on (``cgroup.subtree_control``), and only a cgroup that holds no process may pass one
on: arena passes on, in its run cgroups, what its own cgroup gives them. It never moves
itself to free its own cgroup, so on a machine with cgroup v2 alone its bots get the
controllers only where arena runs in a cgroup that passes them to its children (the root
cgroup, or a delegated one it shares with no process: see docs/sandbox.md).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import os
from collections.abc import Sequence
from pathlib import Path

from arena_kernel.sandbox.oom import RAISE_BOT_SCORE

V2 = ""
"""The key of the cgroup v2 (unified) hierarchy in :func:`mount_points` and :func:`own_cgroups`."""

Need = tuple[str, str]
"""A hierarchy (:data:`V2`, or a cgroup v1 controller such as ``"memory"``) and the file a
bot's cgroup must have there to serve a purpose (``"memory.max"``)."""

PASSED_ON = ("memory", "cpu", "pids")
"""The cgroup v2 controllers a run cgroup passes on to its bots' cgroups, where it has them."""

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


@functools.cache
def run_cgroup(hierarchy: str) -> Path | None:
    """This arena's run cgroup in ``hierarchy``, made on first use; None where arena cannot
    make one there. Cgroups of arenas that are gone are removed from beside it on the way."""
    mounts, own = mount_points(), own_cgroups()
    if hierarchy not in mounts or hierarchy not in own:
        return None
    parent = mounts[hierarchy] / own[hierarchy].lstrip("/")
    _remove_stale(parent)
    run = parent / f"arena-{os.getpid()}"
    try:
        run.mkdir(exist_ok=True)
    except OSError:
        return None
    if not os.access(run / "cgroup.procs", os.W_OK):
        remove_cgroup(run)
        return None
    for child in run.iterdir():  # left by an earlier process with this PID
        if child.is_dir():
            remove_cgroup(child)
    if hierarchy == V2:
        _pass_on(run)
    atexit.register(_remove_at_exit, run, os.getpid())
    return run


@functools.cache
def offering(needs: tuple[Need, ...]) -> tuple[Path, str] | None:
    """The run cgroup of the first of ``needs`` whose bot cgroups have its file, and that
    file; None where no hierarchy offers one."""
    for hierarchy, needed in needs:
        run = run_cgroup(hierarchy)
        if run is not None and _children_have(run, needed):
            return run, needed
    return None


def new_cgroup(run: Path) -> Path:
    """Make a bot's cgroup in the run cgroup ``run`` (raises OSError when it cannot)."""
    path = run / f"bot-{next(_names)}"
    path.mkdir()
    return path


def remove_cgroup(path: Path) -> None:
    """Delete a cgroup; it must be empty: call once the bot's processes are gone."""
    with contextlib.suppress(OSError):
        path.rmdir()


def join_command(cgroups: Sequence[Path]) -> list[str]:
    """A ``sh`` prefix that makes its process the out-of-memory killer's first pick
    (:mod:`.oom`), moves it into each of ``cgroups``, then execs the rest of argv:
    whatever it runs, and whatever that forks, is in them from its first instruction."""
    joins = [f'echo $$ > "${i}"' for i in range(1, len(cgroups) + 1)]
    shift = [f"shift {len(cgroups)}"] if cgroups else []
    return [
        "/bin/sh",
        "-c",
        f"{RAISE_BOT_SCORE}; " + " && ".join([*joins, *shift, 'exec "$@"']),
        "arena-bot",
        *(str(path / "cgroup.procs") for path in cgroups),
    ]


def _pass_on(run: Path) -> None:
    """Enable in ``run``'s children the controllers of :data:`PASSED_ON` it has itself."""
    with contextlib.suppress(OSError):
        have = (run / "cgroup.controllers").read_text().split()
        for controller in PASSED_ON:
            if controller in have:
                with contextlib.suppress(OSError):
                    (run / "cgroup.subtree_control").write_text(f"+{controller}\n")


def _children_have(run: Path, needed: str) -> bool:
    """Whether a cgroup made in ``run`` has the file ``needed`` (on cgroup v2, the files of a
    controller appear only where the parent passes it on)."""
    probe = run / "probe"
    try:
        probe.mkdir()
    except OSError:
        return False
    try:
        return (probe / needed).exists()
    finally:
        remove_cgroup(probe)


def _remove_stale(parent: Path) -> None:
    """Remove the empty cgroups of arenas that are gone (``arena-PID``, PID not running),
    and their bots' (``arena-PID/bot-N``)."""
    for run in parent.glob("arena-*"):
        pid = run.name.split("-")[1]
        if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            remove_run(run)


def remove_run(run: Path) -> None:
    """Delete a run cgroup and its bots' cgroups (they must be empty)."""
    with contextlib.suppress(OSError):
        for child in run.iterdir():
            if child.is_dir():
                remove_cgroup(child)
    remove_cgroup(run)


def _remove_at_exit(run: Path, pid: int) -> None:
    """At exit: remove the run cgroup ``run`` (and what its bots left), in the process that
    made it only (a forked child inherits the exit handler)."""
    if os.getpid() == pid:
        remove_run(run)
