"""The ``stdio`` transport: the bot is a child process spoken to through its stdin/stdout."""

from __future__ import annotations

import asyncio
import os

from arena_kernel.processes.fd_shortage import arena_descriptors
from arena_kernel.transports.base import ConnectError, Connection, Launch, Transport, expand_argv
from arena_kernel.transports.fd_connection import FdConnection
from arena_kernel.transports.process import BotProcess, spawn_aside
from arena_kernel.transports.warm_start import WarmParent, warm_module, warm_spawn

WARM_PARENT_GRACE = 0.5
"""Seconds a warm parent gets to exit at the run's end (it exits as soon as its socket
ends) before it is killed."""


class StdioTransport(Transport):
    """Starts each bot as a child process and talks to it over a pair of pipes.

    Connecting is immediate once the process is made (in a worker thread, while the event
    loop runs on): a pipe needs no handshake, so ``launch.startup`` only matters to the
    referee's own greeting exchange. ``{identifier}`` is the one argv placeholder.
    """

    name = "stdio"
    summary = "Child process: messages on its stdin and stdout."

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self._warm: dict[str, WarmParent | None] = {}
        """Per bot started warm, its warm parent (None: it could not be had, the bot
        starts cold for the rest of the run)."""
        self._warming: dict[str, asyncio.Lock] = {}

    async def connect(self, launch: Launch) -> Connection:
        program = launch.program
        if program.argv is None:
            raise ConnectError(f'bot "{program.name}" has no command to run')
        argv = expand_argv(program.argv, identifier=launch.identifier)
        with arena_descriptors(f'bot "{program.name}"'):
            child_stdin, to_bot = os.pipe()
            try:
                from_bot, child_stdout = os.pipe()
            except OSError:
                os.close(child_stdin)
                os.close(to_bot)
                raise
        try:
            process = await self._started(launch, argv, child_stdin, child_stdout)
        except BaseException:
            os.close(to_bot)
            os.close(from_bot)
            raise
        finally:
            os.close(child_stdin)
            os.close(child_stdout)
        return FdConnection(
            from_bot,
            to_bot,
            process=process,
            kill_grace=launch.kill_grace,
            eof_reason="closed its output",
        )

    async def _started(
        self, launch: Launch, argv: list[str], stdin: int, stdout: int
    ) -> BotProcess:
        """The bot's process: forked from its warm parent when it is one of arena's own
        Python bots (:mod:`~arena_kernel.transports.warm_start`), else started cold."""
        module = warm_module(argv, launch.program.warm)
        if module is not None:
            parent = await self._warm_parent(launch, module)
            if parent is not None:
                try:
                    return await warm_spawn(parent, launch, argv, stdin=stdin, stdout=stdout)
                except ConnectError:
                    if parent.alive:
                        raise
                    self._warm[launch.program.name] = None  # gone: cold from now on
                    await parent.aclose(launch.kill_grace)
        return await spawn_aside(launch, argv, stdin=stdin, stdout=stdout)

    async def _warm_parent(self, launch: Launch, module: str) -> WarmParent | None:
        name = launch.program.name
        async with self._warming.setdefault(name, asyncio.Lock()):
            if name not in self._warm:
                try:
                    self._warm[name] = await WarmParent.start(launch, module)
                except ConnectError:
                    self._warm[name] = None
            return self._warm[name]

    async def aclose(self) -> None:
        parents = [parent for parent in self._warm.values() if parent is not None]
        self._warm.clear()
        for parent in parents:
            await parent.aclose(WARM_PARENT_GRACE)
