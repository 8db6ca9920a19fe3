"""Whether this machine can sandbox bots, found once per arena process by starting one.

bwrap may be missing, or present but refused (user namespaces disabled, a container
without the right to mount ``/proc``): only running it tells, so the probe runs the same
kind of sandbox a bot gets, around ``true``, under the syscall filter (:mod:`.seccomp`)
where libseccomp can make one; if only the filter fails, bots are sandboxed without it.
"""

from __future__ import annotations

import functools
import os
import shutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arena_kernel.sandbox.pids import pids_parent
from arena_kernel.sandbox.trial import trial

if TYPE_CHECKING:
    from arena_kernel.sandbox.seccomp import Compiled

HOW_TO_ENABLE = (
    "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) on a kernel that allows "
    "user namespaces, or run arena as root"
)


@dataclass(frozen=True)
class Probe:
    """What the probe found. ``problem``: why bots cannot be sandboxed here (None: they
    can). ``cap_problem``: why a sandboxed bot's processes cannot be capped (None: a
    per-bot cgroup or ``RLIMIT_NPROC`` caps them). ``syscalls``: the syscall filter, whose
    ``program`` is None where there is none (its ``problem`` says why)."""

    bwrap: str | None
    problem: str | None
    cap_problem: str | None
    syscalls: Compiled = field(default_factory=lambda: _no_filter("not probed"))

    @property
    def works(self) -> bool:
        return self.problem is None

    @property
    def refusal(self) -> str | None:
        """Why a run with ``mode = "required"`` whose bots' system calls are filtered (the
        default) is refused here, or None."""
        return self.refuses(filtered=True)

    def refuses(self, *, filtered: bool) -> str | None:
        """Why a run with ``mode = "required"`` is refused here, or None; ``filtered``: some
        of its bots' system calls are to be filtered."""
        problem = self.problem or self.cap_problem
        if problem is None and filtered and self.syscalls.problem is not None:
            problem = f"bots' system calls cannot be filtered: {self.syscalls.problem}"
        return problem

    def describe(self) -> str:
        """One line for ``arena doctor`` and the run header."""
        if self.problem is not None:
            return f"bots run unsandboxed: {self.problem}; to sandbox them, {HOW_TO_ENABLE}"
        line = f"bots run in a bubblewrap sandbox ({self.bwrap})"
        if self.cap_problem is not None:
            line += f"; but {self.cap_problem}"
        return line

    def describe_syscalls(self) -> str:
        """One line on the syscall filter, for ``arena doctor`` and the run header."""
        found = self.syscalls
        if not self.works:
            return "none: bots run unsandboxed"
        if found.program is None:
            return f"none: {found.problem}"
        line = (
            f"on: {len(found.refused)} calls refused, some only with certain arguments "
            f"(libseccomp {found.version})"
        )
        if found.unknown:
            line += f"; open, as this libseccomp does not know them: {', '.join(found.unknown)}"
        return line


def _no_filter(why: str) -> Compiled:
    from arena_kernel.sandbox.seccomp import Compiled

    return Compiled(None, why)


@functools.cache
def probe() -> Probe:
    """The machine's answer, asked once per process."""
    from arena_kernel.sandbox.seccomp import compiled

    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return Probe(None, "bubblewrap (bwrap) is not installed", None)
    syscalls = compiled()
    problem = trial(bwrap, syscalls.program)
    if problem is not None and syscalls.program is not None and trial(bwrap, None) is None:
        syscalls, problem = _no_filter(f"bwrap cannot apply it here ({problem})"), None
    cap_problem = None
    if os.geteuid() == 0 and pids_parent() is None:
        cap_problem = (
            "arena runs as root and has no pids cgroup it may create, so the process limit "
            "(RLIMIT_NPROC, which Linux does not apply to root) cannot hold"
        )
    return Probe(bwrap, problem, cap_problem, syscalls)
