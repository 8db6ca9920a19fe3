"""A plugin module for the dask executor's tests, importable by the cluster's workers (it
is on the test session's path, which the workers inherit): Nim with one game that ends
the process playing it, every time it is played (as a game that crashes its machine)."""

from __future__ import annotations

import os

from arena_kernel.plugin import Option, Outcome, Register, Table, hookimpl
from arena_kernel.testing.nim import Nim


class FatalNim(Nim):
    name = "fatal_nim"
    summary = "Nim whose game of seed fatal_seed ends its own process"
    options = {
        **Nim.options,
        "fatal_seed": Option(0, "the seed of the game that ends the process playing it"),
    }

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        if seed == self.config["fatal_seed"]:
            os._exit(70)  # this worker's own process, as a crash or an OOM kill would
        return await super().play(table, seed, session)


@hookimpl
def arena_register_games(register: Register) -> None:
    register(FatalNim)
