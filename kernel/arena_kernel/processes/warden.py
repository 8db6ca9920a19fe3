"""The warden: a small process per run that ends the run's bots if the arena dies.

A bot's leader gets SIGKILL when the arena dies (its parent-death signal, see
:func:`arena_kernel.processes.launcher.launcher`), but what the bot forked does not, and a bot
that ignores the end of its input would run on for ever after a ``kill -9`` of the arena,
an out-of-memory kill or a crash. The warden covers that: a child of the arena (never of a
bot), in a session of its own (a Ctrl-C meant for the arena does not reach it), it waits
on a pipe whose other end only the arena holds. At the end of a normal run the arena
writes ``done`` and closes it, and the warden exits. If the pipe ends without ``done``, the
arena is gone: the warden kills every process in the arena's run cgroup, where every bot
has a cgroup (:func:`~arena_kernel.sandbox.bot_cgroups.warden_cgroup`), until none is left,
and removes it; then every process carrying the arena's tag (see
:mod:`~arena_kernel.processes.reaper`) with everything below it, until none is left; and
exits. The cgroup finds what the tag cannot: a bot's process that started a program with
an emptied environment. Where arena can make no cgroup, the tag is all there is.

The arena lowers its own ``oom_score_adj`` before it starts the warden, which inherits it
(:func:`~arena_kernel.sandbox.oom.spare_arena`): when memory runs out, both are the
out-of-memory killer's last pick, the bots its first.

It is started with ``python -I``, so that nothing in the user's environment
(``PYTHONPATH``, a ``sitecustomize``) can change what it runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import subprocess
import sys
import time
from pathlib import Path

from arena_kernel.processes.fd_shortage import arena_descriptors
from arena_kernel.processes.procfs import with_environ
from arena_kernel.processes.reaper import TAG, given_by, reaper
from arena_kernel.processes.tree_kill import POLL, kill_trees, wait_dead
from arena_kernel.sandbox.bot_cgroups import warden_cgroup
from arena_kernel.sandbox.cgroup_kill import empty
from arena_kernel.sandbox.cgroups import remove_run
from arena_kernel.sandbox.oom import spare_arena

DONE = b"done"
"""What the arena writes to its warden at the end of a normal run."""

END_LIMIT = 10.0
"""How long the warden goes on killing the processes of a dead arena, and how long
the arena waits for its warden to exit after ``done``: both are over in milliseconds
unless a process is stuck in an uninterruptible wait."""

_BOOT = "import sys; from arena_kernel.processes.warden import main; main(*sys.argv[1:])"
"""The warden's program: ``-I`` keeps the environment's PYTHONPATH and the user's site out;
arena_kernel comes from where this interpreter has it installed."""


def end_run(token: str, cgroup: Path | None) -> None:
    """Kill every process in ``cgroup`` (the run cgroup of the arena of ``token``, None:
    it has none) and below it, then every process of that arena's tag and all below them,
    until none is left (or :data:`END_LIMIT` passed); remove the emptied cgroups."""
    deadline = time.monotonic() + END_LIMIT
    if cgroup is not None and empty([cgroup], deadline):
        remove_run(cgroup)
    while victims := kill_trees(with_environ(TAG, functools.partial(given_by, token))):
        if not wait_dead(victims, deadline):
            return


def main(token: str, cgroup: str = "") -> None:
    """The warden process: wait for the arena's pipe (stdin) to end, then act on it."""
    received = b""
    while chunk := os.read(0, 64):
        received += chunk
    if received != DONE:
        end_run(token, Path(cgroup) if cgroup else None)


class Warden:
    """The arena's end of a run's warden (see the module docstring)."""

    def __init__(self, popen: subprocess.Popen[bytes], pipe: int) -> None:
        self._popen = popen
        self._pipe: int | None = pipe

    @classmethod
    def start(cls) -> Warden:
        """Start the warden of this arena process's bots; raises
        :class:`~arena_kernel.errors.SetupError` when out of file descriptors."""
        what = "the warden of the bots"
        spare_arena()
        cgroup = warden_cgroup()
        with arena_descriptors(what):
            read_end, write_end = os.pipe()
        try:
            with arena_descriptors(what):
                popen = subprocess.Popen(
                    [sys.executable, "-I", "-c", _BOOT, reaper.token, str(cgroup or "")],
                    stdin=read_end,
                    stdout=subprocess.DEVNULL,
                    start_new_session=True,
                )
        except BaseException:
            os.close(write_end)
            raise
        finally:
            os.close(read_end)
        reaper.keep(popen.pid)
        return cls(popen, write_end)

    @property
    def pid(self) -> int:
        return self._popen.pid

    async def stop(self) -> None:
        """Tell the warden that the run ended normally, and wait until it has exited."""
        if self._pipe is None:
            return
        with contextlib.suppress(OSError):
            os.write(self._pipe, DONE)
        os.close(self._pipe)
        self._pipe = None
        deadline = time.monotonic() + END_LIMIT
        while self._popen.poll() is None:
            if time.monotonic() >= deadline:
                self._popen.kill()
                self._popen.wait()
                break
            await asyncio.sleep(POLL)
        reaper.forget(self._popen.pid)
