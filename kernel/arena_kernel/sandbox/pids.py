"""A cap on a bot's processes that holds for root too: a cgroup of the ``pids`` controller.

``RLIMIT_NPROC`` counts every process of the user and is not applied to root at all, so an
arena run as root (a container, a CI box) could not stop a fork bomb with it. A cgroup
counts exactly the processes of one bot, whoever runs it. arena makes one per sandboxed bot
in its run cgroup (:mod:`.cgroups`), where the machine lets it (cgroup v1's ``pids``
hierarchy, or a cgroup v2 subtree with ``pids`` passed on to it); elsewhere
``RLIMIT_NPROC`` stays the only cap. The bot's other cgroups of the same hierarchy are this
one (:mod:`.bot_cgroups`).
"""

from __future__ import annotations

from pathlib import Path

from arena_kernel.sandbox.cgroups import V2, Need, new_cgroup, offering, remove_cgroup

PROCESSES: tuple[Need, ...] = ((V2, "pids.max"), ("pids", "pids.max"))
"""Where a bot's process cap can be set, in order of preference."""


def pids_parent() -> Path | None:
    """The run cgroup in which each sandboxed bot gets its own ``pids`` cgroup, or None."""
    found = offering(PROCESSES)
    return None if found is None else found[0]


class PidsCgroup:
    """One bot's cgroup: at most ``limit`` processes. The bot joins it before bwrap starts
    (:func:`~arena_kernel.sandbox.cgroups.join_command`), so that nothing it forks is ever
    outside it; :meth:`remove` deletes it once the bot's processes are gone."""

    def __init__(self, parent: Path, limit: int) -> None:
        self.path = new_cgroup(parent)
        try:
            (self.path / "pids.max").write_text(f"{limit}\n")
        except OSError:
            self.path.rmdir()
            raise

    def remove(self) -> None:
        """Delete the cgroup (it must be empty: call once the bot's processes are gone)."""
        remove_cgroup(self.path)
