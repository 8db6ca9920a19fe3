"""A plugin module for the dask executor's tests, importable by a cluster's workers (on
their PYTHONPATH): Nim that writes the seed of every game it plays to the file `tally`,
one line per play, so that a test can count how many times each game was played."""

from __future__ import annotations

import os

from arena_kernel.plugin import Option, Outcome, Register, Table, hookimpl
from arena_kernel.testing.nim import Nim


class TalliedNim(Nim):
    name = "tallied_nim"
    summary = "Nim that counts its plays in the file `tally`"
    options = {**Nim.options, "tally": Option("", "the file each play adds its seed to", type=str)}

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        line = f"{seed}\n".encode()
        fd = os.open(self.config["tally"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)  # one write of a short line: whole, whatever plays beside it
        finally:
            os.close(fd)
        return await super().play(table, seed, session)


@hookimpl
def arena_register_games(register: Register) -> None:
    register(TalliedNim)
