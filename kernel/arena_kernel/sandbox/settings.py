"""What a match file says about the sandbox: the ``[sandbox]`` table (every bot) and a
bot's own ``[bots.sandbox]`` table (added to the run's), declared once here.

The settings only say what the organiser wants; :mod:`arena_kernel.sandbox.view` turns them,
with the bot's folder and what the run must hide, into what a bot sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from arena_kernel.options import Option

Mode = Literal["auto", "required", "none"]
Network = Literal["none", "host"]
Syscalls = Literal["filtered", "all"]

MODES: tuple[Mode, ...] = ("auto", "required", "none")
NETWORKS: tuple[Network, ...] = ("none", "host")
SYSCALLS: tuple[Syscalls, ...] = ("filtered", "all")


@dataclass(frozen=True)
class BotSandbox:
    """One bot's sandbox wishes, the run's merged with its own. Paths are absolute."""

    network: Network = "none"
    syscalls: Syscalls = "filtered"
    tmp_mb: int = 64
    writable: tuple[Path, ...] = ()
    read_only: tuple[Path, ...] = ()
    read_write: tuple[Path, ...] = ()


@dataclass(frozen=True)
class SandboxSettings:
    """The ``[sandbox]`` table, checked, with paths made absolute. A bot's own table is
    the keyword arguments of :meth:`for_bot`."""

    mode: Mode = "auto"
    network: Network = "none"
    syscalls: Syscalls = "filtered"
    tmp_mb: int = 64
    read_only: tuple[Path, ...] = ()
    read_write: tuple[Path, ...] = ()

    def for_bot(
        self,
        network: Network | None = None,
        syscalls: Syscalls | None = None,
        writable: tuple[Path, ...] = (),
        read_only: tuple[Path, ...] = (),
        read_write: tuple[Path, ...] = (),
    ) -> BotSandbox:
        """A bot's sandbox: the run's settings with the bot's own table on top."""
        return BotSandbox(
            network=network or self.network,
            syscalls=syscalls or self.syscalls,
            tmp_mb=self.tmp_mb,
            writable=writable,
            read_only=(*self.read_only, *read_only),
            read_write=(*self.read_write, *read_write),
        )


_DEFAULT = SandboxSettings()

SANDBOX_KEYS: Mapping[str, Option] = {
    "mode": Option(
        _DEFAULT.mode,
        '"auto": every bot the arena starts runs in a bubblewrap sandbox when this machine '
        'can make one, else unsandboxed with a warning in the run\'s header; "required": '
        'the run refuses to start without it; "none": bots run with the organiser\'s rights.',
        choices=MODES,
    ),
    "network": Option(
        _DEFAULT.network,
        '"none": a stdio bot has no network and a tcp bot reaches only the arena\'s port '
        'for its own seat; "host": the machine\'s network, for bots that need it.',
        choices=NETWORKS,
    ),
    "syscalls": Option(
        _DEFAULT.syscalls,
        '"filtered": a bot may not make the system calls no game needs and kernel exploits '
        "start from (new namespaces, io_uring, eBPF, ptrace...: see docs/sandbox.md); "
        '"all": every call, for a bot that needs one of them.',
        choices=SYSCALLS,
    ),
    "tmp_mb": Option(
        _DEFAULT.tmp_mb, "The size of each bot's private, empty /tmp, in MiB.", minimum=1
    ),
    "read_only": Option(
        _DEFAULT.read_only,
        "More paths every bot may read (relative to the match file's folder), at the same "
        "place inside the sandbox.",
        type=list[str],
    ),
    "read_write": Option(
        _DEFAULT.read_write,
        "More paths every bot may read and write (relative to the match file's folder).",
        type=list[str],
    ),
}
"""The keys of ``[sandbox]``, at :class:`SandboxSettings`' defaults."""

BOT_SANDBOX_KEYS: Mapping[str, Option] = {
    "network": Option(
        None,
        'This bot\'s network instead of the run\'s: "none" or "host".',
        type=str,
        choices=NETWORKS,
    ),
    "syscalls": Option(
        None,
        'This bot\'s system calls instead of the run\'s: "filtered" or "all".',
        type=str,
        choices=SYSCALLS,
    ),
    "writable": Option(
        (),
        "Paths inside the bot's folder (cwd), relative to it, whose writes reach the "
        "organiser's folder and stay for its next games; the rest of its folder is a "
        "private copy it may write (see docs/sandbox.md).",
        type=list[str],
    ),
    "read_only": Option(
        (), "More paths this bot may read (relative to the match file's folder).", type=list[str]
    ),
    "read_write": Option(
        (),
        "More paths this bot may read and write (relative to the match file's folder).",
        type=list[str],
    ),
}
"""The keys of a bot's ``[bots.sandbox]`` table (its paths are added to the run's): the
keyword arguments of :meth:`SandboxSettings.for_bot`."""
