"""One bot's sandbox: the bwrap command around its program, its process cap, its exit.

Namespaces: all of them (``--unshare-all``): its own PID namespace (it sees and can signal
only its own processes; when bwrap ends, the kernel ends everything in it), IPC, UTS,
cgroup, and network unless the organiser shares the machine's (``network = "host"``); a
tcp bot's seat is reached through a listener made inside its own network namespace
(:mod:`arena_kernel.sandbox.inner_listener`). Its own user namespace too, with no
capabilities and no further user namespaces (even when arena runs as root).
``--die-with-parent`` ends it with the arena.

The bot stays in the process group the arena signals (no ``--new-session``: the arena
starts every bot in a session of its own already, without a terminal to abuse).
"""

from __future__ import annotations

import signal
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from arena_kernel.sandbox.pids import PidsCgroup
from arena_kernel.sandbox.view import View, mount_args

ISOLATION = (
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--cap-drop",
    "ALL",
    "--die-with-parent",
)


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

    def reading(self, paths: Iterable[Path]) -> Sandbox:
        """This sandbox, with ``paths`` visible read-only too."""
        view = replace(self.view, read_only=(*self.view.read_only, *paths))
        return replace(self, view=view)

    def command(
        self, argv: list[str], processes: int | None
    ) -> tuple[list[str], PidsCgroup | None]:
        """The command that runs ``argv`` in this sandbox, and the cgroup made for it: the
        caller starts the command in it (:func:`~arena_kernel.sandbox.cgroups.join_command`)
        and removes it once the bot is gone."""
        cgroup = None
        if processes is not None and self.pids_parent is not None:
            # Two processes more than the bot's own: bwrap, and its init inside the namespace.
            cgroup = PidsCgroup(self.pids_parent, processes + 2)
        network = ["--share-net"] if self.host_network else []
        env = [arg for key, value in self.env.items() for arg in ("--setenv", key, value)]
        return [
            self.bwrap,
            *ISOLATION,
            *network,
            *mount_args(self.view),
            *env,
            "--chdir",
            self.view.cwd,
            "--",
            *argv,
        ], cgroup


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
