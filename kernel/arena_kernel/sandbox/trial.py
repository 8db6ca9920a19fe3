"""Whether bwrap starts a sandbox like a bot's here: the trial the probe
(:mod:`.probe`) makes, and the check ``arena plugins`` makes with it alone, which needs
none of the rest of the sandbox's modules."""

from __future__ import annotations

import os
import shutil
import subprocess

from arena_kernel.sandbox import uids
from arena_kernel.sandbox.isolation import isolation
from arena_kernel.sandbox.view import View, mount_args


def trial(bwrap: str, syscall_filter: bytes | None) -> str | None:
    """Run a shell that does nothing in a sandbox like a bot's (by its path: the arena's
    ``PATH`` may not be the system's), as a bot's user id where bots get one of their own,
    under ``syscall_filter`` if given; the reason it failed, or None."""
    uid = uids.FIRST if uids.wanted() else None
    drop = uids.drop_command(uid) if uid is not None else []
    fd = None
    if syscall_filter is not None:
        from arena_kernel.sandbox.seccomp import program_fd

        fd = program_fd(syscall_filter)
    command = [
        bwrap,
        *isolation(uid),
        *mount_args(View(folder=None, tmp_mb=1)),
        *([] if fd is None else ["--seccomp", str(fd)]),
        "--",
        *drop,
        "/bin/sh",
        "-c",
        ":",
    ]
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            timeout=30,
            check=False,
            pass_fds=() if fd is None else (fd,),
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{bwrap} cannot run: {exc}"
    finally:
        if fd is not None:
            os.close(fd)
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bwrap fails here: {said[-1] if said else f'status {done.returncode}'}"
    return None


def sandbox_works() -> bool:
    """``probe().works`` without making the syscall filter (libseccomp's bindings and its
    compiling are most of the probe's cost), for a command that only warns when bots
    cannot be sandboxed (``arena plugins``). The same answer: a sandbox that cannot start
    without the filter cannot start with it (the filter only refuses more), and one that
    starts without it is what the probe falls back to when bwrap cannot apply the filter.
    """
    bwrap = shutil.which("bwrap")
    return bwrap is not None and trial(bwrap, None) is None
