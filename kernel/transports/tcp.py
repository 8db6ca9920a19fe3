"""The ``tcp`` transport: the arena listens, and every bot connects to it as a client.

This is how the contest servers of Speed Clue and Liar's Dice ran: the bot is given a host
and a port, and a connection was known to be a given bot's only by *when* it arrived. So
launches are serialized: a started bot is tied to the first connection accepted after its
start, and the next bot is started only once that happened (or failed). On top of that,
a connection is only taken for the started bot if a process of that bot's process group
holds its client end (see :mod:`kernel.transports.peers`), so bots started by someone else
may connect at any time without being mistaken for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
from collections import deque
from typing import Any

from kernel.errors import OptionError
from kernel.transports.base import ConnectError, Connection, Launch, Transport, expand_argv
from kernel.transports.fd_connection import FdConnection
from kernel.transports.peers import owned_by_group
from kernel.transports.process import BotProcess, spawn

ACCEPT_RETRY = 0.1
"""Seconds before accepting again after running out of file descriptors."""


class TcpTransport(Transport):
    """One listening socket per run, created at the first connect.

    A bot with a command is started with ``{host}``, ``{port}`` and ``{identifier}`` in its
    argv (and ``ARENA_HOST``, ``ARENA_PORT``, ``ARENA_ID`` in its environment). A bot with
    ``connect = true`` is started by someone else: it gets the next connection, and
    connections nobody was waiting for are kept, in arrival order, for such bots. A new
    connection goes to the started bot that is waiting only if that bot's processes hold
    it, so both kinds mix safely in one run (where ``/proc`` cannot tell, the connection
    goes to the started bot, as on the contest servers).
    """

    name = "tcp"
    summary = "TCP client: the bot connects to the arena (loopback by default)."
    options = {"host": "127.0.0.1", "port": 0}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        host, port = self.config["host"], self.config["port"]
        if not isinstance(host, str) or not host:
            raise OptionError(
                "host", 'transport "tcp": option "host" must be a host name or address'
            )
        if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
            raise OptionError("port", 'transport "tcp": option "port" must be from 0 to 65535')
        self.host: str = host
        self.port: int | None = None
        """The port actually listened on (known once listening; ``port = 0`` picks one)."""
        self._listener: socket.socket | None = None
        self._launch_lock = asyncio.Lock()
        self._launch_waiter: asyncio.Future[socket.socket] | None = None
        self._launch_pgid = 0
        self._external_waiters: deque[asyncio.Future[socket.socket]] = deque()
        self._unclaimed: deque[socket.socket] = deque()

    async def listen(self) -> tuple[str, int]:
        """Open the listening socket if needed and return ``(host, port)``.

        ``connect`` calls this itself; call it earlier to learn an ephemeral port, for
        instance to tell externally started bots where to connect.
        """
        if self._listener is None:
            wanted = self.config["port"]
            try:
                family, _, _, _, address = socket.getaddrinfo(
                    self.host, wanted, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
                )[0]
                listener = socket.create_server(address, family=family, backlog=128)
            except OSError as exc:
                # create_server appends the address to strerror; the message names it already.
                reason = (
                    exc.strerror if exc.errno is None or exc.errno < 0 else os.strerror(exc.errno)
                )
                raise ConnectError(f"cannot listen on {self.host}:{wanted}: {reason}") from None
            listener.setblocking(False)
            asyncio.get_running_loop().add_reader(listener.fileno(), self._accept)
            self._listener = listener
            self.port = listener.getsockname()[1]
        assert self.port is not None
        return self.host, self.port

    def _accept(self) -> None:
        assert self._listener is not None
        while True:
            try:
                sock, _ = self._listener.accept()
            except BlockingIOError:
                return
            except ConnectionAbortedError:
                continue  # that client is gone already; the next one may be fine
            except OSError:
                # Out of file descriptors: the listener stays readable, so accepting again
                # at once would spin; retry a little later, when a game may have ended.
                loop = asyncio.get_running_loop()
                loop.remove_reader(self._listener.fileno())
                loop.call_later(ACCEPT_RETRY, self._resume_accepting)
                return
            sock.setblocking(False)
            if sock.family in (socket.AF_INET, socket.AF_INET6):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._dispatch(sock)

    def _resume_accepting(self) -> None:
        if self._listener is not None:
            asyncio.get_running_loop().add_reader(self._listener.fileno(), self._accept)

    def _dispatch(self, sock: socket.socket) -> None:
        waiter = self._launch_waiter
        if (
            waiter is not None
            and not waiter.done()
            and owned_by_group(sock, self._launch_pgid) is not False
        ):
            waiter.set_result(sock)
            return
        while self._external_waiters:
            waiter = self._external_waiters.popleft()
            if not waiter.done():
                waiter.set_result(sock)
                return
        self._unclaimed.append(sock)

    async def connect(self, launch: Launch) -> Connection:
        program = launch.program
        await self.listen()
        if program.argv is not None:
            return await self._connect_started(launch, program.argv)
        if program.connect:
            return self._connection(await self._wait_external(launch), None, launch)
        raise ConnectError(f'bot "{program.name}" has no command to run and does not connect')

    async def _connect_started(self, launch: Launch, argv: tuple[str, ...]) -> Connection:
        host, port = await self.listen()
        name = launch.program.name
        args = expand_argv(argv, identifier=launch.identifier, host=host, port=port)
        env = {"ARENA_HOST": host, "ARENA_PORT": str(port)}
        async with self._launch_lock:
            # Connections already in the backlog arrived before this start: not this bot's.
            self._accept()
            accepted: asyncio.Future[socket.socket] = asyncio.get_running_loop().create_future()
            self._launch_waiter = accepted
            try:
                process = spawn(launch, args, stdin=subprocess.DEVNULL, stdout=None, env=env)
                self._launch_pgid = process.pid
                try:
                    await asyncio.wait(
                        (accepted, process.exited),
                        timeout=launch.startup,
                        return_when=asyncio.FIRST_COMPLETED,
                    )
                except BaseException:
                    if accepted.done():
                        accepted.result().close()
                    await process.end(launch.kill_grace)
                    raise
            finally:
                self._launch_waiter = None
                accepted.cancel()
            if not accepted.cancelled():
                return self._connection(accepted.result(), process, launch)
            if process.exited.done():
                reason = f"{process.exited.result()} before connecting"
            else:
                reason = f"did not connect within {launch.startup:g} s"
            # Still under the lock: a bot that connects while dying must not be taken for
            # the next one.
            await process.end(launch.kill_grace)
        raise ConnectError(f'bot "{name}" {reason}')

    async def _wait_external(self, launch: Launch) -> socket.socket:
        if self._unclaimed:
            return self._unclaimed.popleft()
        waiter: asyncio.Future[socket.socket] = asyncio.get_running_loop().create_future()
        self._external_waiters.append(waiter)
        try:
            return await asyncio.wait_for(waiter, launch.startup)
        except TimeoutError:
            raise ConnectError(
                f'bot "{launch.program.name}" did not connect to {self.host}:{self.port} '
                f"within {launch.startup:g} s"
            ) from None
        finally:
            with contextlib.suppress(ValueError):
                self._external_waiters.remove(waiter)

    @staticmethod
    def _connection(sock: socket.socket, process: BotProcess | None, launch: Launch) -> Connection:
        fd = sock.detach()
        return FdConnection(
            fd,
            fd,
            process=process,
            kill_grace=launch.kill_grace,
            eof_reason="closed the connection",
        )

    async def aclose(self) -> None:
        """Stop listening; connections nobody claimed are closed, waiting bots fail."""
        if self._listener is not None:
            asyncio.get_running_loop().remove_reader(self._listener.fileno())
            self._listener.close()
            self._listener = None
        while self._unclaimed:
            self._unclaimed.popleft().close()
        while self._external_waiters:
            waiter = self._external_waiters.popleft()
            if not waiter.done():
                waiter.set_exception(ConnectError("the tcp transport was closed"))
