"""A plugin module for the tests of several referee processes (importable by them: it is
on the test session's path, which they are given): Nim whose outcome names the process
that refereed it."""

from __future__ import annotations

import dataclasses
import os

from arena_kernel.plugin import Outcome, Register, Table, hookimpl
from arena_kernel.testing.nim import Nim


class PidNim(Nim):
    name = "pid_nim"
    summary = "Nim whose outcome's details hold the pid of the process that refereed it"

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        outcome = await super().play(table, seed, session)
        return dataclasses.replace(outcome, details={**outcome.details, "pid": os.getpid()})


@hookimpl
def arena_register_games(register: Register) -> None:
    register(PidNim)
