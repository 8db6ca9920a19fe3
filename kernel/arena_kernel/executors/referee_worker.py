"""One referee process of a run (:mod:`arena_kernel.executors.referees`): it plays the
sessions its coordinator hands it and sends back every game as it ends.

    python -m arena_kernel.executors.referee_worker FD

``FD`` is its end of the socket pair to the coordinator. It loads the plugins, resolves the
match and prepares its own bots' transports and sandboxes (a :class:`Lineup` of its own,
with its own warden), says it is ready, then plays each session it gets on its event loop,
as many at once as it is given. On ``stop``, or when the coordinator is gone, it stops
every session it plays (each ends its bots) and exits. Ctrl-C is the coordinator's to
answer: this process ignores SIGINT.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import signal
import socket
import sys
import traceback
from pathlib import Path
from typing import Any

from arena_kernel.errors import ArenaError, SetupError
from arena_kernel.executors.lineup import Lineup
from arena_kernel.executors.player import SessionPlayer
from arena_kernel.executors.referees import Wire, WorkerJob, packed
from arena_kernel.match.resolved import ResolvedMatch, resolve
from arena_kernel.match.schedule import Pending, Session
from arena_kernel.model import GameRecord, ScheduledGame
from arena_kernel.registries.manager import get_plugin_manager, load_registries


class _Relayed:
    """A session's :class:`~arena_kernel.executors.base.Results`: each game goes to the
    coordinator as it starts and ends. The bots out of the run are the coordinator's at the
    session's start, and those this session's games put out."""

    def __init__(self, wire: Wire, log_root: Path, disqualified: frozenset[str]) -> None:
        self.wire = wire
        self.log_root = log_root
        self.disqualified = set(disqualified)

    def game_started(self, game: ScheduledGame) -> None:
        self.wire.send("started", game)

    def game_ended(self, record: GameRecord) -> None:
        self.wire.send("ended", *packed(record))
        self.disqualified.update(record.game.seating[s] for s in record.outcome.disqualified)

    def failed(self, label: str, message: str, details: str) -> None:
        self.wire.send("failed", label, message, details)


class _Referee:
    """The worker's run: its match and bots, and the sessions it plays."""

    def __init__(self, wire: Wire, match: ResolvedMatch, lineup: Lineup) -> None:
        self.wire = wire
        self.match = match
        self.lineup = lineup
        self.playing: set[asyncio.Task[None]] = set()
        self.slots = 1
        """How many sessions it plays at once: its share of ``concurrency``."""
        self.queued: collections.deque[tuple[Session, frozenset[str], Path]] = collections.deque()
        """Sessions handed to it ahead, to start as soon as one of its own ends."""
        self.pending: Pending | None = None
        self.log_root = Path()
        self.out: frozenset[str] = frozenset()

    def take(self, kind: str, *body: Any) -> None:
        """One message of the coordinator's: how many sessions to play at once
        (``slots``), the pending games of a stage and where its logs go (``stage``), the
        bots out of the run (``out``), or a session to play (``play``: its number and
        positions in the pending games), started when a slot is free."""
        if kind == "slots":
            self.slots = body[0]
        elif kind == "stage":
            self.pending, self.log_root = body[0], Path(body[1])
        elif kind == "out":
            self.out = body[0]
        elif kind == "play":
            assert self.pending is not None, "a stage first"
            self.queued.append((Session(body[0], self.pending, body[1]), self.out, self.log_root))
        self._start()

    def has_queued(self) -> bool:
        """Whether it has sessions handed ahead, to start without a word from the
        coordinator."""
        return bool(self.queued)

    def _start(self) -> None:
        while self.queued and len(self.playing) < self.slots:
            task = asyncio.ensure_future(self._play(*self.queued.popleft()))
            self.playing.add(task)
            task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        self.playing.discard(task)
        self._start()

    async def _play(self, session: Session, disqualified: frozenset[str], log_root: Path) -> None:
        results = _Relayed(self.wire, log_root, disqualified)
        try:
            await SessionPlayer(self.match, self.lineup, results).play(session)
        except SetupError as exc:
            self.wire.send("setup-error", str(exc))
            return
        except Exception:
            self.wire.send("crash", f"a referee process failed:\n{traceback.format_exc()}")
            return
        self.wire.send("done")

    async def stop(self) -> None:
        self.queued.clear()
        for task in self.playing:
            task.cancel()
        await asyncio.gather(*self.playing, return_exceptions=True)


async def serve(fd: int) -> None:
    wire = await Wire.over(socket.socket(fileno=fd))
    first = await wire.receive()
    if first is None:
        return
    job: WorkerJob = first[1]
    lineup: Lineup | None = None
    try:
        try:
            registries = load_registries(get_plugin_manager(extra=job.plugins))
            match = resolve(job.spec, registries)
            lineup = Lineup(match)
            await lineup.prepare()
        except ArenaError as exc:
            wire.send("problem", str(exc))
            return
        wire.send("ready", lineup.sandbox, lineup.sandbox_note)
        referee = _Referee(wire, match, lineup)
        wire.holding = referee.has_queued
        try:
            while (message := await wire.receive()) is not None and message[0] != "stop":
                referee.take(*message)
        finally:
            await referee.stop()
    finally:
        if lineup is not None:
            await lineup.aclose()
        await _flushed(wire)


async def _flushed(wire: Wire) -> None:
    """Give what was sent the chance to leave before the process ends."""
    wire.flush()
    with contextlib.suppress(ConnectionError):
        await wire.writer.drain()
    wire.close()


def main(argv: list[Any]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    asyncio.run(serve(int(argv[0])))


if __name__ == "__main__":
    main(sys.argv[1:])
