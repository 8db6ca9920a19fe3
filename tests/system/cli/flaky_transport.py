"""A plugin module for tests: ``stdio`` whose set-up breaks in the middle of a run.

With ``ARENA_TEST_SETUP_BREAKS_AFTER=N`` in the environment, the ``flaky-stdio`` transport
starts N bots and then raises :class:`~arena_kernel.errors.SetupError` for every further one, as
the real transports do when the arena runs out of file descriptors or cannot write its
logs. The variable is not part of the match file, so a run without it resumes the run that
broke.
"""

from __future__ import annotations

import os

from arena_kernel.errors import SetupError
from arena_kernel.hookspecs import Register
from arena_kernel.markers import hookimpl
from arena_kernel.transports.base import Connection, Launch
from arena_kernel.transports.stdio import StdioTransport

BREAKS_AFTER = "ARENA_TEST_SETUP_BREAKS_AFTER"


class FlakyStdioTransport(StdioTransport):
    name = "flaky-stdio"
    summary = "stdio whose set-up breaks after $ARENA_TEST_SETUP_BREAKS_AFTER bots (tests)"

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.started = 0

    async def connect(self, launch: Launch) -> Connection:
        limit = os.environ.get(BREAKS_AFTER)
        if limit is not None and self.started >= int(limit):
            raise SetupError(f"cannot start bot {launch.identifier}: the test broke the set-up")
        self.started += 1
        return await super().connect(launch)


@hookimpl
def arena_register_transports(register: Register) -> None:
    register(FlakyStdioTransport)
