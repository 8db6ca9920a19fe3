"""Whether this machine can sandbox bots, found once per arena process by starting one.

bwrap may be missing, or present but refused (user namespaces disabled, a container
without the right to mount ``/proc``): only running it tells, so the probe runs the same
kind of sandbox a bot gets, around ``true``.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

from arena_kernel.sandbox.bwrap import ISOLATION
from arena_kernel.sandbox.pids import pids_parent
from arena_kernel.sandbox.view import View, mount_args

HOW_TO_ENABLE = (
    "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) on a kernel that allows "
    "user namespaces, or run arena as root"
)


@dataclass(frozen=True)
class Probe:
    """What the probe found. ``problem``: why bots cannot be sandboxed here (None: they
    can). ``cap_problem``: why a sandboxed bot's processes cannot be capped (None: a
    per-bot cgroup or ``RLIMIT_NPROC`` caps them)."""

    bwrap: str | None
    problem: str | None
    cap_problem: str | None

    @property
    def works(self) -> bool:
        return self.problem is None

    @property
    def refusal(self) -> str | None:
        """Why a run with ``mode = "required"`` is refused here, or None."""
        return self.problem or self.cap_problem

    def describe(self) -> str:
        """One line for ``arena doctor`` and the run header."""
        if self.problem is not None:
            return f"bots run unsandboxed: {self.problem}; to sandbox them, {HOW_TO_ENABLE}"
        line = f"bots run in a bubblewrap sandbox ({self.bwrap})"
        if self.cap_problem is not None:
            line += f"; but {self.cap_problem}"
        return line


def _trial(bwrap: str) -> str | None:
    """Run a shell that does nothing in a sandbox like a bot's (by its path: the arena's
    ``PATH`` may not be the system's); the reason it failed, or None."""
    command = [
        bwrap,
        *ISOLATION,
        *mount_args(View(folder=None, tmp_mb=1)),
        "--",
        "/bin/sh",
        "-c",
        ":",
    ]
    try:
        done = subprocess.run(command, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{bwrap} cannot run: {exc}"
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bwrap fails here: {said[-1] if said else f'status {done.returncode}'}"
    return None


@functools.cache
def probe() -> Probe:
    """The machine's answer, asked once per process."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return Probe(None, "bubblewrap (bwrap) is not installed", None)
    problem = _trial(bwrap)
    cap_problem = None
    if os.geteuid() == 0 and pids_parent() is None:
        cap_problem = (
            "arena runs as root and has no pids cgroup it may create, so the process limit "
            "(RLIMIT_NPROC, which Linux does not apply to root) cannot hold"
        )
    return Probe(bwrap, problem, cap_problem)
