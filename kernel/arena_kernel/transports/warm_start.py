"""Starting arena's own Python bots warm: each is forked from a parent that has its
interpreter started and its module imported (:mod:`arena_kernel.bots.forkserver`), so that
it is ready to answer in milliseconds of CPU instead of a tenth of a second.

A built-in bot run as a program (``python -P -m MODULE ARGS``, :attr:`BotProgram.warm
<arena_kernel.transports.base.BotProgram.warm>`) gets, on its first start in the run, a
:class:`WarmParent`: the fork server, started as the bot itself would be (the same
sandbox, user id, system-call filter, ``no_new_privs``, parent-death signal, memory cap;
its own start-up logged as ``warm-NAME.stderr`` in the run's log folder) and kept for
the run. Each start of the bot is then a child of it (:func:`warm_spawn`), which is
confined as the parent is and besides, as a bot started cold:

- its process group and session of its own, its stdin, stdout and stderr log, nothing
  else of its parent's, the environment a cold start gives it;
- its own resource limits (``prlimit``'s, set by the child: its CPU time starts at zero);
- its own cgroups (memory cap, CPU weight, CPU-time total, process cap), which the arena
  puts it in before it runs a line of the bot: a byte on its *go* pipe lets it go on;
- on a CPU-time clock its meter counts it alone, from that moment.

What a warm start shares with the bot's other starts of the run, where a cold one has
its own: the sandbox's namespaces, its private ``/tmp`` and its copy of the bot's folder
(a cold start gets fresh ones). That is why only arena's own bots start warm, never a
match file's ``cmd``: their code is the arena's, not a participant's. A warm parent that
cannot be started, or dies, leaves the bot to cold starts for the rest of the run.

The parent tells each child's exit; the arena asks it to reap the child once the child's
process group is ended, so that until then the group's id cannot be reused.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Mapping

from arena_kernel.errors import SetupError
from arena_kernel.processes.cancel_proof import to_the_end
from arena_kernel.processes.cpu_meter import CgroupMeter, CpuMeter, TreeMeter
from arena_kernel.processes.fd_shortage import arena_descriptors
from arena_kernel.processes.launcher import limit_values
from arena_kernel.processes.procfs import boot_ticks
from arena_kernel.processes.reaper import TAG, reaper
from arena_kernel.sandbox.bot_cgroups import BotCgroups
from arena_kernel.sandbox.pids import PidsCgroup
from arena_kernel.transports.base import ConnectError, Launch
from arena_kernel.transports.process import (
    BotProcess,
    arena_variables,
    passed_environment,
    spawn_aside,
)
from arena_kernel.transports.stderr_log import StderrLog, discard_stale_log, stderr_log_path

SERVER = "arena_kernel.bots.forkserver"


def warm_module(argv: tuple[str, ...] | list[str], module: str | None) -> str | None:
    """The module a bot's ``argv`` runs if it is ``python -P -m module ...`` with this
    interpreter and ``module`` the bot's :attr:`~arena_kernel.transports.base.BotProgram.warm`
    (the shape of a built-in bot's command); None otherwise."""
    if module is None or tuple(argv[:4]) != (sys.executable, "-P", "-m", module):
        return None
    return module


class WarmParent:
    """One bot's fork server for the run: :meth:`start` it, :meth:`fork` a child per
    start, :meth:`aclose` it at the run's end."""

    def __init__(self, name: str, control: socket.socket, process: BotProcess) -> None:
        self.name = name
        self._control = control
        self.process = process
        self._loop = asyncio.get_running_loop()
        self._replies: asyncio.Queue[tuple[int, int] | None] = asyncio.Queue()
        """Answers to :meth:`fork` requests, in order: (pid here, pidfd), None for a failure."""
        self._children: dict[int, Callable[[int, int], None]] = {}
        """The children watched and not yet exited (pid in the parent's namespace) -> who
        hears of it."""
        self._exits: dict[int, tuple[int, int]] = {}
        """How the children exited that were not watched yet."""
        self._lock = asyncio.Lock()
        self._owed = 0
        """Starts asked for and not answered yet."""
        self.alive = True
        self._loop.add_reader(control.fileno(), self._readable)

    @classmethod
    async def start(cls, launch: Launch, module: str) -> WarmParent:
        """The warm parent of ``launch``'s bot, ready to fork; :class:`ConnectError` when it
        cannot be started or does not come up within the bot's start-up clock."""
        program = launch.program
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        own = dataclasses.replace(
            launch,
            identifier=f"warm-{launch.identifier}",
            log_dir=launch.log_dir.parent,
            limits=dataclasses.replace(launch.limits, cpu_seconds=None),
            cpu_clock=False,
        )
        argv = [sys.executable, "-P", "-m", SERVER, module]
        try:
            process = await spawn_aside(own, argv, stdin=theirs.fileno(), stdout=None)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        loop = asyncio.get_running_loop()
        try:
            ready = await asyncio.wait_for(loop.sock_recv(ours, 64), launch.startup)
        except (TimeoutError, OSError):
            ready = b""
        if ready != b"ready\n":
            ours.close()
            await process.end(launch.kill_grace)
            raise ConnectError(f'the warm parent of bot "{program.name}" did not come up')
        return cls(program.name, ours, process)

    async def fork(self, request: Mapping[str, object], fds: list[int]) -> tuple[int, int]:
        """A child for ``request`` (see :mod:`arena_kernel.bots.forkserver`) with ``fds``
        (its stdin, stdout, stderr and go pipe): its pid in the parent's namespace and a
        pidfd of it (:meth:`watch` it). Raises ConnectError when the parent is gone or
        cannot fork."""
        async with self._lock:
            if not self.alive:
                raise ConnectError(f'the warm parent of bot "{self.name}" is gone')
            message = b"start " + json.dumps(request).encode()
            try:
                socket.send_fds(self._control, [message], fds)
            except OSError as exc:
                raise ConnectError(f'the warm parent of bot "{self.name}": {exc}') from None
            self._owed += 1
            answer = asyncio.ensure_future(self._replies.get())
            try:
                reply = await asyncio.shield(answer)
            except asyncio.CancelledError:
                # The child may be on its way: it is killed as it comes, nothing waits for it.
                answer.add_done_callback(self._unwanted)
                raise
            if reply is None:
                raise ConnectError(f'the warm parent of bot "{self.name}" could not fork it')
            return reply

    def _unwanted(self, answer: asyncio.Future[tuple[int, int] | None]) -> None:
        """A child forked for a start that was given up: kill it, reap it once it exited."""
        reply = None if answer.cancelled() else answer.result()
        if reply is None:
            return
        pid_there, pidfd = reply
        with contextlib.suppress(OSError):
            os.killpg(pid_of(pidfd), signal.SIGKILL)
        os.close(pidfd)
        self.watch(pid_there, lambda _code, _status: self.reap(pid_there))

    def watch(self, pid: int, exited: Callable[[int, int], None]) -> None:
        """``exited(code, status)`` hears how the child ``pid`` exits (at once if it did)."""
        if pid in self._exits:
            exited(*self._exits.pop(pid))
        elif not self.alive:
            exited(os.CLD_KILLED, signal.SIGKILL)
        else:
            self._children[pid] = exited

    def reap(self, pid: int) -> None:
        """Reap the child ``pid`` (it exited, and its process group was ended)."""
        if self.alive:
            with contextlib.suppress(OSError):
                self._control.send(f"reap {pid}".encode())

    def _readable(self) -> None:
        try:
            data, fds, _flags, _addr = socket.recv_fds(self._control, 256, 1)
        except BlockingIOError:
            return
        except OSError:
            data, fds = b"", []
        words = data.decode("ascii", "replace").split()
        if not words:
            self._gone()
            return
        if words[0] == "started" and len(words) == 2 and len(fds) == 1 and words[1].isdigit():
            self._owed -= 1
            self._replies.put_nowait((int(words[1]), fds[0]))
            return
        for fd in fds:
            os.close(fd)
        if (
            words[0] == "exited"
            and len(words) == 4
            and all(w.lstrip("-").isdigit() for w in words[1:])
        ):
            pid, code, status = (int(w) for w in words[1:])
            told = self._children.pop(pid, None)
            if told is None:
                self._exits[pid] = (code, status)
            else:
                told(code, status)
        elif words[0] == "failed":
            self._owed -= 1
            self._replies.put_nowait(None)
        else:
            self._gone()  # not the parent's words: done with it

    def _gone(self) -> None:
        """The parent is gone (or spoke nonsense): its children got their parent-death
        signal; every fork waiting fails, every child not yet heard of is killed."""
        if not self.alive:
            return
        self.alive = False
        self._loop.remove_reader(self._control.fileno())
        self._control.close()
        for told in self._children.values():
            told(os.CLD_KILLED, signal.SIGKILL)
        self._children.clear()
        for _ in range(self._owed):
            self._replies.put_nowait(None)  # every start waiting fails
        self._owed = 0

    async def aclose(self, grace: float) -> None:
        """End the parent (its children were ended with their games)."""
        self._gone()
        await self.process.end(grace)


class _Child:
    """A forked bot's leader as :class:`BotProcess` ends it: reaped by its parent."""

    def __init__(self, parent: WarmParent, pid_there: int, pid: int) -> None:
        self.parent = parent
        self.pid_there = pid_there
        self.pid = pid

    def wait(self, timeout: float | None = None) -> int | None:
        self.parent.reap(self.pid_there)
        return None


class WarmBotProcess(BotProcess):
    """A bot forked from its warm parent: its exit is what the parent tells (it is not the
    arena's child: ``waitid`` cannot say), its pidfd only wakes the loop; its process cap,
    made for this start, goes with it."""

    cap: PidsCgroup | None = None

    def _on_exit(self) -> None:
        self._stop_watching()

    async def _end(self, grace: float) -> None:
        try:
            await super()._end(grace)
        finally:
            if self.cap is not None:
                self.cap.remove()
                self.cap = None


def pid_of(pidfd: int) -> int:
    """The pid, in this process's namespace, of the process ``pidfd`` refers to."""
    with open(f"/proc/self/fdinfo/{pidfd}") as info:
        for line in info:
            name, _, value = line.partition(":")
            if name == "Pid":
                return int(value)
    raise OSError(f"no pid for descriptor {pidfd}")


async def warm_spawn(
    parent: WarmParent, launch: Launch, argv: list[str], *, stdin: int, stdout: int
) -> BotProcess:
    """The bot of ``launch`` (``argv``: its ``python -P -m MODULE ARGS``) forked from its
    warm ``parent``, confined and limited as a cold start would be (see the module's
    docstring). Raises :class:`ConnectError` when it cannot be started (the caller may then
    start it cold) and :class:`SetupError` when the arena cannot start anything."""
    start = _WarmStart(parent, launch, argv)
    try:
        return await start.run(stdin, stdout)
    except BaseException:
        await to_the_end(start.abandon())
        raise


class _WarmStart:
    """One warm start, step by step; :meth:`abandon` undoes what a failed one left."""

    def __init__(self, parent: WarmParent, launch: Launch, argv: list[str]) -> None:
        self.parent = parent
        self.launch = launch
        self.argv = argv
        self.bot = f'bot "{launch.program.name}"'
        self.tag = reaper.new_tag()
        self.cgroups: BotCgroups | None = None
        self.cap: PidsCgroup | None = None
        self.fds: list[int] = []
        self.err_r: int | None = None
        self.go: int | None = None
        self.child: _Child | None = None
        self.pidfd: int | None = None

    def environment(self) -> dict[str, str]:
        """What a cold start of the bot would have in its environment."""
        launch = self.launch
        env = {
            **passed_environment(os.environ),
            **launch.program.env,
            **arena_variables(launch),
        }
        if launch.sandbox is not None:
            env.update(launch.sandbox.env)
        env[TAG] = self.tag
        return env

    async def run(self, stdin: int, stdout: int) -> BotProcess:
        launch = self.launch
        limits = launch.limits
        sandbox = launch.sandbox
        try:
            with arena_descriptors(self.bot):
                if sandbox is not None and sandbox.pids_parent and limits.processes:
                    self.cap = PidsCgroup(sandbox.pids_parent, limits.processes)
                cap = None if self.cap is None else self.cap.path
                self.cgroups = BotCgroups.make(limits.memory_mb, launch.cpu_clock, cap)
        except OSError as exc:
            raise SetupError(f"cannot start {self.bot}: cannot make its cgroups: {exc}") from None
        discard_stale_log(launch)
        with arena_descriptors(self.bot):
            self.err_r, err_w = os.pipe()
            self.fds.append(err_w)
            go_r, self.go = os.pipe()
            self.fds.append(go_r)
        reaper.starting(self.tag, boot_ticks())
        request = {
            "args": self.argv[4:],
            "env": self.environment(),
            "limits": limit_values(limits),
        }
        started = time.monotonic()
        pid_there, self.pidfd = await self.parent.fork(request, [stdin, stdout, *self.fds])
        for fd in self.fds:
            os.close(fd)
        self.fds = []
        pid = pid_of(self.pidfd)
        self.child = _Child(self.parent, pid_there, pid)
        reaper.started(pid, self.tag)
        for cgroup in self.cgroups.joined.values():
            try:
                (cgroup / "cgroup.procs").write_text(f"{pid}\n")
            except OSError as exc:
                raise ConnectError(f"cannot start {self.bot}: {exc}") from None
        os.write(self.go, b"g")
        os.close(self.go)
        self.go = None
        meter: CpuMeter | None = None
        if launch.cpu_clock:
            meter = CgroupMeter.make(self.cgroups) or TreeMeter(pid)
        stderr = StderrLog(self.err_r, stderr_log_path(launch), limits.stderr_kb * 1024)
        self.err_r = None
        process = WarmBotProcess(
            self.child, self.pidfd, self.tag, stderr, limits, started, None, meter, self.cgroups
        )
        process.cap, self.cap = self.cap, None
        self.pidfd = None
        self.cgroups = None  # the process owns them now
        self.parent.watch(pid_there, process._exited_with)
        return process

    async def abandon(self) -> None:
        """After a failed start: end the child if there is one, close what is open."""
        for fd in (*self.fds, self.err_r, self.go):
            if fd is not None:
                os.close(fd)
        self.fds, self.err_r, self.go = [], None, None
        if self.child is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.child.pid, signal.SIGKILL)
            self.child.wait()
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None
        reaper.reaped(None if self.child is None else self.child.pid, self.tag)
        if self.cgroups is not None:
            self.cgroups.remove()
        if self.cap is not None:
            self.cap.remove()
