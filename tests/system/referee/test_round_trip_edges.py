"""The edges of the round trip that the compiled path stands in for (run both ways by the
conftest): a loop with a ``create_future`` of its own, a channel's subclass, and a bot's
connection read to its end or reset. And the compiled path's configuration refuses a
class whose state is not in the slots it reads."""

from __future__ import annotations

import asyncio
import os
import socket
import struct
import time
from pathlib import Path

import pytest

from arena_kernel.codecs import compiled
from arena_kernel.codecs.line import LineCodec
from arena_kernel.referee import hot_path
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Reply, Table
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.testing.scripted import command as scripted
from arena_kernel.transports.base import BotProgram, Launch
from arena_kernel.transports.fd_connection import READ_SIZE, FdConnection
from arena_kernel.transports.stdio import StdioTransport

CLOCKS = Clocks(startup=5.0, reply=5.0, grace=0.05)


class CountingLoop(asyncio.SelectorEventLoop):
    """An event loop whose futures are its own to make."""

    made = 0

    def create_future(self) -> asyncio.Future:
        self.made += 1
        return super().create_future()


class LoggedChannel(Channel):
    """A channel of a subclass: its state is where the channel's is."""

    __slots__ = ()


async def echo_table(tmp_path: Path, channel_type: type[Channel] = Channel) -> Table:
    codec = LineCodec()
    program = BotProgram("echo", scripted([{"reply": "pong"}]))
    launch = Launch(program, codec, "echo", ResourceLimits(), tmp_path, 5.0, 0.5)
    channel = channel_type("echo", "echo", await StdioTransport().connect(launch), codec)
    return Table([channel], CLOCKS, EventLog())


async def asks(table: Table, count: int) -> list[str]:
    return [(await table.ask(0, f"ping {i}")).message for i in range(count)]


async def three_asks(table: Table) -> list[str]:
    try:
        return await asks(table, 3)
    finally:
        await table.seats[0].channel.close()


def test_a_loop_of_its_own_makes_every_requests_future(tmp_path: Path) -> None:
    loop = CountingLoop()
    try:
        table = loop.run_until_complete(echo_table(tmp_path))
        before = loop.made
        replies = loop.run_until_complete(asks(table, 3))
        made = loop.made - before
        loop.run_until_complete(table.seats[0].channel.close())
    finally:
        loop.close()
    assert replies == ["pong"] * 3
    assert made == 3
    assert [e.kind for e in table.log.events] == ["send", "recv"] * 3


def test_a_channels_subclass_takes_the_same_round_trip(tmp_path: Path) -> None:
    async def scenario() -> Table:
        table = await echo_table(tmp_path, LoggedChannel)
        assert await three_asks(table) == ["pong"] * 3
        return table

    table = asyncio.run(scenario())
    sent = [(e.kind, e.text) for e in table.log.events]
    assert sent == [(k, t) for i in range(3) for k, t in (("send", f"ping {i}"), ("recv", "pong"))]
    assert table.seats[0].channel.answered


async def read_until_closed(connection: FdConnection) -> tuple[list[bytes], str]:
    """Every chunk the connection delivers, and why it closed."""
    chunks: list[bytes] = []
    closed: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    connection.start(chunks.append, closed.set_result)
    reason = await asyncio.wait_for(closed, 5)
    return chunks, reason


def test_a_connection_delivers_what_was_written_then_its_end(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[bytes], str]:
        read_fd, write_fd = os.pipe()
        connection = FdConnection(
            read_fd, write_fd, process=None, kill_grace=0.1, eof_reason="closed its output"
        )
        os.write(write_fd, b"one\n")
        asyncio.get_running_loop().call_later(0.05, os.close, write_fd)
        try:
            return await read_until_closed(connection)
        finally:
            os.close(read_fd)

    chunks, reason = asyncio.run(scenario())
    assert b"".join(chunks) == b"one\n"
    assert reason == "closed its output"


def test_a_connection_reset_by_the_bot_is_its_fault(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[bytes], str]:
        listener = socket.create_server(("127.0.0.1", 0))
        peer = socket.create_connection(listener.getsockname()[:2])
        ours, _ = listener.accept()
        listener.close()
        peer.sendall(b"x" * (READ_SIZE + 10))
        # Closed with data unread and no linger: the system resets the connection.
        ours_fd = ours.detach()
        connection = FdConnection(
            ours_fd, ours_fd, process=None, kill_grace=0.1, eof_reason="closed the connection"
        )
        peer.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        time.sleep(0.05)
        os.write(ours_fd, b"unread\n")
        time.sleep(0.05)
        peer.close()
        try:
            return await read_until_closed(connection)
        finally:
            os.close(ours_fd)

    chunks, reason = asyncio.run(scenario())
    assert reason == "reset the connection"
    assert len(b"".join(chunks)) <= READ_SIZE + 10


@pytest.mark.parametrize(
    "configure",
    [
        lambda extension: extension.configure_channels(
            channel=type("Loose", (), {"closed": None}),
            event_log=EventLog,
            wire_text=str,
            monotonic=time.monotonic,
            create_future=asyncio.BaseEventLoop.create_future,
            future_type=asyncio.Future,
            max_logged=10,
        ),
        lambda extension: extension.configure_connections(
            connection=type("Loose", (), {"_closing": False}), write=print, read_size=10
        ),
    ],
    ids=["channel", "connection"],
)
def test_the_compiled_path_refuses_state_outside_slots(
    configure, round_trip: str, tmp_path: Path
) -> None:
    if round_trip == "python":
        pytest.skip("the compiled path's own configuration")
    extension = compiled.COMPILED
    assert extension is not None and hot_path.COMPILED is extension
    with pytest.raises(TypeError, match="is not a slot"):
        configure(extension)

    async def scenario() -> list[str]:
        return await three_asks(await echo_table(tmp_path))

    assert asyncio.run(scenario()) == ["pong"] * 3  # configured as before


@pytest.mark.parametrize("result", [("pong", 0.25, None), ["pong", 0.25, 0.125]])
def test_the_compiled_reply_is_the_tables(result, round_trip: str) -> None:
    if round_trip == "python":
        pytest.skip("the compiled path's own step")
    extension = hot_path.COMPILED
    assert extension is not None
    unsolicited = ["early"]
    reply = extension.reply(result, 3.0, unsolicited)
    assert type(reply) is Reply
    assert reply == Reply(result[0], None, result[1], 3.0, unsolicited, result[2])
    assert reply.unsolicited is unsolicited and reply.ok
