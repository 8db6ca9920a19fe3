"""A plugin module for the tests of several referee processes (importable by them: it is
on the test session's path, which they are given): Nim whose outcome names the process
that refereed it, and Nim that ends any referee process but the run's own."""

from __future__ import annotations

import dataclasses
import os
import sys

from arena_kernel.plugin import Outcome, Register, Table, hookimpl
from arena_kernel.testing.nim import Nim

WORKER = "arena_kernel.executors.referee_worker"


class PidNim(Nim):
    name = "pid_nim"
    summary = "Nim whose outcome's details hold the pid of the process that refereed it"

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        outcome = await super().play(table, seed, session)
        return dataclasses.replace(outcome, details={**outcome.details, "pid": os.getpid()})


class WorkerKillerNim(Nim):
    name = "worker_killer_nim"
    summary = "Nim whose games end the referee process playing them, but the run's own"

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        if getattr(sys.modules["__main__"].__spec__, "name", None) == WORKER:
            os._exit(70)  # a worker's own process, as a crash or an OOM kill would
        return await super().play(table, seed, session)


@hookimpl
def arena_register_games(register: Register) -> None:
    register(PidNim)
    register(WorkerKillerNim)
