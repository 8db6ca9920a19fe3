"""The ``tcp`` transport: the arena listens, and every bot connects to it as a client.

This is how the contest servers of Speed Clue and Liar's Dice ran: the bot is given a host
and a port and connects. A connection gets a seat only when it is proven to be that seat's
(see :mod:`arena_kernel.transports.tcp_listener`), and a started bot is proven by the processes
holding the connection's client end, never by when it arrived:

- A bot the arena starts gets a listening port of its own (``{port}``, ``ARENA_PORT``),
  opened just before its start and closed as soon as it connected or failed. Only a
  connection held by that bot's processes is taken there, so no one else can even race
  for its seat, and bots start in parallel.
- With a fixed ``port`` option (bots that hard-code the contest's port, Liar's Dice's
  5533), every bot connects to that one shared port; each connection still goes only to
  the started bot whose processes hold it.
- A sandboxed bot without the machine's network connects to a listener made inside its
  own network namespace (:mod:`arena_kernel.sandbox.inner_listener`), at the loopback
  address, on the fixed ``port`` or one of its own: there only its processes can connect.
- A ``connect = true`` bot is started by someone else. It takes the first connection that
  no process the arena started made, on the shared port (first come, first served), or
  only one from its ``peer`` address, or only one on its own ``port``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import socket
import subprocess
from typing import Any, NoReturn

from arena_kernel.errors import OptionError, SetupError
from arena_kernel.options import Option
from arena_kernel.sandbox import inner_listener
from arena_kernel.transports.base import ConnectError, Connection, Launch, Transport, expand_argv
from arena_kernel.transports.connection_holders import Address, ip_address
from arena_kernel.transports.fd_connection import FdConnection
from arena_kernel.transports.process import BotProcess, spawn
from arena_kernel.transports.tcp_listener import Claim, Listener, describe_os_error, open_listener


class TcpTransport(Transport):
    """Listening sockets for one run: one per started bot (or one shared fixed port), one
    shared port for ``connect = true`` bots, one per ``connect`` bot bound to a port.

    A bot with a command is started with ``{host}``, ``{port}`` and ``{identifier}`` in its
    argv (and ``ARENA_HOST``, ``ARENA_PORT``, ``ARENA_ID`` in its environment). Failing to
    listen is the arena's set-up failure (:class:`~arena_kernel.errors.SetupError`), never a
    bot's fault.
    """

    name = "tcp"
    summary = "TCP client: the bot connects to the arena (loopback by default)."
    options = {
        "host": Option("127.0.0.1", "The host name or address the arena listens on."),
        "port": Option(
            0,
            "A fixed port every bot connects to (bots that hard-code their port); 0: each "
            "bot the arena starts gets a port of its own.",
            minimum=0,
            maximum=65535,
        ),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        host = self.config["host"]
        if not host:
            raise OptionError(
                "host", 'transport "tcp": option "host" must be a host name or address'
            )
        self.host: str = host
        self.port: int | None = None
        """The shared port actually listened on (known once listening; ``port = 0`` picks
        one)."""
        self._shared: Listener | None = None
        self._bound: dict[int, Listener] = {}

    # -- listening --------------------------------------------------------------------

    def _open(self, port: int, *, keep_strangers: bool, purpose: str) -> Listener:
        try:
            return open_listener(self.host, port, keep_strangers=keep_strangers)
        except OSError as exc:
            raise SetupError(
                f"tcp transport: cannot listen on {self.host}:{port}{purpose}: "
                f"{describe_os_error(exc)}"
            ) from None

    def _shared_listener(self) -> Listener:
        if self._shared is None:
            self._shared = self._open(self.config["port"], keep_strangers=True, purpose="")
            self.port = self._shared.port
        return self._shared

    async def prepare(self) -> None:
        """Check before the first game that the arena can listen: open the fixed shared
        port (so that a port in use stops the run at once), or try the host with a port
        of the system's choice."""
        if self.config["port"]:
            self._shared_listener()
        else:
            self._open(0, keep_strangers=False, purpose="").close()

    async def listen(self) -> tuple[str, int]:
        """Open the shared listening socket if needed and return ``(host, port)``: where
        ``connect = true`` bots connect (call it to learn a port the system picked)."""
        return self.host, self._shared_listener().port

    # -- connecting -------------------------------------------------------------------

    async def connect(self, launch: Launch) -> Connection:
        program = launch.program
        if program.argv is not None:
            return await self._connect_started(launch, program.argv)
        if program.connect:
            return await self._connect_external(launch)
        raise ConnectError(f'bot "{program.name}" has no command to run and does not connect')

    async def _connect_started(self, launch: Launch, argv: tuple[str, ...]) -> Connection:
        if launch.sandbox is not None and not launch.sandbox.host_network:
            return await self._connect_sandboxed(launch, argv)
        name = launch.program.name
        own_port = not self.config["port"]
        if own_port:
            listener = self._open(0, keep_strangers=False, purpose=f' for bot "{name}"')
        else:
            listener = self._shared_listener()
        try:
            port = listener.port
            args = expand_argv(argv, identifier=launch.identifier, host=self.host, port=port)
            env = {"ARENA_HOST": self.host, "ARENA_PORT": str(port)}
            process = spawn(launch, args, stdin=subprocess.DEVNULL, stdout=None, env=env)
            # No await between the start and the claim: no connection is looked at before
            # the listener knows whose it may be.
            claim = listener.claim(owner=process.pid)
            return await self._seat_started(launch, listener, claim, process)
        finally:
            if own_port:
                listener.close()

    async def _seat_started(
        self, launch: Launch, listener: Listener, claim: Claim, process: BotProcess
    ) -> Connection:
        try:
            await asyncio.wait(
                (claim.connection, process.exited),
                timeout=launch.startup,
                return_when=asyncio.FIRST_COMPLETED,
            )
        except BaseException:
            sock = listener.release(claim)
            if sock is not None:
                sock.close()
            await process.end(launch.kill_grace)
            raise
        sock = listener.release(claim)
        if sock is not None:
            return self._connection(sock, process, launch)
        await _give_up(process, launch, claim)

    async def _connect_sandboxed(self, launch: Launch, argv: tuple[str, ...]) -> Connection:
        """Start the bot behind the inner listener, take the listening socket it sends,
        and accept the one connection of the bot's namespace on it."""
        host = inner_listener.LOOPBACK[_is_ipv6(self.host)]
        args = expand_argv(argv, identifier=launch.identifier, host=host)
        loop = asyncio.get_running_loop()
        arena_end, bot_end = socket.socketpair()
        try:
            inner = inner_listener.helper_command(args, bot_end.fileno(), host, self.config["port"])
            sandbox = launch.sandbox
            assert sandbox is not None
            launch = dataclasses.replace(launch, sandbox=sandbox.reading(inner_listener.needs()))
            process = spawn(
                launch,
                inner,
                stdin=subprocess.DEVNULL,
                stdout=None,
                env={"ARENA_HOST": host},
                pass_fds=(bot_end.fileno(),),
            )
        except BaseException:
            arena_end.close()
            raise
        finally:
            bot_end.close()
        try:
            async with asyncio.timeout(launch.startup):
                sock = await _first_connection(loop, arena_end, process)
        except TimeoutError:
            sock = None
        except BaseException:
            await process.end(launch.kill_grace)
            raise
        finally:
            arena_end.close()
        if sock is not None:
            return self._connection(sock, process, launch)
        await _give_up(process, launch)

    async def _connect_external(self, launch: Launch) -> Connection:
        port, peer = _binding(launch)
        if port is None:
            listener = self._shared_listener()
        else:
            if port not in self._bound:
                purpose = f' for bot "{launch.program.name}"'
                self._bound[port] = self._open(port, keep_strangers=True, purpose=purpose)
            listener = self._bound[port]
        claim = listener.claim(owner=None, peer=peer)
        try:
            await asyncio.wait((claim.connection,), timeout=launch.startup)
        finally:
            sock = listener.release(claim)
        if sock is not None:
            return self._connection(sock, None, launch)
        _raise_if_starved(claim, launch)
        if listener.closed:
            raise ConnectError("the tcp transport was closed")
        source = f" from {peer}" if peer is not None else ""
        raise ConnectError(
            f'bot "{launch.program.name}" did not connect to {self.host}:{listener.port}'
            f"{source} within {launch.startup:g} s"
        )

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
        for listener in (self._shared, *self._bound.values()):
            if listener is not None:
                listener.close("the tcp transport was closed")
        self._shared = None
        self._bound.clear()


async def _give_up(process: BotProcess, launch: Launch, claim: Claim | None = None) -> NoReturn:
    """End a started bot that did not connect, and raise :class:`ConnectError` saying why
    (:class:`SetupError` when the arena was too short of descriptors to seat it)."""
    if process.exited.done():
        reason = f"{process.exited.result()} before connecting"
    else:
        reason = f"did not connect within {launch.startup:g} s"
    await process.end(launch.kill_grace)
    if claim is not None:
        _raise_if_starved(claim, launch)
    raise ConnectError(f'bot "{launch.program.name}" {reason}')


def _is_ipv6(host: str) -> bool:
    try:
        return ip_address(host).version == 6
    except ValueError:
        return False


async def _first_connection(
    loop: asyncio.AbstractEventLoop, channel: socket.socket, process: BotProcess
) -> socket.socket | None:
    """The listening socket the inner listener sends over ``channel``, then the first
    connection on it; None if the bot exits first. The listener is closed either way."""
    channel.setblocking(False)
    received: asyncio.Future[socket.socket | None] = loop.create_future()

    def on_message() -> None:
        try:
            _, fds, _, _ = socket.recv_fds(channel, 64, 1)
        except BlockingIOError:
            return
        except OSError:
            fds = []
        loop.remove_reader(channel.fileno())
        if not received.done():
            received.set_result(socket.socket(fileno=fds[0]) if fds else None)
        else:
            for fd in fds:
                os.close(fd)

    loop.add_reader(channel.fileno(), on_message)
    try:
        await asyncio.wait((received, process.exited), return_when=asyncio.FIRST_COMPLETED)
    finally:
        loop.remove_reader(channel.fileno())
    listener = received.result() if received.done() else None
    if listener is None:
        return None
    with listener:
        listener.setblocking(False)
        accepting = asyncio.ensure_future(loop.sock_accept(listener))
        try:
            await asyncio.wait((accepting, process.exited), return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not accepting.done():
                accepting.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await accepting
        if accepting.cancelled() or accepting.exception() is not None:
            return None
        return accepting.result()[0]


def _binding(launch: Launch) -> tuple[int | None, Address | None]:
    """The port and the peer address a ``connect = true`` seat is bound to, if any: the
    match file's per-bot ``port`` and ``peer``."""
    program = launch.program
    return program.port, None if program.peer is None else ip_address(program.peer)


def _raise_if_starved(claim: Claim, launch: Launch) -> None:
    """A seat lost while the arena could not accept or check connections is the arena's
    failure (out of file descriptors), not the bot's: the run stops instead of scoring it."""
    if claim.starved is not None:
        raise SetupError(
            f'tcp transport: bot "{launch.program.name}" could not be seated: {claim.starved}'
        )
