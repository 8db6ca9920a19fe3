"""Attaching a channel to a log: what a bot sent before any log was attached (a greeting
written as soon as it connected) is not missing from the first transcript."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from arena_kernel.codecs.line import LineCodec
from arena_kernel.model import Fault, FaultKind
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.transports.base import BotProgram, Connection, Launch, OnClosed, OnData
from arena_kernel.transports.stdio import StdioTransport


class Wire(Connection):
    """A connection the test feeds by hand: no process, no timing."""

    def start(self, on_data: OnData, on_closed: OnClosed) -> None:
        self.feed = on_data

    def write(self, data: bytes) -> None:
        pass

    async def close(self) -> None:
        pass


def events(log: EventLog) -> list[tuple[str, int | None, str]]:
    return [(e.kind, e.seat, e.text) for e in log.events]


def test_early_messages_go_into_the_first_log_attached_only() -> None:
    wire = Wire()
    channel = Channel("bot", "2-bot", wire, LineCodec())
    wire.feed(b"2-bot alive\n\xff\n")

    first = EventLog()
    channel.attach(first, 2)
    assert events(first) == [
        ("recv", 2, "2-bot alive"),
        ("fault", 2, "malformed: invalid UTF-8 at byte 0 (0xff: invalid start byte): \ufffd"),
    ]

    second = EventLog()
    channel.attach(second, 0)
    wire.feed(b"later\n")
    assert events(second) == [("recv", 0, "later")], "the greeting is logged once, not again"
    assert len(first.events) == 2

    waiting = channel.drain()
    assert waiting[0] == "2-bot alive", "logging the early messages does not consume them"
    assert isinstance(waiting[1], Fault) and waiting[1].kind is FaultKind.MALFORMED
    assert waiting[2:] == ["later"]


def test_a_greeting_from_a_real_bot_is_in_the_games_log(tmp_path: Path) -> None:
    """The bot greets and exits before the table exists (the exit itself is the game's to
    record when it asks); the table's log still shows what it said."""
    greeter = (sys.executable, "-c", "import os; os.write(1, b'bot7 alive\\n')")

    async def scenario() -> tuple[Table, object]:
        codec = LineCodec()
        launch = Launch(BotProgram("g", greeter), codec, "g", ResourceLimits(), tmp_path, 5.0, 0.5)
        channel = Channel("g", "g", await StdioTransport().connect(launch), codec)
        try:
            async with asyncio.timeout(5):
                while channel.closed is None:  # exited: everything it wrote was delivered
                    await asyncio.sleep(0.01)
            table = Table([channel], Clocks(startup=2.0), EventLog())
            return table, await table.receive(0)
        finally:
            await channel.close()

    table, reply = asyncio.run(scenario())
    assert reply.ok and reply.message == "bot7 alive"
    assert events(table.log) == [("recv", 0, "bot7 alive")]
