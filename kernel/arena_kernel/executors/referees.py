"""Several referee processes on this machine: the local executor's way to use more than one
core (``referees`` in the match file).

One event loop referees every game of a process, so a run whose referee is the busy part
(in-process bots, many quick games) goes no faster than one core allows. Here the run's
process shares its sessions with ``referees - 1`` processes of its own
(:mod:`arena_kernel.executors.referee_worker`), each playing its share of ``concurrency``
with the same :class:`~arena_kernel.executors.player.SessionPlayer` as the local executor,
and stays the one writer of the store: each worker sends every game's record back as the
game ends, and the run's results store it, as they store a game played here. Bots' logs
are written where the run keeps them, by the process that started the bots.

Each process plays its share of ``concurrency`` (the workers the odd ones: this one also
stores every game), a worker with more handed to it ahead, as many as it ends in the time
this process may take to answer (:mod:`arena_kernel.executors.pace`), so that it never
waits for the next one to come. The
run's Ctrl-C (or SIGTERM) reaches this process only: it tells every worker to stop, and
each ends its bots before it exits; a worker whose coordinator is gone (``kill -9``) sees
its connection end and does the same. A worker's set-up failure is the run's
(:class:`~arena_kernel.errors.SetupError`), and so is a worker that dies.

Worker and coordinator talk over a socket pair, each frame the pickled messages of one
turn of the event loop after their length (a worker with sessions in hand lets its
messages wait a few milliseconds for more: :class:`Wire`): both ends are this arena, from
the same installation.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import operator
import os
import pickle
import socket
import struct
import sys
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from arena_kernel.errors import SetupError
from arena_kernel.executors.pace import Pace
from arena_kernel.model import Event, GameRecord, make_event
from arena_kernel.processes.cancel_proof import to_the_end

if TYPE_CHECKING:
    from arena_kernel.executors.base import Results
    from arena_kernel.match.schedule import Pending, Session
    from arena_kernel.match.spec import MatchSpec

AHEAD = 32
"""The most sessions a worker is handed beyond those it plays, to start as soon as one ends
(:class:`~arena_kernel.executors.pace.Pace` says how many its pace needs)."""

STOP_LIMIT = 10.0
"""Seconds a stopping worker gets to end its bots and exit (it needs the bots' kill grace)
before it is killed (its warden then ends what it started)."""

LINGER = 0.005
"""Seconds at most that a worker's messages wait to leave with later ones while it has
sessions handed ahead (:attr:`Wire.holding`): a small part of the sessions' time it has in
hand (:data:`~arena_kernel.executors.pace.COVER`), so that it never runs out of them for
the wait, and a game stored that much later."""

_LENGTH = struct.Struct("!I")


def _never() -> bool:
    return False


_fields = operator.attrgetter(*(field.name for field in dataclasses.fields(Event)))


def packed(record: GameRecord) -> tuple[GameRecord, list[tuple[Any, ...]]]:
    """``record`` as a worker sends it: without its events, and the events as columns of
    plain values (a game's log is most of what a worker sends, and pickled as dataclasses
    each cost ten times as much to send and read back)."""
    columns = list(zip(*map(_fields, record.events), strict=True))
    return dataclasses.replace(record, events=[]), columns


def unpacked(record: GameRecord, columns: list[tuple[Any, ...]]) -> GameRecord:
    """The record :func:`packed` sent."""
    record.events = [make_event(*row) for row in zip(*columns, strict=True)]
    return record


class Wire:
    """One end of a worker's socket pair: messages, sent and received in order.

    What is sent in one turn of the event loop leaves in one frame (one pickle of the
    messages, after its length), so that a game's ``started``, ``ended`` and ``done`` wake
    the other process once, and cost one write and one read, not three; while
    :attr:`holding`, so do the messages of the turns that follow, for up to
    :data:`LINGER` seconds."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self._queued: list[tuple[Any, ...]] = []
        self._received: collections.deque[tuple[Any, ...]] = collections.deque()
        self.holding: Callable[[], bool] = _never
        """Whether what is sent now may wait for what is sent next, to leave together (at
        most :data:`LINGER` seconds): a worker's, while it has sessions handed ahead to
        start, so that quick games' records leave a few to a frame, not one."""
        self._turn_ends = False
        self._lingering: asyncio.TimerHandle | None = None

    @classmethod
    async def over(cls, sock: socket.socket) -> Wire:
        reader, writer = await asyncio.open_unix_connection(sock=sock)
        return cls(reader, writer)

    def send(self, *message: Any) -> None:
        """Queue ``message`` (a tuple: its kind first) to leave at the end of this turn of
        the event loop, or with later ones while :attr:`holding`; a closed connection
        drops it (its end is seen by the receiving side)."""
        if self.writer.is_closing():
            return
        if not self._turn_ends:
            self._turn_ends = True
            asyncio.get_running_loop().call_soon(self._turn_over)
        self._queued.append(message)

    def _turn_over(self) -> None:
        """At the end of a turn that sent something: write it, or while :attr:`holding`
        leave it to be written within :data:`LINGER` seconds."""
        self._turn_ends = False
        if not self.holding():
            self.flush()
        elif self._lingering is None:
            self._lingering = asyncio.get_running_loop().call_later(LINGER, self.flush)

    def flush(self) -> None:
        """Write what is queued now."""
        if self._lingering is not None:
            self._lingering.cancel()
            self._lingering = None
        queued, self._queued = self._queued, []
        if queued and not self.writer.is_closing():
            data = pickle.dumps(queued, pickle.HIGHEST_PROTOCOL)
            self.writer.write(_LENGTH.pack(len(data)) + data)

    async def receive(self) -> tuple[Any, ...] | None:
        """The next message, or None once the other end is gone."""
        if not self._received:
            try:
                head = await self.reader.readexactly(_LENGTH.size)
                (size,) = _LENGTH.unpack(head)
                self._received.extend(pickle.loads(await self.reader.readexactly(size)))
            except (asyncio.IncompleteReadError, ConnectionError):
                return None
        return self._received.popleft()

    def close(self) -> None:
        self.flush()
        self.writer.close()


@dataclass(frozen=True)
class WorkerJob:
    """What a worker needs to referee a run's sessions: the match and the plugin modules
    loaded beyond the installed ones (import paths)."""

    spec: MatchSpec
    plugins: tuple[str, ...]


class _Worker:
    """One referee process as the coordinator sees it."""

    def __init__(self, process: asyncio.subprocess.Process, wire: Wire) -> None:
        self.process = process
        self.wire = wire
        self.playing = 0
        """Sessions handed to it and not yet over (playing, or waiting to be)."""
        self.slots = 1
        """How many it plays at once."""
        self.stopping = False
        self.listening: asyncio.Task[None] | None = None
        self.pending: Pending | None = None
        """The pending games its sessions are of, as last sent to it."""
        self.out: frozenset[str] = frozenset()
        """The bots out of the run, as last sent to it."""
        self.pace = Pace()

    @property
    def label(self) -> str:
        return f"referee process {self.process.pid}"


class _Here:
    """The sessions this process plays itself, on its event loop."""

    def __init__(self, play: Callable[[Session], Awaitable[None]], changed: asyncio.Event) -> None:
        self.play = play
        self.changed = changed
        self.playing = 0
        self.slots = 1
        self.tasks: set[asyncio.Task[None]] = set()
        self.error: BaseException | None = None

    def start(self, session: Session) -> None:
        self.playing += 1
        task = asyncio.ensure_future(self.play(session))
        self.tasks.add(task)
        task.add_done_callback(self._over)

    def _over(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        self.playing -= 1
        if not task.cancelled() and task.exception() is not None and self.error is None:
            self.error = task.exception()
        self.changed.set()

    async def stop(self) -> None:
        """Cancel what plays here and wait while each session ends its bots."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


class RefereePool:
    """The referee processes of one run: :meth:`start` before the first game, :meth:`play`
    once per stage, :meth:`aclose` in any case."""

    def __init__(self, job: WorkerJob, source: str) -> None:
        self.job = job
        self.source = source
        """The match file, for messages."""
        self.workers: list[_Worker] = []
        self._changed = asyncio.Event()
        self._failure: str | None = None
        self._results: Results | None = None

    async def start(self, count: int) -> None:
        """Start ``count`` workers (besides this process) and wait until each has its
        bots' transports and sandbox ready; a worker that cannot play is a
        :class:`SetupError`."""
        for _ in range(count):
            self.workers.append(await self._spawn())
        problems = []
        for worker in self.workers:
            answer = await worker.wire.receive()
            if answer is None or answer[0] != "ready":
                problems.append(answer[1] if answer else f"{worker.label} ended at its start")
        if problems:
            raise SetupError(f"{self.source}: {problems[0]}")
        for worker in self.workers:
            worker.listening = asyncio.ensure_future(self._listen(worker))

    async def _spawn(self) -> _Worker:
        ours, theirs = socket.socketpair()
        try:
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "arena_kernel.executors.referee_worker",
                str(theirs.fileno()),
                pass_fds=(theirs.fileno(),),
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
            )
        except OSError as exc:
            ours.close()
            raise SetupError(f"{self.source}: cannot start a referee process: {exc}") from None
        finally:
            theirs.close()
        wire = await Wire.over(ours)
        wire.send("job", self.job)
        return _Worker(process, wire)

    async def play(
        self,
        sessions: Iterator[Session],
        results: Results,
        concurrency: int,
        here: Callable[[Session], Awaitable[None]],
        ahead: int = AHEAD,
    ) -> None:
        """Hand out ``sessions`` to this process (``here`` plays one on its event loop)
        and the workers, and return when every one is over; the games come to
        ``results``.

        Each process plays its share of ``concurrency`` at once (the workers have the
        odd ones: this process also stores every game), so that at most ``concurrency``
        play in all; a worker is handed up to ``ahead`` more, as many as its pace needs,
        which it starts as one of its own ends, so that it never waits for the next one
        to come. (A run with an SPRT is given none ahead: nothing starts once it has
        decided.)"""
        self._results = results
        local = _Here(here, self._changed)
        processes = 1 + len(self.workers)
        local.slots = concurrency // processes
        for number, worker in enumerate(self.workers):
            worker.slots = concurrency // processes + (number < concurrency % processes)
            worker.wire.send("slots", worker.slots)
        try:
            for session in sessions:
                while (taker := self._taker(local, ahead)) is None:
                    await self._wait(local)
                if isinstance(taker, _Worker):
                    taker.playing += 1
                    self._hand(taker, session, results)
                else:
                    taker.start(session)
                self._check(local)
            while local.playing or any(w.playing for w in self.workers):
                await self._wait(local)
        except BaseException:
            self._results = None  # what comes back from now on is a game in progress
            await to_the_end(local.stop())
            await to_the_end(self._stop())
            raise
        finally:
            self._results = None

    def _taker(self, local: _Here, ahead: int) -> _Here | _Worker | None:
        """Who takes the next session: the process with the most free slots (a worker of
        two alike), else a worker with room ahead, else none yet."""
        free: list[tuple[int, int, _Here | _Worker]] = [
            (w.slots - w.playing, 1, w) for w in self.workers
        ]
        free.append((local.slots - local.playing, 0, local))
        most, _, taker = max(free, key=lambda item: item[:2])
        if most > 0:
            return taker
        room = [w for w in self.workers if w.playing < w.slots + w.pace.ahead(ahead)]
        return min(room, key=lambda w: w.playing, default=None)

    def _hand(self, worker: _Worker, session: Session, results: Results) -> None:
        """Send ``session`` to ``worker``: its number and positions in the pending games,
        which the worker has (they are sent when they change: once per stage), and before
        it the bots out of the run if they changed."""
        if worker.pending is not session.pending:
            worker.pending = session.pending
            worker.wire.send("stage", session.pending, str(results.log_root))
        if worker.out != results.disqualified:
            worker.out = frozenset(results.disqualified)
            worker.wire.send("out", worker.out)
        worker.wire.send("play", session.number, session.positions)

    async def _wait(self, local: _Here) -> None:
        self._changed.clear()
        self._check(local)
        await self._changed.wait()
        self._check(local)

    def _check(self, local: _Here) -> None:
        """Raise what stops the run: a session of this process's that raised (a set-up
        error), or a worker's failure."""
        if local.error is not None:
            raise local.error
        if self._failure is not None:
            raise SetupError(self._failure)

    async def _listen(self, worker: _Worker) -> None:
        """Hand what ``worker`` sends to the run's results, in the order it was sent."""
        while True:
            message = await worker.wire.receive()
            if message is None:
                if self._failure is None and not worker.stopping:
                    code = await worker.process.wait()
                    self._failure = f"{worker.label} ended (status {code}) in the middle of the run"
                self._changed.set()
                return
            kind, *body = message
            results = self._results
            if kind == "done":
                worker.playing -= 1
                worker.pace.ended(asyncio.get_running_loop().time())
            elif kind in ("setup-error", "crash"):
                self._failure = self._failure or body[0]
            elif results is not None:
                if kind == "started":
                    results.game_started(*body)
                elif kind == "ended":
                    results.game_ended(unpacked(*body))
                elif kind == "failed":
                    results.failed(*body)
            self._changed.set()

    async def _stop(self) -> None:
        """Tell every worker to stop (each ends its bots) and wait for them to exit."""
        workers, self.workers = self.workers, []
        for worker in workers:
            worker.stopping = True
            worker.wire.send("stop")
        for worker in workers:
            try:
                await asyncio.wait_for(worker.process.wait(), STOP_LIMIT)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    worker.process.kill()
                await worker.process.wait()
            worker.wire.close()
            if worker.listening is not None:
                worker.listening.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await worker.listening

    async def aclose(self) -> None:
        await to_the_end(self._stop())


def plugin_paths(plugins: tuple[str | object, ...]) -> tuple[str, ...] | None:
    """The run's extra plugins as import paths, which a worker imports; None when one is
    an object that has none."""
    if all(isinstance(plugin, str) for plugin in plugins):
        return tuple(str(plugin) for plugin in plugins)
    return None
