"""What a bot sends unasked, and what it leaves unread, is bounded: real bot processes
behind a table, one per test."""

from __future__ import annotations

import asyncio
import sys
import time
import tracemalloc
from pathlib import Path

from paths import BOTS

from arena_kernel.codecs.line import LineCodec
from arena_kernel.model import FaultKind
from arena_kernel.referee.channel import MAX_PENDING, PENDING_BYTES_IN_MESSAGES, Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import MAX_UNSOLICITED_EVENTS, EventLog
from arena_kernel.referee.table import Table
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.testing.scripted import command as scripted
from arena_kernel.transports.base import BotProgram, Launch
from arena_kernel.transports.fd_connection import MAX_UNSENT
from arena_kernel.transports.stdio import StdioTransport

CLOCKS = Clocks(startup=0.0, reply=2.0, grace=0.05)


async def table_of(tmp_path: Path, argv: tuple[str, ...]) -> Table:
    launch = Launch(
        BotProgram("bot", argv), LineCodec(), "bot", ResourceLimits(), tmp_path, 5.0, 0.5
    )
    connection = await StdioTransport().connect(launch)
    channel = Channel("bot", "bot", connection, launch.codec)
    return Table([channel], CLOCKS, EventLog())


def python(source: str) -> tuple[str, ...]:
    return (sys.executable, "-c", source)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


async def gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while alive(pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    return not alive(pid)


def test_unsolicited_messages_are_logged_up_to_a_cap_then_counted(tmp_path: Path) -> None:
    """999 unasked lines after each of three answers: never a flood (each request takes
    them), but the log keeps only the first MAX_UNSOLICITED_EVENTS of them."""
    spammy = {"reply": "\n".join(["ok"] + ["spam"] * 999)}
    chatty = scripted([spammy, spammy, spammy, {"reply": "ok"}])

    async def scenario():
        table = await table_of(tmp_path, chatty)
        try:
            replies = [await table.ask(0, "go") for _ in range(4)]
        finally:
            await table.seats[0].channel.close()
        return table, replies

    table, replies = asyncio.run(scenario())
    assert [r.message for r in replies] == ["ok"] * 4
    assert [len(r.unsolicited) for r in replies] == [0, 999, 999, 999]
    events = table.log.events
    unasked = [e for e in events if e.kind == "recv" and e.elapsed is None]
    assert len(unasked) == MAX_UNSOLICITED_EVENTS
    counted = 3 * 999 - MAX_UNSOLICITED_EVENTS
    assert events[-1].kind == "note" and events[-1].seat == 0
    assert events[-1].text == (
        f"{counted} more unsolicited messages were received (counted, not logged)"
    )
    assert not table.faults


def test_a_message_flood_is_a_flood_fault_and_the_bot_is_ended_at_once(tmp_path: Path) -> None:
    flooder = python(
        "import os\n"
        "for _ in range(2000):\n"
        "    os.write(1, b'spam\\n' * 10000)\n"  # 100 MB at most, then it stops
    )

    async def scenario():
        table = await table_of(tmp_path, flooder)
        channel = table.seats[0].channel
        pid = channel.connection.pid
        try:
            ended = await gone(pid)  # without the game asking anything
            reply = await table.ask(0, "go")
        finally:
            await channel.close()
        return table, reply, ended

    table, reply, ended = asyncio.run(scenario())
    assert ended, "a flooding bot is hung up on at once"
    assert reply.fault.kind is FaultKind.FLOOD
    assert reply.fault.detail == f"more than {MAX_PENDING} unsolicited messages"
    assert len(reply.unsolicited) == MAX_PENDING
    kinds = [e.kind for e in table.log.events]
    assert kinds.count("recv") == MAX_UNSOLICITED_EVENTS
    assert kinds.count("fault") == 1, "logged once, as it happened"
    assert [str(f) for f in table.faults] == [f"flood: {reply.fault.detail}"]


def test_an_endless_stream_unasked_is_a_flood_fault(tmp_path: Path) -> None:
    limit_kib = PENDING_BYTES_IN_MESSAGES * LineCodec().max_message // 1024
    stream = python(
        "import os\n"
        "for _ in range(1000):\n"
        "    os.write(1, b'x' * 65536)\n"  # 64 MiB at most, no newline ever
    )

    async def scenario():
        table = await table_of(tmp_path, stream)
        channel = table.seats[0].channel
        try:
            ended = await gone(channel.connection.pid)
            reply = await table.ask(0, "go")
        finally:
            await channel.close()
        return reply, ended

    reply, ended = asyncio.run(scenario())
    assert ended
    assert reply.fault.kind is FaultKind.FLOOD
    assert reply.fault.detail == f"more than {limit_kib} KiB of unsolicited data"
    assert [f.kind for f in reply.unsolicited] == [FaultKind.OVERSIZE], "the line, cut short"


def test_a_bot_that_never_reads_is_faulted_and_costs_no_more_memory(tmp_path: Path) -> None:
    notice = "n" * ((1 << 20) - 1)

    async def scenario():
        table = await table_of(tmp_path, ("sh", str(BOTS / "deaf.sh")))
        try:
            tracemalloc.start()
            for _ in range(100):  # 100 MiB to a bot that reads nothing
                table.send(0, notice)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            reply = await table.ask(0, "move")
        finally:
            await table.seats[0].channel.close()
        return table, reply, peak

    table, reply, peak = asyncio.run(scenario())
    unread = f"does not read its input ({MAX_UNSENT >> 20} MiB written to it unread)"
    assert str(reply.fault) == f"exit: {unread}"
    assert peak < MAX_UNSENT + 16 * (1 << 20), f"{peak / (1 << 20):.0f} MiB held"
    faults = [e for e in table.log.events if e.kind == "fault"]
    assert [e.text for e in faults] == [f"exit: {unread}"]
