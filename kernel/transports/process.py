"""Bot processes, shared by the ``stdio`` and ``tcp`` transports: starting them with their
limits, watching their exit, ending them.

Every bot runs in its own session, hence its own process group, so that ending it also ends
whatever it forked. Its exit is watched through a pidfd on the event loop (no child watcher,
no threads), and the leader is left a zombie until :meth:`BotProcess.end` reaps it: as long
as the zombie exists its pid, and so the group id we signal, cannot be reused by anyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import resource
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from kernel.errors import ArenaError
from kernel.transports.base import ConnectError, Launch, Limits
from kernel.transports.procfs import group_members, stat_fields
from kernel.transports.stderr_log import StderrLog

GROUP_EXIT_LIMIT = 5.0
"""How long :meth:`BotProcess.end` waits for SIGKILLed group members to be gone. Dying is
quick, but only once a process leaves an uninterruptible wait (a hung network file
system): past this, nothing more can be done, and the run should not hang on it."""


def stderr_log_path(launch: Launch) -> Path:
    """Where a bot's diagnostics go; in-process bots write their tracebacks there too."""
    return launch.log_dir / f"{launch.identifier}.stderr"


def describe_exit(
    code: int, status: int, cpu_limit: int | None = None, cpu_used: float | None = None
) -> str:
    """Say how a process ended, in the words a fault message needs.

    ``code`` is the ``si_code`` of ``waitid`` (``CLD_EXITED``, ``CLD_KILLED``,
    ``CLD_DUMPED``) and ``status`` its ``si_status``. A CPU-time limit shows as SIGXCPU at
    the soft limit, or as SIGKILL one second later for a bot that caught SIGXCPU; the latter
    is recognised by ``cpu_used``, the seconds the process had consumed.
    """
    if code == os.CLD_EXITED:
        return f"exited with status {status}"
    try:
        name = signal.Signals(status).name
    except ValueError:
        name = f"signal {status}"
    description = f"killed by {name}"
    if cpu_limit is not None and (
        status == signal.SIGXCPU
        or (status == signal.SIGKILL and cpu_used is not None and cpu_used >= cpu_limit)
    ):
        description += f" (CPU time limit of {cpu_limit} s exceeded)"
    return description


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of a (zombie) process, from ``/proc``."""
    fields = stat_fields(pid)
    if fields is None:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _group_running(pgid: int) -> bool:
    """Whether a process of the group is still running; zombies (already dead, waiting for
    whoever reaps orphans) do not count. Only a group that forked needs the ``/proc`` scan."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return any(True for _ in group_members(pgid, living=True))


@functools.cache
def _prlimit() -> str:
    """The util-linux ``prlimit`` command, which sets a bot's limits and then runs it."""
    path = shutil.which("prlimit")
    if path is None:
        raise ArenaError(
            "cannot start bots: the prlimit command (util-linux) is not installed, "
            "and arena needs it to set their resource limits"
        )
    return path


def limit_options(limits: Limits) -> list[str]:
    """The ``prlimit`` options that set the resource limits of a bot.

    The limits are set by an ``exec`` of ``prlimit`` in the child rather than by Python code
    between fork and exec (``preexec_fn``): that would force a full ``fork`` of the referee,
    which stalls its event loop for tens of milliseconds per bot, more the bigger the
    referee, while other games' replies wait to be read. Without it, the child is
    ``vfork``-ed.

    A limit above the inherited hard limit is lowered to it (an unprivileged arena cannot
    raise it). The CPU hard limit is one second above the soft one, so a bot first gets
    SIGXCPU, which a fault message can name, and SIGKILL only if it catches that. Core
    dumps are disabled: a tournament of crashing bots must not fill the disk.
    """
    wanted = {
        "data": (
            resource.RLIMIT_DATA,
            (limits.memory_mb << 20) if limits.memory_mb is not None else None,
        ),
        "cpu": (resource.RLIMIT_CPU, limits.cpu_seconds),
        "nproc": (resource.RLIMIT_NPROC, limits.processes),
        "core": (resource.RLIMIT_CORE, 0),
    }
    options = []
    for name, (which, value) in wanted.items():
        if value is None:
            continue
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        if which == resource.RLIMIT_CPU and (hard == resource.RLIM_INFINITY or value < hard):
            hard = value + 1
        ceiling = "unlimited" if hard == resource.RLIM_INFINITY else str(hard)
        options.append(f"--{name}={value}:{ceiling}")
    return options


def missing_program(argv0: str, cwd: str | None, env: Mapping[str, str]) -> str | None:
    """What is wrong with the command of a bot, found as ``exec`` will look for it (a path
    with a slash from the bot's folder, a bare name on the ``PATH`` it is given), or None.

    Checked before the start, so that a typo is a clear start-up error rather than a bot
    that exits at once.
    """
    if "/" not in argv0:
        if shutil.which(argv0, path=env.get("PATH", os.defpath)) is None:
            return f'no command "{argv0}" on the PATH'
        return None
    folder = cwd or os.getcwd()
    path = os.path.join(folder, argv0)
    if not os.path.exists(path):
        return f'no such file: "{argv0}"' + ("" if os.path.isabs(argv0) else f" in {folder}")
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        return f'"{argv0}" is not an executable file'
    return None


class BotProcess:
    """One started bot: its process group, its exit and its stderr log.

    ``exited`` resolves, as soon as the leader exits, to a description such as
    ``"exited with status 3"``; the leader stays a zombie until :meth:`end`.
    """

    def __init__(
        self, popen: subprocess.Popen[bytes], stderr: StderrLog, limits: Limits, started: float
    ) -> None:
        self.pid = popen.pid
        self.started = started
        self._popen = popen
        self._stderr = stderr
        self._limits = limits
        self._loop = asyncio.get_running_loop()
        self.exited: asyncio.Future[str] = self._loop.create_future()
        self._pidfd = os.pidfd_open(popen.pid)
        self._loop.add_reader(self._pidfd, self._on_exit)
        self._ending: asyncio.Task[None] | None = None

    def _on_exit(self) -> None:
        info = os.waitid(os.P_PIDFD, self._pidfd, os.WEXITED | os.WNOWAIT | os.WNOHANG)
        if info is None:
            return
        self._loop.remove_reader(self._pidfd)
        cpu_used = _cpu_seconds(self.pid) if info.si_status == signal.SIGKILL else None
        description = describe_exit(
            info.si_code, info.si_status, self._limits.cpu_seconds, cpu_used
        )
        self.exited.set_result(description)

    def _signal_group(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, sig)

    async def end(self, grace: float) -> None:
        """SIGTERM the group, SIGKILL it after ``grace`` s (or as soon as the leader is gone),
        reap the leader. Idempotent; completes even if the caller is cancelled.

        The group is signalled even when the leader has already exited: a child it forked
        may still be running, holding the bot's pipes.
        """
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._end(grace))
        await asyncio.shield(self._ending)

    async def _end(self, grace: float) -> None:
        self._signal_group(signal.SIGTERM)
        if not self.exited.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.exited), grace)
        self._signal_group(signal.SIGKILL)
        await self.exited
        self._popen.wait()
        # SIGKILL is delivered at once but takes effect a moment later; the leader gone, the
        # group id stays reserved by any member still alive, so polling the group is safe.
        deadline = self._loop.time() + GROUP_EXIT_LIMIT
        while _group_running(self.pid) and self._loop.time() < deadline:
            self._signal_group(signal.SIGKILL)
            await asyncio.sleep(0.002)
        os.close(self._pidfd)
        self._stderr.close()


def spawn(
    launch: Launch,
    argv: list[str],
    *,
    stdin: int,
    stdout: int | None,
    env: Mapping[str, str] | None = None,
) -> BotProcess:
    """Start the bot of ``launch`` in a new session, with its limits and its stderr log.

    ``stdin`` and ``stdout`` are the child's ends (the caller closes its copies);
    ``stdout=None`` sends it to the stderr log, for bots whose channel is a socket. The
    environment is the arena's plus the program's plus ``ARENA_ID`` and ``env``.
    """
    program = launch.program
    full_env = {**os.environ, **program.env, "ARENA_ID": launch.identifier, **(env or {})}
    problem = missing_program(argv[0], program.cwd, full_env) if argv else "an empty command"
    if problem is not None:
        raise ConnectError(f'cannot start bot "{program.name}": {problem}')
    path = stderr_log_path(launch)
    try:
        launch.log_dir.mkdir(parents=True, exist_ok=True)
        log = open(path, "wb", buffering=0)  # noqa: SIM115 - owned by StderrLog
    except OSError as exc:
        raise ConnectError(f'cannot create the stderr log of bot "{program.name}": {exc}') from None
    err_r, err_w = os.pipe()
    started = time.monotonic()
    try:
        popen = subprocess.Popen(
            [_prlimit(), *limit_options(launch.limits), "--", *argv],
            stdin=stdin,
            stdout=err_w if stdout is None else stdout,
            stderr=err_w,
            cwd=program.cwd,
            env=full_env,
            start_new_session=True,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        os.close(err_r)
        log.close()
        raise ConnectError(f'cannot start bot "{program.name}": {exc}') from None
    finally:
        os.close(err_w)
    stderr = StderrLog(err_r, log, launch.limits.stderr_kb * 1024)
    return BotProcess(popen, stderr, launch.limits, started)
