"""The table with real bot processes: clocks, deadlines, late replies, faults as values."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

from arena_kernel.codecs.line import LineCodec
from arena_kernel.model import FaultKind
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.testing.scripted import command as scripted
from arena_kernel.transports.base import BotProgram, Launch
from arena_kernel.transports.fd_connection import MAX_UNSENT
from arena_kernel.transports.stdio import StdioTransport

QUICK = Clocks(startup=0.0, reply=1.0, grace=0.05)
"""No start-up clock: a bot's first request has only its own limit, like every later one
(the start-up clock has tests of its own)."""


async def open_table(
    tmp_path: Path, scripts: list[list[dict]], clocks: Clocks = QUICK, *, tagged: bool = False
) -> Table:
    transport = StdioTransport()
    codec = LineCodec()
    channels = []
    for i, steps in enumerate(scripts):
        launch = Launch(
            BotProgram(f"bot{i}", scripted(steps)),
            codec,
            f"bot{i}",
            ResourceLimits(),
            tmp_path,
            5.0,
            0.5,
        )
        connection = await transport.connect(launch)
        channels.append(Channel(f"bot{i}", f"bot{i}", connection, codec, tagged=tagged))
    return Table(channels, clocks, EventLog())


async def close(table: Table) -> None:
    for seat in table.seats:
        await seat.channel.close()


def run(coro):
    return asyncio.run(coro)


def test_ask_measures_the_reply_time(tmp_path: Path) -> None:
    async def scenario():
        table = await open_table(tmp_path, [[{"sleep": 0.2, "reply": "pong"}]])
        try:
            reply = await table.ask(0, "ping")
        finally:
            await close(table)
        return reply, table

    reply, table = run(scenario())
    assert reply.ok and reply.message == "pong"
    assert 0.2 <= reply.elapsed < 1.0
    received = [e for e in table.log.events if e.kind == "recv"]
    assert received[0].text == "pong" and received[0].elapsed == pytest.approx(
        reply.elapsed, abs=0.01
    )
    assert [e.kind for e in table.log.events] == ["send", "recv"]


def test_ask_many_shares_one_deadline(tmp_path: Path) -> None:
    """Every request is written before any reply is awaited, so the bots think at the same
    time, each within its own clock from its own request."""

    async def scenario():
        table = await open_table(
            tmp_path,
            [
                [{"sleep": 0.3, "reply": "a"}],
                [{"sleep": 0.3, "reply": "b"}],
                [{"sleep": 30, "reply": "c"}],
            ],
            # A wide clock: the bots that answer must do so however loaded the machine.
            Clocks(startup=0.0, reply=3.0, grace=0.05),
        )
        try:
            replies = await table.ask_many({0: "go", 1: "go", 2: "go"})
        finally:
            await close(table)
        return replies, table

    replies, table = run(scenario())
    assert replies[0].message == "a" and replies[1].message == "b"
    assert replies[2].fault.kind is FaultKind.TIMEOUT
    assert replies[2].fault.detail == "no reply within 3 s"
    assert [f.seat for f in table.faults] == [2]
    events = table.log.events
    kinds = [(e.kind, e.seat) for e in events]
    assert kinds[:3] == [("send", 0), ("send", 1), ("send", 2)], "all asked before any answer"
    assert sorted(kinds[3:5]) == [("recv", 0), ("recv", 1)] and kinds[5] == ("fault", 2)
    sent = {e.seat: e.t for e in events if e.kind == "send"}
    assert events[5].t - sent[2] >= 3.0, "the silent bot had its whole clock"


def test_a_late_reply_is_never_the_answer_to_the_next_request(tmp_path: Path) -> None:
    async def scenario():
        table = await open_table(tmp_path, [[{"sleep": 0.4, "reply": "late"}, {"reply": "second"}]])
        try:
            first = await table.ask(0, "one", timeout=0.1)
            second = await table.ask(0, "two", timeout=2.0)
        finally:
            await close(table)
        return first, second, table

    first, second, table = run(scenario())
    assert first.fault.kind is FaultKind.TIMEOUT
    assert second.ok and second.message == "second"
    assert [e.text for e in table.log.events if e.kind == "late"] == ["late"]


def test_with_tagged_replies_the_message_after_a_timeout_goes_to_the_game(
    tmp_path: Path,
) -> None:
    """A protocol whose replies name their request: the late answer to "one" arrives while
    "two" is waiting, and the game gets it to judge (it can tell it is stale) and then
    waits on for the real answer."""

    async def scenario():
        steps = [{"sleep": 0.4, "reply": "re one"}, {"reply": "re two"}]
        table = await open_table(tmp_path, [steps], tagged=True)
        try:
            first = await table.ask(0, "one", timeout=0.1)
            stale = await table.ask(0, "two", timeout=2.0)
            current = await table.receive(0, timeout=2.0, clock="reply")
        finally:
            await close(table)
        return first, stale, current, table

    first, stale, current, table = run(scenario())
    assert first.fault.kind is FaultKind.TIMEOUT
    assert stale.ok and stale.message == "re one"
    assert current.ok and current.message == "re two"
    assert not [e for e in table.log.events if e.kind == "late"]


def test_a_bot_keeps_its_entrant_number_and_identifier_across_tables(tmp_path: Path) -> None:
    async def scenario():
        first = await open_table(tmp_path, [[{"reply": "a"}], [{"reply": "b"}]])
        channels = [seat.channel for seat in first.seats]
        second = Table(list(reversed(channels)), QUICK, EventLog(), entrants=[1, 0])
        try:
            return first, second
        finally:
            await close(first)

    first, second = run(scenario())
    assert [first.entrant(0), first.entrant(1)] == [0, 1]
    assert [second.entrant(0), second.entrant(1)] == [1, 0]
    assert [first.identifier(0), second.identifier(0)] == ["bot0", "bot1"]


def test_unsolicited_messages_come_with_the_next_reply(tmp_path: Path) -> None:
    async def scenario():
        table = await open_table(tmp_path, [[{"reply": "one\nextra"}, {"reply": "two"}]])
        try:
            first = await table.ask(0, "a")
            await asyncio.sleep(0.2)
            second = await table.ask(0, "b")
        finally:
            await close(table)
        return first, second

    first, second = run(scenario())
    assert first.message == "one" and first.unsolicited == []
    assert second.message == "two" and second.unsolicited == ["extra"]


def test_replies_after_the_first_are_judged_as_the_first(tmp_path: Path) -> None:
    """A request after the bot's first reply takes a shorter way through the table and the
    channel (nearly every request does): the same reply, limit, unsolicited messages, log
    and timeout as the general way gives."""

    async def scenario():
        steps = [
            {"reply": "one"},
            {"reply": "two\nextra"},
            {"reply": "three"},
            {"sleep": 1.5, "reply": "late"},
            {"reply": "four"},
        ]
        table = await open_table(tmp_path, [steps])
        try:
            replies = [await table.ask(0, "a")]
            replies.append(await table.ask(0, "b"))
            await asyncio.sleep(0.2)
            replies += [await table.ask(0, move) for move in ("c", "d", "e")]
        finally:
            await close(table)
        return replies, table

    (first, second, third, slow, after), table = run(scenario())
    assert [r.message for r in (first, second, third)] == ["one", "two", "three"]
    assert all(r.ok and r.limit == 1.0 and r.cpu is None for r in (first, second, third))
    assert 0 < second.elapsed < 1.0
    assert second.unsolicited == [] and third.unsolicited == ["extra"]
    assert slow.fault.kind is FaultKind.TIMEOUT and slow.fault.detail == "no reply within 1 s"
    assert slow.limit == 1.0 and table.faults == [slow.fault]
    assert after.ok and after.message == "four", "the late answer is not taken for it"
    kinds = [(e.kind, e.text) for e in table.log.events if e.kind != "fault"]
    assert kinds[:6] == [
        ("send", "a"),
        ("recv", "one"),
        ("send", "b"),
        ("recv", "two"),
        ("recv", "extra"),
        ("send", "c"),
    ]
    assert ("late", "late") in kinds


def test_game_budget_limits_the_total_thinking_time(tmp_path: Path) -> None:
    """Each reply's time is taken from the budget: once what is left is less than the
    per-reply clock, it is the limit, and a bot that spent it all gets no time at all."""

    async def scenario():
        steps = [{"reply": "ready"}, {"sleep": 1.0, "reply": "ok"}, {"sleep": 30, "reply": "ok"}]
        table = await open_table(tmp_path, [steps], Clocks(reply=10.0, grace=0.02, game=3.0))
        try:
            # The first request is on the start-up clock and costs no budget.
            assert (await table.ask(0, "warm up")).ok
            return [await table.ask(0, "move") for _ in range(3)]
        finally:
            await close(table)

    first, second, third = run(scenario())
    assert first.ok and first.limit == 3.0
    assert second.fault.kind is FaultKind.TIMEOUT
    assert "game time budget exhausted" in second.fault.detail
    assert second.limit == pytest.approx(3.0 - first.elapsed), "what the first reply left"
    assert third.fault.kind is FaultKind.TIMEOUT and third.limit == 0.0


def test_a_dead_bot_answers_every_request_at_once_with_its_exit(tmp_path: Path) -> None:
    async def scenario():
        table = await open_table(tmp_path, [[{"exit": 4}]])
        try:
            first = await table.ask(0, "a")
            started = time.monotonic()
            second = await table.ask(0, "b")
            return first, second, time.monotonic() - started, table
        finally:
            await close(table)

    first, second, took, table = run(scenario())
    assert first.fault.kind is FaultKind.EXIT and "status 4" in first.fault.detail
    assert second.fault.kind is FaultKind.EXIT and took < 0.5, "at once, not on the reply clock"
    assert not table.alive(0)
    assert len(table.faults) == 1, "one death is one fault, however often the game asks"


def test_receive_takes_a_greeting_sent_before_anyone_asked(tmp_path: Path) -> None:
    greeter = [
        sys.executable,
        "-c",
        "import os,sys,time; os.write(1, b'bot7 alive\\n'); sys.stdin.read()",
    ]

    async def scenario():
        transport = StdioTransport()
        codec = LineCodec()
        launch = Launch(
            BotProgram("g", tuple(greeter)), codec, "g", ResourceLimits(), tmp_path, 5.0, 0.5
        )
        channel = Channel("g", "g", await transport.connect(launch), codec)
        table = Table([channel], Clocks(startup=2.0), EventLog())
        await asyncio.sleep(0.3)
        try:
            return await table.receive(0)
        finally:
            await channel.close()

    reply = run(scenario())
    assert reply.ok and reply.message == "bot7 alive"


def test_illegal_moves_are_recorded_with_the_games_reason(tmp_path: Path) -> None:
    async def scenario():
        table = await open_table(tmp_path, [[{"reply": "x"}]])
        await close(table)
        return table

    table = run(scenario())
    fault = table.fault(0, FaultKind.ILLEGAL, "attack onto an empty cell at E3")
    assert (fault.seat, fault.kind, fault.detail) == (
        0,
        FaultKind.ILLEGAL,
        "attack onto an empty cell at E3",
    )
    assert table.log.events[-1].kind == "fault"
    assert "E3" in table.log.events[-1].text


def test_deadlines_follow_each_request_not_the_one_before(tmp_path: Path) -> None:
    """Channels keep one timer across requests; it must never cut a later, longer limit
    short, nor let a later, shorter one run long. The limits are far apart, so that a loaded
    machine cannot blur them: the answer to the second request comes after the first
    request's limit has passed, and the third request ends long before the second's would."""

    async def scenario():
        table = await open_table(
            tmp_path,
            [
                [
                    {"reply": "ready"},
                    {"reply": "quick"},
                    {"sleep": 3, "reply": "slow"},
                    {"sleep": 30, "reply": "x"},
                ]
            ],
        )
        try:
            assert (await table.ask(0, "warm up", timeout=30)).ok
            quick = await table.ask(0, "a", timeout=2.5)
            slow = await table.ask(0, "b", timeout=8)
            started = time.monotonic()
            short = await table.ask(0, "c", timeout=0.3)
            return quick, slow, short, time.monotonic() - started
        finally:
            await close(table)

    quick, slow, short, took = run(scenario())
    assert quick.message == "quick"
    assert slow.ok and slow.message == "slow", "the first request's 2.5 s must not apply"
    assert short.fault.kind is FaultKind.TIMEOUT and short.fault.detail == "no reply within 0.3 s"
    assert 0.3 <= took < 8, "the second request's 8 s must not apply"


def test_a_bot_that_floods_unasked_messages_gets_a_flood_fault(tmp_path: Path) -> None:
    async def scenario():
        table = await open_table(tmp_path, [[{"reply": "\n".join(["spam"] * 1500)}]])
        try:
            first = await table.ask(0, "a")
            await asyncio.sleep(0.3)
            second = await table.ask(0, "b")
        finally:
            await close(table)
        return first, second

    first, second = run(scenario())
    assert first.ok and first.message == "spam"
    assert second.fault.kind is FaultKind.FLOOD
    assert second.fault.detail == "more than 1000 unsolicited messages"
    assert len(second.unsolicited) == 1000, "what was kept is still shown to the game"


def test_a_request_that_overflows_a_deaf_bots_input_is_its_fault(tmp_path: Path) -> None:
    """The write of a request may itself find the bot gone (too much written to it unread):
    the request then returns that fault, as it does for a bot gone before."""

    async def scenario():
        codec = LineCodec()
        program = BotProgram("deaf", ("sleep", "60"))  # never reads its input
        launch = Launch(program, codec, "deaf", ResourceLimits(), tmp_path, 5.0, 0.5)
        connection = await StdioTransport().connect(launch)
        table = Table([Channel("deaf", "deaf", connection, codec)], QUICK, EventLog())
        half = "x" * (MAX_UNSENT // 2)
        try:
            table.send(0, half)
            table.send(0, half)
            return await table.ask(0, half)
        finally:
            await close(table)

    reply = run(scenario())
    assert reply.fault is not None and reply.fault.kind is FaultKind.EXIT, reply
    assert "does not read its input" in reply.fault.detail
