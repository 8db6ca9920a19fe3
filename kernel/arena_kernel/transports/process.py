"""Bot processes, shared by the ``stdio`` and ``tcp`` transports: starting them with their
limits, watching their exit, ending them.

Every bot runs in its own session, hence its own process group, so that ending it also ends
whatever it forked. Its exit is watched through a pidfd on the event loop (no child watcher,
no threads), and the leader is left a zombie until :meth:`BotProcess.end` reaps it: as long
as the zombie exists its pid, and so the group id we signal, cannot be reused by anyone else.
What left the group (``setsid``, a double fork) is found and ended once the group is gone,
in the bot's cgroups (:mod:`~arena_kernel.sandbox.bot_cgroups`) and by the
:mod:`~arena_kernel.processes.reaper`, and a bot whose arena dies is killed with it (a
parent-death signal, then the :mod:`~arena_kernel.processes.warden`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping
from typing import Protocol

from arena_kernel.errors import SetupError
from arena_kernel.processes.cancel_proof import to_the_end
from arena_kernel.processes.cpu_meter import CgroupMeter, CpuMeter, TreeMeter
from arena_kernel.processes.fd_shortage import arena_descriptors
from arena_kernel.processes.launcher import launcher
from arena_kernel.processes.procfs import boot_ticks, group_members, stat_fields
from arena_kernel.processes.reaper import TAG, reaper
from arena_kernel.processes.spawn_threads import popen_aside
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.sandbox.bot_cgroups import BotCgroups
from arena_kernel.sandbox.bwrap import Confined, signal_of_exit
from arena_kernel.transports.base import ConnectError, Launch
from arena_kernel.transports.stderr_log import (
    StderrLog,
    discard_stale_log,
    private_folder_path,
    stderr_log_path,
)

GROUP_EXIT_LIMIT = 5.0
"""How long :meth:`BotProcess.end` waits for SIGKILLed group members to be gone. Dying is
quick, but only once a process leaves an uninterruptible wait (a hung network file
system): past this, nothing more can be done, and the run should not hang on it."""


def describe_exit(
    code: int,
    status: int,
    cpu_limit: int | None = None,
    cpu_used: float | None = None,
    oom_mb: int | None = None,
) -> str:
    """Say how a process ended, in the words a fault message needs.

    ``code`` is the ``si_code`` of ``waitid`` (``CLD_EXITED``, ``CLD_KILLED``,
    ``CLD_DUMPED``) and ``status`` its ``si_status``. A CPU-time limit shows as SIGXCPU at
    the soft limit, or as SIGKILL one second later for a bot that caught SIGXCPU; the latter
    is recognised by ``cpu_used``, the seconds the process had consumed. ``oom_mb`` is the
    bot's ``memory_mb``, given when its memory cgroup counted an out-of-memory kill: the
    kernel's SIGKILL then, or the exit of a bot that outlived the process it lost.
    """
    if oom_mb is not None:
        cause = f"its processes together passed memory_mb = {oom_mb} MiB"
        if code != os.CLD_EXITED and status == signal.SIGKILL:
            return f"killed by the out-of-memory killer: {cause}"
        plain = describe_exit(code, status, cpu_limit, cpu_used)
        return f"{plain}, after the out-of-memory killer ended one of its processes: {cause}"
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
    elif status == signal.SIGXFSZ:
        description += " (it wrote a file past the write_mb limit)"
    return description


def _cpu_seconds(pid: int, *, children: bool = False) -> float | None:
    """User plus system CPU time of a (zombie) process, from ``/proc``; with ``children``,
    that of the children it reaped too (a sandbox's bwrap, whose bot is a grandchild)."""
    fields = stat_fields(pid)
    if fields is None:
        return None
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def _group_running(pgid: int) -> bool:
    """Whether a process of the group is still running; zombies (already dead, waiting for
    whoever reaps orphans) do not count. Only a group that forked needs the ``/proc`` scan.

    A scan the arena cannot make (out of file descriptors, as a bot holding connections
    can make it) answers no: the group has had its SIGKILL, and what still runs of it is
    ended by the run's last sweep, or by the warden."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    try:
        return any(True for _ in group_members(pgid, living=True))
    except OSError:
        return False


PASSED_ENV = frozenset(
    {
        "PATH",
        "HOME",
        "USER",
        "LOGNAME",
        "SHELL",
        "TERM",
        "TZ",
        "TMPDIR",
        "LANG",
        "LANGUAGE",
        "JAVA_HOME",
        "PYENV_ROOT",
        "PYENV_VERSION",
    }
)
"""The variables of the arena's environment a bot is given (and every ``LC_*``): what
finds and runs programs and sets the locale. The rest (tokens, passwords, cloud
credentials an organiser exported) never reaches a bot; a bot that needs a variable gets
it from its own ``env`` table."""


def passed_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The part of ``environ`` a bot is given (:data:`PASSED_ENV`)."""
    return {
        key: value for key, value in environ.items() if key in PASSED_ENV or key.startswith("LC_")
    }


def arena_variables(launch: Launch) -> dict[str, str]:
    """What the arena itself tells a bot it starts in its environment: its identifier
    (``ARENA_ID``) and its game's clocks (:data:`arena_kernel.bot_clocks.ENVIRONMENT`)."""
    told = {} if launch.clocks is None else launch.clocks.environment()
    return {"ARENA_ID": launch.identifier, **told}


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


class Leader(Protocol):
    """The first process of a bot, as :class:`BotProcess` ends it: its pid, and reaping it
    once it exited (a ``subprocess.Popen``, or a bot forked from its warm parent, which
    reaps it when asked: :mod:`arena_kernel.transports.warm_start`)."""

    @property
    def pid(self) -> int: ...

    def wait(self, timeout: float | None = None) -> int | None: ...


class BotProcess:
    """One started bot: its process group, its exit and its stderr log.

    ``exited`` resolves, as soon as the leader exits, to a description such as
    ``"exited with status 3"``; the leader stays a zombie until :meth:`end`. ``tag`` is the
    bot's ``ARENA_TAG``, which every process it starts inherits. ``meter``: the CPU time of
    its processes, when it was started for a CPU-time clock. ``cgroups``: the bot's cgroups
    (:mod:`~arena_kernel.sandbox.bot_cgroups`); ``out_of_memory`` says, once it exited,
    whether the out-of-memory killer ended one of its processes for passing its memory cap.
    """

    def __init__(
        self,
        popen: Leader,
        pidfd: int,
        tag: str,
        stderr: StderrLog,
        limits: ResourceLimits,
        started: float,
        confined: Confined | None = None,
        meter: CpuMeter | None = None,
        cgroups: BotCgroups | None = None,
    ) -> None:
        self.pid = popen.pid
        self.sandboxed = confined is not None
        self._confined = confined
        self.meter = meter
        self._cgroups = cgroups
        self.out_of_memory = False
        self.tag = tag
        self.started = started
        self._popen = popen
        self._pidfd = pidfd
        self._stderr = stderr
        self._limits = limits
        self._loop = asyncio.get_running_loop()
        self.exited: asyncio.Future[str] = self._loop.create_future()
        self._watching = True
        self._loop.add_reader(self._pidfd, self._on_exit)
        self._ending: asyncio.Task[None] | None = None

    def _on_exit(self) -> None:
        info = os.waitid(os.P_PIDFD, self._pidfd, os.WEXITED | os.WNOWAIT | os.WNOHANG)
        if info is None:
            return
        self._stop_watching()
        self._exited_with(info.si_code, info.si_status)

    def _exited_with(self, code: int, status: int) -> None:
        """The leader exited (``waitid``'s ``si_code`` and ``si_status``): say how."""
        if self.exited.done():
            return
        if self.sandboxed and code == os.CLD_EXITED and (killer := signal_of_exit(status)):
            code, status = os.CLD_KILLED, killer
        cpu_used = None
        if status == signal.SIGKILL:
            cpu_used = _cpu_seconds(self.pid, children=self.sandboxed)
        self.out_of_memory = self._cgroups is not None and self._cgroups.oom_kills() > 0
        cap = self._limits.memory_mb if self.out_of_memory else None
        description = describe_exit(code, status, self._limits.cpu_seconds, cpu_used, cap)
        self.exited.set_result(description)

    def _stop_watching(self) -> None:
        if self._watching:
            self._watching = False
            self._loop.remove_reader(self._pidfd)

    def _signal_group(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, sig)

    async def end(self, grace: float) -> None:
        """SIGTERM the group, SIGKILL it after ``grace`` s (or as soon as the leader is gone),
        reap the leader, then end whatever the bot started outside its group. Idempotent.
        A caller cancelled meanwhile still waits for the end (see
        :mod:`~arena_kernel.processes.cancel_proof`); if the ending itself is cancelled (the
        event loop shutting down), it finishes at once, blocking.

        The group is signalled even when the leader has already exited: a child it forked
        may still be running, holding the bot's pipes.
        """
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._end(grace))
        await to_the_end(self._ending)

    async def _end(self, grace: float) -> None:
        try:
            self._signal_group(signal.SIGTERM)
            if not self.exited.done():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(self.exited), grace)
            self._signal_group(signal.SIGKILL)
            await self.exited
            self._reap()
            # SIGKILL is delivered at once but takes effect a moment later; the leader gone,
            # the group id stays reserved by any member still alive, so polling it is safe.
            deadline = time.monotonic() + GROUP_EXIT_LIMIT
            while _group_running(self.pid) and time.monotonic() < deadline:
                self._signal_group(signal.SIGKILL)
                await asyncio.sleep(0.002)
            while self._kill_leftovers() and time.monotonic() < deadline:
                await asyncio.sleep(0.002)
            with contextlib.suppress(OSError):  # no descriptor for /proc: see _group_running
                await reaper.sweep()
        except asyncio.CancelledError:
            self._end_now()
            raise
        finally:
            self._stop_watching()
            os.close(self._pidfd)
            self._stderr.close()
            if self._confined is not None:
                self._confined.close()
            if self.meter is not None:
                self.meter.close()
            if self._cgroups is not None:
                self._cgroups.remove()

    def _kill_leftovers(self) -> bool:
        """SIGKILL what is left of the bot in its cgroups, outside its group (a double
        fork that emptied its environment, found without ``/proc``); whether there was any."""
        return self._cgroups is not None and self._cgroups.kill_leftovers()

    def _end_now(self) -> None:
        """:meth:`end` without waiting for the event loop, and without a grace period."""
        self._signal_group(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._reap()
        deadline = time.monotonic() + GROUP_EXIT_LIMIT
        while _group_running(self.pid) and time.monotonic() < deadline:
            self._signal_group(signal.SIGKILL)
            time.sleep(0.002)
        while self._kill_leftovers() and time.monotonic() < deadline:
            time.sleep(0.002)
        reaper.sweep_now()

    def _reap(self) -> None:
        self._popen.wait(GROUP_EXIT_LIMIT)
        reaper.reaped(self.pid, self.tag)


def spawn(
    launch: Launch,
    argv: list[str],
    *,
    stdin: int,
    stdout: int | None,
    env: Mapping[str, str] | None = None,
    pass_fds: tuple[int, ...] = (),
) -> BotProcess:
    """Start the bot of ``launch`` in a new session, with its limits and its stderr log.

    ``stdin`` and ``stdout`` are the child's ends (the caller closes its copies);
    ``stdout=None`` sends it to the stderr log, for bots whose channel is a socket. The
    environment is the arena's :data:`PASSED_ENV` plus the program's plus
    :func:`arena_variables`, ``env`` and the bot's ``ARENA_TAG``. ``pass_fds`` are
    inherited by the child (a sandboxed tcp bot's channel to the arena). Raises
    :class:`ConnectError` when the bot cannot be started, and :class:`SetupError` when the
    arena cannot start anything (out of file descriptors, a missing util-linux).

    All of it happens on the caller's thread before it returns, as a transport needs that
    must know the process before the event loop runs anything else (the tcp transport's
    listener); :func:`spawn_aside` lets the event loop run while the process is made.
    """
    start = _Start(launch, argv, env)
    try:
        start.confine()
        start.prepare()
        return start.finish(start.popen(stdin, stdout, pass_fds))
    except BaseException:
        start.abandon()
        raise


async def spawn_aside(
    launch: Launch,
    argv: list[str],
    *,
    stdin: int,
    stdout: int | None,
    env: Mapping[str, str] | None = None,
    pass_fds: tuple[int, ...] = (),
) -> BotProcess:
    """:func:`spawn`, with the sandbox (the copy of the bot's folder) and the process made in
    worker threads while the event loop runs on (see
    :mod:`~arena_kernel.processes.spawn_threads`)."""
    start = _Start(launch, argv, env)
    try:
        await to_the_end(asyncio.get_running_loop().run_in_executor(None, start.confine))
        start.prepare()
        popen = await popen_aside(functools.partial(start.popen, stdin, stdout, pass_fds))
        return start.finish(popen)
    except BaseException:
        start.abandon()
        raise


class _Start:
    """One start of a bot, step by step: its sandbox (:meth:`confine`, which may run in
    another thread), what else it needs ready (:meth:`prepare`), its process
    (:meth:`popen`, which may run in another thread), and what it is then given
    (:meth:`finish`); :meth:`abandon` undoes what a failed start left."""

    def __init__(self, launch: Launch, argv: list[str], env: Mapping[str, str] | None) -> None:
        program = launch.program
        self.launch = launch
        self.bot = f'bot "{program.name}"'
        self.tag = reaper.new_tag()
        self.env = {
            **passed_environment(os.environ),
            **program.env,
            **arena_variables(launch),
            **(env or {}),
        }
        self.env[TAG] = self.tag
        problem = missing_program(argv[0], program.cwd, self.env) if argv else "an empty command"
        if problem is not None:
            raise ConnectError(f"cannot start {self.bot}: {problem}")
        self.argv = argv
        self.confined: Confined | None = None
        self.cgroups: BotCgroups | None = None
        self.err_r: int | None = None
        self.err_w: int | None = None
        self.started = 0.0

    def confine(self) -> None:
        """The bot's sandbox, with its process cap and the private copy of its folder:
        file work that touches nothing but this start, so that it may run in a thread."""
        launch = self.launch
        if launch.sandbox is not None:
            try:
                self.confined = launch.sandbox.command(
                    self.argv, launch.limits.processes, private_folder_path(launch)
                )
            except OSError as exc:
                raise SetupError(
                    f"cannot start {self.bot}: cannot make its sandbox: {exc}"
                ) from None
            self.argv = self.confined.argv

    def prepare(self) -> None:
        """The bot's cgroups (its memory cap, CPU weight and, for a CPU-time clock, CPU
        accounting; its sandbox's process cap among them), a fresh stderr log, the stderr
        pipe."""
        launch = self.launch
        cap = self.confined.cgroup if self.confined is not None else None
        try:
            with arena_descriptors(self.bot):
                self.cgroups = BotCgroups.make(
                    launch.limits.memory_mb, launch.cpu_clock, None if cap is None else cap.path
                )
        except OSError as exc:
            raise SetupError(f"cannot start {self.bot}: cannot make its cgroups: {exc}") from None
        self.argv = [*self.cgroups.command(), *self.argv]
        discard_stale_log(launch)
        with arena_descriptors(self.bot):
            self.err_r, self.err_w = os.pipe()
        reaper.starting(self.tag, boot_ticks())

    def popen(
        self, stdin: int, stdout: int | None, pass_fds: tuple[int, ...]
    ) -> subprocess.Popen[bytes]:
        """The process. Touches nothing but this start, so that it may run in a thread."""
        assert self.err_w is not None
        self.started = time.monotonic()
        confined = self.confined
        if confined is not None:
            pass_fds = (*pass_fds, *confined.pass_fds)
        try:
            with arena_descriptors(self.bot):
                return subprocess.Popen(
                    [*launcher(self.launch.limits), *self.argv],
                    stdin=stdin,
                    stdout=self.err_w if stdout is None else stdout,
                    stderr=self.err_w,
                    cwd=self.launch.program.cwd,
                    env=self.env,
                    start_new_session=True,
                    pass_fds=pass_fds,
                )
        except (OSError, subprocess.SubprocessError) as exc:
            raise ConnectError(f"cannot start {self.bot}: {exc}") from None
        finally:
            os.close(self.err_w)
            self.err_w = None
            if confined is not None:
                confined.started()

    def finish(self, popen: subprocess.Popen[bytes]) -> BotProcess:
        """The process's exit watch and stderr log."""
        reaper.started(popen.pid, self.tag)
        try:
            with arena_descriptors(self.bot):
                pidfd = os.pidfd_open(popen.pid)
        except BaseException:
            os.killpg(popen.pid, signal.SIGKILL)
            popen.wait()
            reaper.reaped(popen.pid, self.tag)
            raise
        assert self.err_r is not None
        limits = self.launch.limits
        stderr = StderrLog(self.err_r, stderr_log_path(self.launch), limits.stderr_kb * 1024)
        self.err_r = None
        meter: CpuMeter | None = None
        if self.launch.cpu_clock:
            assert self.cgroups is not None, "prepare() first"
            meter = CgroupMeter.make(self.cgroups) or TreeMeter(popen.pid)
        confined, self.confined = self.confined, None
        return BotProcess(
            popen, pidfd, self.tag, stderr, limits, self.started, confined, meter, self.cgroups
        )

    def abandon(self) -> None:
        """Close what a failed start left open and remove its process cap (its process, if
        any, is gone: :meth:`finish` and :func:`popen_aside` see to that)."""
        for fd in (self.err_r, self.err_w):
            if fd is not None:
                os.close(fd)
        self.err_r = self.err_w = None
        reaper.reaped(None, self.tag)
        if self.confined is not None:
            self.confined.close()
            self.confined = None
        if self.cgroups is not None:
            self.cgroups.remove()
            self.cgroups = None
