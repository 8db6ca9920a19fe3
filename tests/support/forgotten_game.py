"""A plugin module for the dask executor's tests, importable by the cluster's workers:
Nim with one game whose session the scheduler is made to let go of while it plays, as
the scheduler of a very loaded cluster can lose track of a session's result. Nothing
tells the coordinator, which waited for it without end."""

from __future__ import annotations

from typing import Any

from arena_kernel.plugin import Option, Outcome, Register, Table, hookimpl
from arena_kernel.testing.nim import Nim


def _let_go_of_sessions_on(dask_scheduler: Any, address: str) -> None:
    """On the scheduler: every client lets go of the tasks the worker at ``address``
    plays."""
    for task in list(dask_scheduler.workers[address].processing):
        for client in list(task.who_wants or ()):
            dask_scheduler.client_releases_keys(keys=[task.key], client=client.client_key)


class ForgottenNim(Nim):
    name = "forgotten_nim"
    summary = "Nim whose game of seed forgotten_seed has the scheduler let go of its session"
    options = {
        **Nim.options,
        "forgotten_seed": Option(0, "the seed of the game whose session is let go of"),
    }

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        if seed == self.config["forgotten_seed"]:
            from distributed import get_client, get_worker

            worker = get_worker()
            get_client().run_on_scheduler(_let_go_of_sessions_on, address=worker.address)
        return await super().play(table, seed, session)


@hookimpl
def arena_register_games(register: Register) -> None:
    register(ForgottenNim)
