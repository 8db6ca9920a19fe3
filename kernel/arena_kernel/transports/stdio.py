"""The ``stdio`` transport: the bot is a child process spoken to through its stdin/stdout."""

from __future__ import annotations

import os

from arena_kernel.processes.fd_shortage import arena_descriptors
from arena_kernel.transports.base import ConnectError, Connection, Launch, Transport, expand_argv
from arena_kernel.transports.fd_connection import FdConnection
from arena_kernel.transports.process import spawn_aside


class StdioTransport(Transport):
    """Starts each bot as a child process and talks to it over a pair of pipes.

    Connecting is immediate once the process is made (in a worker thread, while the event
    loop runs on): a pipe needs no handshake, so ``launch.startup`` only matters to the
    referee's own greeting exchange. ``{identifier}`` is the one argv placeholder.
    """

    name = "stdio"
    summary = "Child process: messages on its stdin and stdout."

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
            process = await spawn_aside(launch, argv, stdin=child_stdin, stdout=child_stdout)
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
