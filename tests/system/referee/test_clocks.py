"""The clocks with real bot processes: the start-up clock covers a bot's first reply, and a
reply is on time or late by when it was read, whatever else the referee is doing."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from arena_kernel.codecs.line import LineCodec
from arena_kernel.model import FaultKind
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.testing.scripted import command as scripted
from arena_kernel.transports.base import BotProgram, Launch
from arena_kernel.transports.stdio import StdioTransport


async def open_table(
    tmp_path: Path, scripts: list[list[dict]], clocks: Clocks, *, only: str = ""
) -> Table:
    """One scripted bot per script; ``only``: the prefix of the messages it answers."""
    transport = StdioTransport()
    codec = LineCodec()
    channels = []
    for i, steps in enumerate(scripts):
        argv = (*scripted(steps), "--only", only)
        launch = Launch(
            BotProgram(f"bot{i}", argv), codec, f"bot{i}", ResourceLimits(), tmp_path, 5.0, 0.5
        )
        channels.append(Channel(f"bot{i}", f"bot{i}", await transport.connect(launch), codec))
    return Table(channels, clocks, EventLog())


async def close(table: Table) -> None:
    for seat in table.seats:
        await seat.channel.close()


def test_the_first_request_is_on_the_startup_clock_and_the_next_on_the_reply_clock(
    tmp_path: Path,
) -> None:
    async def scenario():
        steps = [{"sleep": 1.0, "reply": "hello"}, {"sleep": 1.0, "reply": "too slow"}]
        table = await open_table(tmp_path, [steps], Clocks(startup=6.0, reply=0.3, grace=0.05))
        try:
            return await table.ask(0, "first"), await table.ask(0, "second")
        finally:
            await close(table)

    first, second = asyncio.run(scenario())
    assert first.ok and first.message == "hello" and first.elapsed >= 1.0
    assert second.fault.kind is FaultKind.TIMEOUT
    assert second.fault.detail == "no reply within 0.3 s"


def test_the_startup_clock_counts_from_each_bots_start(tmp_path: Path) -> None:
    """Both bots are asked one second after their start, at once: the one that answers
    2.5 s after its start is on time, the one that needs 8.5 s is not, although it answers
    within 8 s of the request (a clock counted from the request would let it through). The
    quick one has 5.5 s to spare for a busy machine."""

    async def scenario():
        quick = [{"sleep": 1.5, "reply": "ready"}]
        slow = [{"sleep": 7.5, "reply": "ready"}]
        table = await open_table(tmp_path, [quick, slow], Clocks(startup=8.0, reply=0.2))
        try:
            await asyncio.sleep(1.0)
            return await table.ask_many({0: "go", 1: "go"}), table
        finally:
            await close(table)

    replies, table = asyncio.run(scenario())
    assert replies[0].ok and replies[0].message == "ready"
    assert replies[1].fault.kind is FaultKind.TIMEOUT
    assert replies[1].fault.detail == "no reply within 8 s of its start (start-up clock)"
    assert [f.seat for f in table.faults] == [1]


def test_a_greeting_awaited_first_is_on_the_startup_clock_too(tmp_path: Path) -> None:
    greeter = (
        sys.executable,
        "-c",
        "import os, sys, time; time.sleep(1.0); os.write(1, b'bot alive\\n'); sys.stdin.read()",
    )

    async def scenario():
        codec = LineCodec()
        launch = Launch(BotProgram("g", greeter), codec, "g", ResourceLimits(), tmp_path, 5.0, 0.5)
        channel = Channel("g", "g", await StdioTransport().connect(launch), codec)
        table = Table([channel], Clocks(startup=6.0, reply=0.2), EventLog())
        try:
            return await table.receive(0, clock="reply")
        finally:
            await channel.close()

    reply = asyncio.run(scenario())
    assert reply.ok and reply.message == "bot alive"


def test_the_game_budget_does_not_pay_for_the_first_reply(tmp_path: Path) -> None:
    async def scenario():
        steps = [{"sleep": 1.2, "reply": "ready"}, *[{"reply": "ok"}] * 2, {"sleep": 30}]
        clocks = Clocks(startup=6.0, reply=5.0, grace=0.02, game=1.0)
        table = await open_table(tmp_path, [steps], clocks)
        try:
            first = await table.ask(0, "hello")
            budget_after_start = table.seats[0].budget
            return first, budget_after_start, [await table.ask(0, "move") for _ in range(3)]
        finally:
            await close(table)

    first, budget_after_start, moves = asyncio.run(scenario())
    assert first.ok and first.elapsed >= 1.2, "longer than the whole budget, and on time"
    assert budget_after_start == 1.0
    assert moves[0].ok and moves[1].ok
    assert moves[2].fault.kind is FaultKind.TIMEOUT
    assert "game time budget exhausted" in moves[2].fault.detail


def test_a_reply_read_after_its_deadline_is_late_whichever_callback_runs_first(
    tmp_path: Path,
) -> None:
    """The event loop is blocked across the deadline while the bot's late reply arrives:
    when it wakes up, the reply's read and the deadline's timer are due together, and the
    read runs first. The reply is still late, and is never the answer to the next request."""

    async def scenario():
        steps = [{"reply": "warm"}, {"sleep": 0.3, "reply": "late"}, {"reply": "next"}]
        table = await open_table(tmp_path, [steps], Clocks(startup=0.0, reply=2.0, grace=0.05))
        try:
            assert (await table.ask(0, "warm up")).ok
            asyncio.get_running_loop().call_later(0.05, time.sleep, 0.8)
            late = await table.ask(0, "one", timeout=0.1)
            following = await table.ask(0, "two")
            return late, following, table
        finally:
            await close(table)

    late, following, table = asyncio.run(scenario())
    assert late.fault.kind is FaultKind.TIMEOUT and late.fault.detail == "no reply within 0.1 s"
    assert following.ok and following.message == "next" and following.unsolicited == ["late"]
    (logged,) = [e for e in table.log.events if e.kind == "late"]
    assert logged.text == "late" and logged.elapsed >= 0.3


def test_starting_bots_does_not_hold_up_the_replies_of_others(tmp_path: Path) -> None:
    """Another game starts 40 bots while two replies are in flight, in a referee holding
    1 GiB. Starting a bot must not stall the event loop (a fork of the referee per bot
    would, for seconds): the reply that came late is refused, the one that came in time is
    taken, and both are timed as the bots took them."""
    ballast = bytearray(1 << 30)
    for page in range(0, len(ballast), 4096):
        ballast[page] = 1

    async def start_bots(transport: StdioTransport, codec: LineCodec) -> list:
        await asyncio.sleep(0.02)
        launches = [
            Launch(
                BotProgram("cat", ("cat",)), codec, f"cat{i}", ResourceLimits(), tmp_path, 5.0, 0.5
            )
            for i in range(40)
        ]
        return [await transport.connect(launch) for launch in launches]

    async def scenario():
        late_bot = [{"reply": "warm"}, {"sleep": 0.3, "reply": "late"}]
        prompt_bot = [{"reply": "warm"}, {"sleep": 0.05, "reply": "prompt"}]
        clocks = Clocks(startup=0.0, reply=1.0, grace=0.05)
        table = await open_table(tmp_path, [late_bot, prompt_bot], clocks)
        others: list = []
        try:
            assert all(r.ok for r in (await table.ask_many({0: "warm", 1: "warm"})).values())
            starting = asyncio.ensure_future(start_bots(StdioTransport(), LineCodec()))
            late, prompt = await asyncio.gather(table.ask(0, "go", timeout=0.2), table.ask(1, "go"))
            others = await starting
            await asyncio.sleep(0.5)  # the late reply arrives meanwhile
            return late, prompt, table
        finally:
            await close(table)
            await asyncio.gather(*(connection.close() for connection in others))

    late, prompt, table = asyncio.run(scenario())
    del ballast
    assert late.fault.kind is FaultKind.TIMEOUT
    (logged,) = [e for e in table.log.events if e.kind == "late"]
    assert logged.text == "late" and 0.3 <= logged.elapsed < 1.0
    assert prompt.ok and prompt.message == "prompt"
    assert 0.05 <= prompt.elapsed < 1.0


def test_a_notification_written_meanwhile_does_not_restart_the_stopwatch(
    tmp_path: Path,
) -> None:
    async def scenario():
        steps = [{"reply": "warm"}, {"sleep": 0.5, "reply": "done"}]
        table = await open_table(tmp_path, [steps], Clocks(startup=0.0, reply=2.0), only="ask")
        try:
            assert (await table.ask(0, "ask: warm up")).ok
            asyncio.get_running_loop().call_later(0.25, table.send, 0, "notice")
            return await table.ask(0, "ask: go")
        finally:
            await close(table)

    reply = asyncio.run(scenario())
    assert reply.ok and reply.message == "done" and reply.elapsed >= 0.5
