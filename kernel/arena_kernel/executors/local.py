"""The ``local`` executor: every session on this machine's event loop, ``concurrency`` at
a time (bots are processes of their own; the referee waits on them together)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import TYPE_CHECKING

from arena_kernel.executors.base import Executor, Results

if TYPE_CHECKING:  # registering an executor imports no game and no referee
    from arena_kernel.executors.lineup import Lineup
    from arena_kernel.match.schedule import Session, Sessions


class LocalExecutor(Executor):
    name = "local"
    summary = "this machine: concurrency sessions at a time on one event loop"

    lineup: Lineup | None = None

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

    async def play(self, sessions: Iterator[Session], results: Results) -> None:
        from arena_kernel.executors.player import SessionPlayer

        assert self.lineup is not None, "prepare() first"
        player = SessionPlayer(self.match, self.lineup, results)

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
        if self.lineup is not None:
            await self.lineup.aclose()
