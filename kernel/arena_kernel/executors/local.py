"""The ``local`` executor: every session on this machine, ``concurrency`` at a time, on this
process's event loop (bots are processes of their own; the referee waits on them
together) or, with ``referees`` above one, on the event loops of that many processes,
this one among them and storing every game (:mod:`arena_kernel.executors.referees`)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import TYPE_CHECKING

from arena_kernel.executors.base import Executor, Results

if TYPE_CHECKING:  # registering an executor imports no game and no referee
    from arena_kernel.executors.lineup import Lineup
    from arena_kernel.executors.referees import RefereePool
    from arena_kernel.match.schedule import Session, Sessions


class LocalExecutor(Executor):
    name = "local"
    summary = "this machine: concurrency sessions at a time, in one referee process or several"

    lineup: Lineup | None = None
    pool: RefereePool | None = None

    async def prepare(self, sessions: Sessions) -> None:
        from arena_kernel.executors.crowding import usable_cores
        from arena_kernel.executors.fd_budget import check_open_file_limit
        from arena_kernel.executors.lineup import Lineup

        spec = self.match.spec
        self.workers = min(spec.concurrency, len(sessions))
        check_open_file_limit(self.workers * sessions.most_entrants(), str(spec.path))
        self.lineup = Lineup(self.match)
        await self.lineup.prepare()
        self.sandbox, self.sandbox_note = self.lineup.sandbox, self.lineup.sandbox_note
        self.crowding = {socket.gethostname(): (self.workers, usable_cores())}
        referees = self._referees(len(sessions), usable_cores())
        if referees > 1:
            from arena_kernel.executors.referees import RefereePool, WorkerJob, plugin_paths

            job = WorkerJob(spec, plugin_paths(self.plugins) or ())
            self.pool = RefereePool(job, str(spec.path))
            await self.pool.start(referees - 1)

    def _referees(self, sessions: int, cores: int) -> int:
        """How many processes referee the run: the match file's ``referees``, or without
        it as many as ``cores`` for a run of :data:`AUTO_REFEREES_FROM
        <arena_kernel.match.spec.AUTO_REFEREES_FROM>` sessions or more; never more than
        the sessions played at once. Bots that connect by themselves, and plugins a
        process cannot import by name, need one; asked for more, that is a
        :class:`~arena_kernel.errors.SetupError`."""
        from arena_kernel.errors import SetupError
        from arena_kernel.executors.referees import plugin_paths
        from arena_kernel.match.spec import AUTO_REFEREES_FROM

        spec = self.match.spec
        wanted = spec.referees
        if wanted == 1 or (wanted is None and sessions < AUTO_REFEREES_FROM):
            return 1
        problem = None
        if any(bot.connect for bot in spec.bots):
            problem = "a bot that connects by itself (connect = true) reaches one process"
        elif plugin_paths(self.plugins) is None:
            problem = "a plugin registered as an object cannot be imported by another process"
        if problem is not None:
            if wanted is None:
                return 1
            raise SetupError(f"{spec.path}: referees = {wanted}: {problem}; set referees = 1")
        return max(1, min(wanted or cores, self.workers))

    async def play(self, sessions: Iterator[Session], results: Results) -> None:
        from arena_kernel.executors.player import SessionPlayer
        from arena_kernel.executors.referees import AHEAD

        assert self.lineup is not None, "prepare() first"
        player = SessionPlayer(self.match, self.lineup, results)
        if self.pool is not None:
            ahead = 0 if self.match.spec.sprt else AHEAD
            await self.pool.play(sessions, results, self.workers, player.play, ahead)
            return

        async def worker() -> None:
            for session in sessions:  # one iterator: each worker takes the next free one
                await player.play(session)

        tasks = [asyncio.create_task(worker()) for _ in range(self.workers)]
        try:
            # Not gather(): when the run is cancelled, gather cancels the workers and the
            # finally below would cancel them again, in the middle of ending their bots.
            for finished in asyncio.as_completed(tasks):
                await finished
        finally:
            for task in tasks:
                task.cancel()  # once each: as_completed leaves them running
            await asyncio.gather(*tasks, return_exceptions=True)

    async def aclose(self) -> None:
        try:
            if self.pool is not None:
                await self.pool.aclose()
        finally:
            if self.lineup is not None:
                await self.lineup.aclose()
