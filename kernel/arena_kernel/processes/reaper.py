"""Finding every process a bot started, also those that left its process group.

Ending a bot's process group is not enough: a bot's process can ``setsid()`` into a group
of its own, or fork twice and let the middle process exit. Without namespaces (a later
sandbox adds them), three facts are enough to find all of them without ever mistaking
another process for a bot's:

- The arena makes itself a *child subreaper* (``PR_SET_CHILD_SUBREAPER``, set in the
  process, no fork). A process whose parent dies is then re-parented to the arena instead
  of init, so whatever a bot started stays below the arena, where a sweep finds it.
- Every bot is started with ``ARENA_TAG=<token>-<n>`` in its environment (the token is
  random per arena process, ``n`` counts its bots), which its processes inherit. A child of
  the arena that carries the tag of a bot whose game is over is one of that bot's
  leftovers; a tag of a bot still playing is left alone, so games running at the same
  time never end each other's processes.
- Every bot runs with ``no_new_privs`` (``setpriv --no-new-privs``), which no process can
  clear and every descendant inherits. Among the arena's children only a bot's processes
  have it (unless the arena itself runs with it: then this mark is not used). It catches
  what the tag cannot: a process that started a program with an emptied environment (it
  is ended as soon as every bot that was already running when it started has ended: only
  those can own it) and a bot's process that already exited (its zombie, whose environment
  can no longer be read, is reaped).

A sweep runs after each bot's process group was ended, and once more at the end of a run;
it repeats until it finds nothing (what it kills may have children, re-parented to the
arena as their parent dies). Other children of the arena (a plugin's helper, a worker pool)
carry neither the tag nor the mark, and are never touched.

Where arena can make cgroups, each bot also has its own (:mod:`arena_kernel.sandbox.bot_cgroups`),
joined by an ``sh`` before the bot's first instruction, which tell the same without tags:
what is left in them once the bot's group is gone is killed before the sweep
(:meth:`arena_kernel.transports.process.BotProcess.end`), and the warden empties the run's
if the arena dies. The tag and the mark are what there is where no cgroup can be made (an
ordinary user rarely has a writable cgroup tree).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import itertools
import os
import secrets
import time

from arena_kernel.errors import SetupError
from arena_kernel.processes.procfs import (
    Stat,
    all_processes,
    environ_value,
    no_new_privs,
)
from arena_kernel.processes.tree_kill import POLL, all_dead, kill_trees, wait_dead

TAG = "ARENA_TAG"
"""The environment variable that ties a process to the bot it descends from."""

PR_SET_CHILD_SUBREAPER = 36

SWEEP_LIMIT = 5.0
"""How long a sweep waits for the processes it killed to be gone (only a process stuck in
an uninterruptible wait takes more than a moment)."""


def _become_subreaper() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        reason = os.strerror(ctypes.get_errno())
        raise SetupError(f"cannot watch over bot processes: PR_SET_CHILD_SUBREAPER: {reason}")


def given_by(token: str, tag: str | None) -> bool:
    """Whether ``tag`` (a value of ``ARENA_TAG``) was given by the arena of ``token``."""
    return tag is not None and tag.startswith(f"{token}-")


class Reaper:
    """The bots of this arena process, and the sweeps that end what they leave behind.

    One per process (:data:`reaper`): re-parenting is a property of the process, and
    several runs (or tests) in one process share it.
    """

    def __init__(self) -> None:
        self.token = secrets.token_hex(6)
        self._numbers = itertools.count(1)
        self._playing: dict[str, int] = {}
        """The tags of the bots still playing -> when their leader started (clock ticks
        after boot, as ``/proc`` says)."""
        self._own: set[int] = set()
        self._starting: set[str] = set()
        """The tags of the bots being started, whose leader's pid is not known yet."""
        self._adopting = False
        self._marked = False

    def new_tag(self) -> str:
        """The tag of a bot about to be started (the first makes the arena a subreaper)."""
        if not self._adopting:
            _become_subreaper()
            self._marked = not no_new_privs(os.getpid())
            self._adopting = True
        return f"{self.token}-{next(self._numbers)}"

    def starting(self, tag: str, since: int) -> None:
        """A bot is about to be started with ``tag``: its processes are left alone from now
        on, while it plays. Its leader is made in another thread while the event loop runs
        on, sweeps included, so this comes first; until :meth:`started` tells the leader's
        pid, sweeps leave zombies be (one may be that leader).

        ``since`` is :func:`~arena_kernel.processes.procfs.boot_ticks` taken now, so no
        later than the leader's start as ``/proc`` tells it (read there, it cost every bot
        start a tenth of a millisecond or more of the event loop's time). Sweeps only ask
        whether a bot started after a process, which an earlier time answers no more
        often: a process is spared a moment longer at worst.
        """
        self._playing[tag] = since
        self._starting.add(tag)

    def started(self, pid: int, tag: str) -> None:
        """The leader of the bot of ``tag`` is ``pid``."""
        self._own.add(pid)
        self._starting.discard(tag)

    def reaped(self, pid: int | None, tag: str) -> None:
        """A bot's leader was reaped (None: its start failed before there was one):
        whatever carries its tag from now on is a leftover."""
        if pid is not None:
            self._own.discard(pid)
        self._playing.pop(tag, None)
        self._starting.discard(tag)

    def keep(self, pid: int) -> None:
        """A child of the arena that is no bot (the warden), which sweeps must not reap."""
        self._own.add(pid)

    def forget(self, pid: int) -> None:
        self._own.discard(pid)

    async def sweep(self) -> None:
        """End every process left by a bot whose game is over (see the module docstring)."""
        deadline = time.monotonic() + SWEEP_LIMIT
        while killed := self._round():
            while not all_dead(killed):
                if time.monotonic() >= deadline:
                    return
                await asyncio.sleep(POLL)

    def sweep_now(self) -> None:
        """:meth:`sweep` without an event loop, blocking: for a bot ended while its ending
        is itself cancelled (the event loop shutting down)."""
        deadline = time.monotonic() + SWEEP_LIMIT
        while killed := self._round():
            if not wait_dead(killed, deadline):
                return

    def _round(self) -> list[Stat]:
        """Reap the bots' zombies among the arena's children, kill the leftovers and all
        below them; return what was killed."""
        if not self._adopting:
            return []
        me = os.getpid()
        leftovers = []
        for proc in all_processes():
            if proc.ppid != me or proc.pid in self._own:
                continue
            if proc.dead:
                if not self._starting and self._from_a_bot(proc):
                    self._reap(proc.pid)
            elif self._left_over(proc):
                leftovers.append(proc)
        return kill_trees(leftovers) if leftovers else []

    def _left_over(self, proc: Stat) -> bool:
        tag = environ_value(proc.pid, TAG)
        if given_by(self.token, tag):
            return tag not in self._playing
        if not self._marked or not no_new_privs(proc.pid):
            return False
        # A bot's process with its tag hidden: any bot running when it started may own it.
        return all(started > proc.started for started in self._playing.values())

    def _from_a_bot(self, zombie: Stat) -> bool:
        """Whether a zombie child of the arena is a bot's process. Without the mark, a
        zombie in a session other than the arena's is taken for one: the arena starts
        nothing else in a session of its own but its bots and its warden."""
        if self._marked:
            return bool(no_new_privs(zombie.pid))
        return zombie.session != os.getsid(0)

    @staticmethod
    def _reap(pid: int) -> None:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


reaper = Reaper()
"""The reaper of this process."""
