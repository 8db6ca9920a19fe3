"""Bot processes and the byte streams to them, shared by the ``stdio`` and ``tcp`` transports.

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
from typing import BinaryIO

from kernel.errors import ArenaError
from kernel.transports.base import ConnectError, Connection, Launch, Limits, OnClosed, OnData
from kernel.transports.procfs import group_members, stat_fields

READ_SIZE = 65536
"""One ``os.read`` per readiness event; large enough that a big message is a few reads."""

GROUP_EXIT_LIMIT = 5.0
"""How long :meth:`BotProcess.end` waits for SIGKILLed group members to be gone. Dying is
quick, but only once a process leaves an uninterruptible wait (a hung network file
system): past this, nothing more can be done, and the run should not hang on it."""

EXIT_WINDOW = 0.05
"""How long an end of output waits for the process exit that usually comes with it.

A dying process closes its files a moment before it becomes a zombie; waiting briefly lets
the fault say "killed by SIGSEGV" instead of the vaguer "closed its output". A bot that
really did only close its output (and runs on) has its fault reported that much later,
which changes nothing: no reply can come from it anyway.
"""


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


class StderrLog:
    """Copies a bot's stderr pipe to its log file, up to a cap, through the event loop.

    Past the cap the pipe is still drained (and the bytes discarded) so that a chatty bot
    never blocks on a full pipe in the middle of a game.
    """

    def __init__(self, fd: int, file: BinaryIO, cap_bytes: int) -> None:
        self._fd = fd
        self._file = file
        self._room = cap_bytes
        self._cap_kb = cap_bytes // 1024
        self._line_start = True
        self._loop = asyncio.get_running_loop()
        self._open = True
        os.set_blocking(fd, False)
        self._loop.add_reader(fd, self._readable)

    def _readable(self) -> None:
        self._read_once()

    def _read_once(self) -> bool:
        """Read one chunk; False once nothing more can be read now (EAGAIN or the end)."""
        try:
            data = os.read(self._fd, READ_SIZE)
        except BlockingIOError:
            return False
        except OSError:
            data = b""
        if not data:
            self.close()
            return False
        self._keep(data)
        return True

    def _keep(self, data: bytes) -> None:
        if self._room < 0:
            return
        kept = data[: self._room]
        if kept:
            self._file.write(kept)
            self._line_start = kept.endswith(b"\n")
        if len(data) > self._room:
            marker = f"[arena: stderr truncated at {self._cap_kb} KiB]\n".encode()
            self._file.write(marker if self._line_start else b"\n" + marker)
            self._room = -1
        else:
            self._room -= len(data)

    def close(self) -> None:
        """Keep what is still in the pipe, then stop: the bot is gone, or being ended."""
        if not self._open:
            return
        self._open = False
        self._loop.remove_reader(self._fd)
        with contextlib.suppress(OSError):
            while data := os.read(self._fd, READ_SIZE):
                self._keep(data)
        os.close(self._fd)
        self._file.close()


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


class FdConnection(Connection):
    """A bot reached through file descriptors: a child's pipes, or one socket for both ways.

    Reading is ``add_reader`` plus ``os.read`` and writing a direct ``os.write`` (buffered
    only when the bot does not keep up): asyncio's pipe transports cost a lot per message
    and cannot drain a pipe on demand. Data the bot sends before :meth:`start` waits in the
    kernel buffer. When the process exits, what it wrote last is read before ``on_closed``,
    and a child still holding the output open does not delay it.
    """

    def __init__(
        self,
        read_fd: int,
        write_fd: int,
        *,
        process: BotProcess | None,
        kill_grace: float,
        eof_reason: str,
    ) -> None:
        self._rfd = read_fd
        self._wfd = write_fd
        self._process = process
        self._grace = kill_grace
        self._eof_reason = eof_reason
        self.pid = process.pid if process else None
        self.started = process.started if process else time.monotonic()
        self._loop = asyncio.get_running_loop()
        os.set_blocking(read_fd, False)
        os.set_blocking(write_fd, False)
        self._on_data: OnData | None = None
        self._on_closed: OnClosed | None = None
        self._reading = False
        self._finished = False
        self._closing = False
        self._eof_timer: asyncio.TimerHandle | None = None
        self._out = bytearray()
        self._writable = True
        self._close_task: asyncio.Task[None] | None = None

    def start(self, on_data: OnData, on_closed: OnClosed) -> None:
        if self._on_data is not None:
            raise RuntimeError("connection already started")
        self._on_data, self._on_closed = on_data, on_closed
        self._reading = True
        self._loop.add_reader(self._rfd, self._readable)
        if self._process is not None:
            self._process.exited.add_done_callback(self._process_exited)

    def _readable(self) -> None:
        self._read_once()

    def _read_once(self) -> bool:
        """Deliver one chunk; False once nothing more can be read now."""
        try:
            data = os.read(self._rfd, READ_SIZE)
        except BlockingIOError:
            return False
        except ConnectionResetError:
            self._finish("reset the connection")
            return False
        except OSError as exc:
            self._finish(f"could not be read from: {exc.strerror}")
            return False
        if data:
            assert self._on_data is not None
            self._on_data(data)
            return self._reading
        self._stop_reading()
        if self._process is None or self._process.exited.done():
            self._finish(self._exit_reason())
        else:
            self._eof_timer = self._loop.call_later(EXIT_WINDOW, self._finish, self._eof_reason)
        return False

    def _exit_reason(self) -> str:
        if self._process is not None and self._process.exited.done():
            return self._process.exited.result()
        return self._eof_reason

    def _process_exited(self, _: asyncio.Future[str]) -> None:
        while self._reading and self._read_once():
            pass
        self._finish(self._exit_reason())

    def _stop_reading(self) -> None:
        if self._reading:
            self._reading = False
            self._loop.remove_reader(self._rfd)

    def _finish(self, reason: str) -> None:
        if self._finished or self._closing:
            return
        self._finished = True
        self._stop_reading()
        if self._eof_timer is not None:
            self._eof_timer.cancel()
        assert self._on_closed is not None
        self._on_closed(reason)

    def write(self, data: bytes) -> None:
        if self._closing or not self._writable or not data:
            return
        if self._out:
            self._out += data
            return
        try:
            sent = os.write(self._wfd, data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._writable = False
            return
        if sent < len(data):
            self._out += memoryview(data)[sent:]
            self._loop.add_writer(self._wfd, self._flush)

    def _flush(self) -> None:
        try:
            sent = os.write(self._wfd, self._out)
        except BlockingIOError:
            return
        except OSError:
            self._writable = False
            sent = len(self._out)
        del self._out[:sent]
        if not self._out:
            self._loop.remove_writer(self._wfd)

    async def close(self) -> None:
        """End the bot; from here on neither callback is called (the caller knows why)."""
        if self._close_task is None:
            self._close_task = asyncio.ensure_future(self._close())
        await asyncio.shield(self._close_task)

    async def _close(self) -> None:
        self._closing = True
        self._stop_reading()
        if self._eof_timer is not None:
            self._eof_timer.cancel()
        if self._out:
            self._loop.remove_writer(self._wfd)
            self._out.clear()
        os.close(self._wfd)
        if self._process is not None:
            await self._process.end(self._grace)
        if self._rfd != self._wfd:
            os.close(self._rfd)
