"""One bot's sandbox: the bwrap command around its program, its process cap, its exit.

Namespaces: all of them (``--unshare-all``): its own PID namespace (it sees and can signal
only its own processes; when bwrap ends, the kernel ends everything in it), IPC, UTS,
cgroup, and network unless the organiser shares the machine's (``network = "host"``); a
tcp bot's seat is reached through a listener made inside its own network namespace
(:mod:`arena_kernel.sandbox.inner_listener`). Its own user namespace too, with no
capabilities and no further user namespaces (even when arena runs as root).
``--die-with-parent`` ends it with the arena.

An arena run as root runs each bot as a user id of its own (:mod:`.uids`): bwrap, as root,
makes the namespaces but no user namespace (in one, only root would be mapped), keeps only
the capabilities that change ids, and ``setpriv`` inside drops the bot to its id with no
capabilities left; a user namespace could not give it more, and the syscall filter keeps
it from making one.

The bot's folder is a private copy it may write (:mod:`.private_folder`), made afresh for
each start in the ``workspace`` the caller names.

Its system calls go through the syscall filter (:mod:`.seccomp`) unless the organiser
opens them all: bwrap reads the program from a descriptor made for each start
(``--seccomp``) and loads it last, after it has made the namespaces, so that it binds the
bot and everything it starts, and nothing of bwrap's own setup.

The bot stays in the process group the arena signals (no ``--new-session``: the arena
starts every bot in a session of its own already, without a terminal to abuse).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from arena_kernel.sandbox.isolation import isolation
from arena_kernel.sandbox.pids import PidsCgroup
from arena_kernel.sandbox.private_folder import PrivateFolder
from arena_kernel.sandbox.uids import drop_command
from arena_kernel.sandbox.view import View, mount_args


@dataclass
class Confined:
    """One start of a sandboxed bot: its command, the process cap made for it and its
    private folder; :meth:`close` once the bot's processes are gone."""

    argv: list[str]
    cgroup: PidsCgroup | None = None
    folder: PrivateFolder | None = None
    filter_fd: int | None = None
    """Where bwrap reads the syscall filter from: the command inherits it (:attr:`pass_fds`),
    and :meth:`started` closes it once the command has it."""

    @property
    def pass_fds(self) -> tuple[int, ...]:
        """The descriptors the command must inherit."""
        return () if self.filter_fd is None else (self.filter_fd,)

    def started(self) -> None:
        """Close what only the command's start needed, once it is started."""
        if self.filter_fd is not None:
            os.close(self.filter_fd)
            self.filter_fd = None

    def close(self) -> None:
        self.started()
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None
        if self.folder is not None:
            self.folder.keep_writes()
            self.folder = None


@dataclass(frozen=True)
class Sandbox:
    """How to run one bot sandboxed: ``bwrap`` is the program, ``view`` what it sees.
    ``host_network``: share the machine's network; ``pids_parent``: where its process
    cap's cgroup goes (None: ``RLIMIT_NPROC`` only). ``env``: set inside (``HOME`` and
    ``TMPDIR`` point at its /tmp unless the bot's own ``env`` sets them)."""

    bwrap: str
    view: View
    host_network: bool = False
    pids_parent: Path | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    uid: int | None = None
    """The bot's own user id (an arena run as root), or None: the arena's user."""
    private_folder: bool = True
    """Whether the bot's folder is a private copy it may write (else it is read-only)."""
    mount_points: tuple[Path, ...] = ()
    """Paths inside the folder that something else is mounted on (left out of the copy)."""
    syscall_filter: bytes | None = None
    """The seccomp program the bot runs under (:mod:`.seccomp`), or None: every system call
    is open to it."""

    def reading(self, paths: Iterable[Path]) -> Sandbox:
        """This sandbox, with ``paths`` visible read-only too."""
        view = self.view.replace(read_only=(*self.view.read_only, *paths))
        return replace(self, view=view)

    def command(self, argv: list[str], processes: int | None, workspace: Path) -> Confined:
        """The start of ``argv`` in this sandbox: its command and what was made for it. The
        caller starts the command in the cgroup
        (:func:`~arena_kernel.sandbox.cgroups.join_command`) and closes it once the bot is
        gone. ``workspace``: where the bot's private folder is made (it must be hidden from
        every bot)."""
        confined = Confined(argv=[])
        try:
            if processes is not None and self.pids_parent is not None:
                # Two processes more than the bot's own: bwrap, its init in the namespace.
                confined.cgroup = PidsCgroup(self.pids_parent, processes + 2)
            folder = self.view.folder
            if folder is not None and self.private_folder:
                confined.folder = PrivateFolder(
                    folder,
                    workspace,
                    left_out=self.view.hidden,
                    mount_points=self.mount_points,
                    uid=self.uid,
                )
            if self.syscall_filter is not None:
                # Here, not at the top: the probe's sandbox check needs this module and
                # not libseccomp's bindings.
                from arena_kernel.sandbox.seccomp import program_fd

                confined.filter_fd = program_fd(self.syscall_filter)
        except BaseException:
            confined.close()
            raise
        network = ["--share-net"] if self.host_network else []
        env = [arg for key, value in self.env.items() for arg in ("--setenv", key, value)]
        drop = drop_command(self.uid) if self.uid is not None else []
        seccomp = [] if confined.filter_fd is None else ["--seccomp", str(confined.filter_fd)]
        shown = confined.folder.mounts() if confined.folder is not None else None
        confined.argv = [
            self.bwrap,
            *isolation(self.uid),
            *network,
            *mount_args(self.view, shown),
            *env,
            *seccomp,
            "--chdir",
            self.view.cwd,
            "--",
            *drop,
            *argv,
        ]
        return confined


def signal_of_exit(status: int) -> int | None:
    """The signal that killed a sandboxed bot, from bwrap's exit status: bwrap exits with
    the bot's status, or 128 plus the signal that killed it (so a bot that exits with 137
    on its own reads as killed by SIGKILL)."""
    number = status - 128
    valid = {int(s) for s in signal.Signals}
    return number if number in valid else None


def private_env(bot_env: Mapping[str, str]) -> dict[str, str]:
    """``HOME`` and ``TMPDIR`` inside the sandbox: its own /tmp, where the organiser's home
    is not there, unless the bot's ``env`` says otherwise."""
    return {key: "/tmp" for key in ("HOME", "TMPDIR") if key not in bot_env}
