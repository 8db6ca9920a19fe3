"""The programs every bot's command is started through: its parent-death signal, its
``no_new_privs`` mark and its resource limits, set in the child before the bot's first
instruction."""

from __future__ import annotations

import functools
import resource
import shutil

from arena_kernel.errors import SetupError
from arena_kernel.resource_limits import ResourceLimits


@functools.cache
def _util_linux(command: str) -> str:
    """The path of a util-linux command arena starts every bot through."""
    path = shutil.which(command)
    if path is None:
        raise SetupError(
            f"cannot start bots: the {command} command (util-linux) is not installed, "
            "and arena needs it to start them safely"
        )
    return path


def launcher(limits: ResourceLimits) -> list[str]:
    """The commands a bot's argv is run through, which ``exec`` each other in the child.

    ``setpriv`` gives the bot a parent-death signal (SIGKILL when the arena dies, even by
    ``kill -9``; a bot started in the very instant the arena dies may miss it, and is
    then the :mod:`~arena_kernel.processes.warden`'s) and ``no_new_privs`` (the mark of a
    bot's process, see :mod:`~arena_kernel.processes.reaper`; it also keeps set-user-ID
    programs from raising a bot's privileges); ``prlimit`` sets its resource limits
    (:func:`limit_options`).
    Programs rather than Python code between fork and exec: see :func:`limit_options`.
    """
    return [
        _util_linux("setpriv"),
        "--pdeathsig=KILL",
        "--no-new-privs",
        _util_linux("prlimit"),
        *limit_options(limits),
        "--",
    ]


def limit_options(limits: ResourceLimits) -> list[str]:
    """The ``prlimit`` options that set the resource limits of a bot.

    The limits are set by an ``exec`` of ``prlimit`` in the child rather than by Python code
    between fork and exec (``preexec_fn``): that would force a full ``fork`` of the referee,
    which stalls its event loop for tens of milliseconds per bot, more the bigger the
    referee, while other games' replies wait to be read. Without it, the child is
    ``vfork``-ed. (A bot forked from its warm parent, :mod:`arena_kernel.bots.forkserver`,
    sets the same limits itself.)
    """
    return [f"--{name}={soft}:{hard}" for name, (soft, hard) in limit_values(limits).items()]


def limit_values(limits: ResourceLimits) -> dict[str, tuple[int, int]]:
    """The resource limits of a bot, soft and hard, by ``prlimit``'s name for each.

    Each hard limit is set too, so that a bot cannot raise its soft limits back
    (``setrlimit`` lets any process raise a soft limit up to the hard one). A limit above
    the inherited hard limit is lowered to it (an unprivileged arena cannot raise it). The
    CPU hard limit is one second above the soft one, so a bot first gets SIGXCPU, which a
    fault message can name, and SIGKILL only if it catches that. Core dumps are disabled:
    a tournament of crashing bots must not fill the disk.
    """
    wanted = {
        "data": (
            resource.RLIMIT_DATA,
            (limits.memory_mb << 20) if limits.memory_mb is not None else None,
        ),
        "cpu": (resource.RLIMIT_CPU, limits.cpu_seconds),
        "nproc": (resource.RLIMIT_NPROC, limits.processes),
        "fsize": (resource.RLIMIT_FSIZE, (limits.write_mb << 20) if limits.write_mb else None),
        "core": (resource.RLIMIT_CORE, 0),
    }
    values = {}
    for name, (which, value) in wanted.items():
        if value is None:
            continue
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        ceiling = value + 1 if which == resource.RLIMIT_CPU else value
        if hard != resource.RLIM_INFINITY:
            ceiling = min(ceiling, hard)
        values[name] = (value, ceiling)
    return values
