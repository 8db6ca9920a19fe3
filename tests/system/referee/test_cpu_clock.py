"""The CPU-time clock (``[clock] mode = "cpu"``) with real bot processes on a loaded machine.

CPU hogs run beside the bots, each in a session of its own as every bot is (the kernel's
autogroup scheduling shares a core between sessions, not between processes, so hogs of one
session would leave a bot half the machine). Each hog ends by itself after two minutes, and
only the hogs this module started are ever signalled.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from arena_kernel.codecs.line import LineCodec
from arena_kernel.model import FaultKind
from arena_kernel.processes import cpu_meter
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks, Mode
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Reply, Table
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.testing.scripted import command
from arena_kernel.transports.base import BotProgram, Launch
from arena_kernel.transports.stdio import StdioTransport

HOG = "import time, sys\nend = time.time() + float(sys.argv[1])\nwhile time.time() < end: pass"

LIMIT, GRACE = 0.2, 0.02
READY = {"reply": "ready"}
"""The first step of every bot here: its first reply is on the start-up clock."""


@pytest.fixture(scope="module")
def cpu_hogs() -> Iterator[int]:
    """Two busy processes per core (at least 4), each in a session of its own."""
    count = max(4, 2 * (os.cpu_count() or 1))
    hogs = [
        subprocess.Popen([sys.executable, "-c", HOG, "120"], start_new_session=True)
        for _ in range(count)
    ]
    try:
        yield count
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


@pytest.fixture(params=["cgroup", "proc"])
def meter(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each way of reading a bot's CPU time: its cgroup, or its process tree in /proc."""
    if request.param == "cgroup" and cpu_meter.accounting_parent() is None:
        pytest.skip("arena cannot make cgroups on this machine")
    if request.param == "proc":
        monkeypatch.setattr(cpu_meter.CgroupMeter, "make", classmethod(lambda cls, _: None))
    return request.param


def ask(
    tmp_path: Path, steps: list[dict], requests: int, mode: Mode, **clocks: float
) -> tuple[list[Reply], Table]:
    """Start one scripted bot for ``mode``, ask it ``requests`` times, end it."""

    async def scenario() -> tuple[list[Reply], Table]:
        codec = LineCodec()
        launch = Launch(
            BotProgram("bot", command(steps)),
            codec,
            "bot",
            ResourceLimits(),
            tmp_path,
            30.0,
            0.5,
            cpu_clock=mode == "cpu",
        )
        channel = Channel("bot", "bot", await StdioTransport().connect(launch), codec)
        settings = {"startup": 30.0, "reply": LIMIT, "grace": GRACE, "wall_cap": 50.0, **clocks}
        table = Table([channel], Clocks(mode=mode, **settings), EventLog())
        try:
            return [await table.ask(0, f"request {n}") for n in range(requests)], table
        finally:
            await channel.close()

    return asyncio.run(scenario())


def test_a_bot_within_its_cpu_limit_is_never_faulted_on_the_cpu_clock_but_is_on_the_wall_clock(
    tmp_path: Path, cpu_hogs: int
) -> None:
    steps = [READY, {"burn": 0.15, "reply": "move"}]
    on_cpu, _ = ask(tmp_path, steps, 7, "cpu")
    on_wall, _ = ask(tmp_path, steps, 7, "wall")

    assert [r.fault for r in on_cpu] == [None] * 7
    assert all(0.15 <= r.cpu <= LIMIT + GRACE for r in on_cpu[1:])
    # The load is real: by the wall clock the same work took longer than the limit...
    assert max(r.elapsed for r in on_cpu[1:]) > LIMIT + GRACE
    # ...and the wall clock faulted it for what the machine was doing.
    timeouts = [r for r in on_wall[1:] if r.fault is not None]
    assert timeouts and {r.fault.kind for r in timeouts} == {FaultKind.TIMEOUT}
    assert all(r.cpu is None for r in on_wall)


def test_a_bot_over_its_cpu_limit_is_faulted_on_both_clocks(tmp_path: Path, cpu_hogs: int) -> None:
    steps = [READY, {"burn": 0.3, "reply": "move"}]
    (_, on_cpu), _ = ask(tmp_path, steps, 2, "cpu")
    (_, on_wall), _ = ask(tmp_path, steps, 2, "wall")

    assert on_cpu.fault.kind is FaultKind.TIMEOUT
    assert on_cpu.fault.detail.startswith("no reply within 0.2 s of CPU time (it used 0.2")
    assert on_cpu.cpu >= LIMIT + GRACE
    assert on_wall.fault.kind is FaultKind.TIMEOUT
    assert on_wall.fault.detail == "no reply within 0.2 s"


def test_a_bot_is_charged_for_the_cpu_of_the_child_that_does_its_thinking(
    tmp_path: Path, meter: str
) -> None:
    steps = [READY, {"burn": 0.12, "child": True, "reply": "move"}, {"burn": 0.3, "child": True}]
    (_, within, over), _ = ask(tmp_path, steps, 3, "cpu")

    # /proc counts a reaped child by the clock tick (10 ms), a cgroup to the microsecond.
    assert within.ok and within.cpu >= 0.11
    assert over.fault.kind is FaultKind.TIMEOUT and over.cpu >= LIMIT


def test_a_bot_that_sleeps_past_the_wall_cap_is_faulted_with_the_wall_cap_reason(
    tmp_path: Path,
) -> None:
    steps = [READY, {"sleep": 0.9, "reply": "yawn"}, {"reply": "move"}]
    (_, asleep, awake), table = ask(tmp_path, steps, 3, "cpu", wall_cap=3.0)

    assert asleep.fault.kind is FaultKind.WALL_CAP
    assert asleep.fault.detail.startswith(
        "no reply within 0.66 s by the wall clock (3 times its limit of 0.2 s of CPU time)"
    )
    assert asleep.cpu is not None and asleep.cpu < 0.1
    # Its late answer is logged as late, and never taken for the answer to the next request.
    assert awake.ok and awake.message == "move"
    assert [e.text for e in table.log.events if e.kind == "late"] == ["yawn"]


def test_the_game_budget_pays_cpu_time_on_the_cpu_clock(tmp_path: Path) -> None:
    steps = [READY, {"burn": 0.05, "reply": "move"}]
    replies, table = ask(tmp_path, steps, 4, "cpu", game=1.0)

    assert all(r.ok for r in replies)
    spent = sum(r.cpu for r in replies[1:])  # the first reply is on the start-up clock
    assert table.seats[0].budget == pytest.approx(1.0 - spent)


def test_every_reply_event_carries_both_times(tmp_path: Path) -> None:
    replies, table = ask(tmp_path, [READY, {"burn": 0.02, "reply": "move"}], 3, "cpu")

    answers = [e for e in table.log.events if e.kind == "recv"]
    assert [(e.elapsed, e.cpu) for e in answers] == [(r.elapsed, r.cpu) for r in replies]
    assert all(e.cpu is not None and e.cpu <= e.elapsed + 0.01 for e in answers[1:])


def test_a_bots_accounting_cgroup_is_gone_with_it(tmp_path: Path) -> None:
    found = cpu_meter.accounting_parent()
    if found is None:
        pytest.skip("arena cannot make cgroups on this machine")
    run = found[0]
    before = set(run.glob("bot-*"))
    ask(tmp_path, [READY], 2, "cpu")
    assert set(run.glob("bot-*")) == before


SLOW_STARTER = (
    "import sys, time\n"
    "end = time.process_time() + 0.4\n"
    "while time.process_time() < end: pass\n"
    "for line in sys.stdin: print('ready', flush=True)\n"
)
"""A bot that uses 0.4 s of CPU time starting up (a cold runtime), then answers at once."""


def ask_slow_starter(tmp_path: Path, startup: float) -> Reply:
    async def scenario() -> Reply:
        codec = LineCodec()
        argv = (sys.executable, "-c", SLOW_STARTER)
        launch = Launch(
            BotProgram("bot", argv), codec, "bot", ResourceLimits(), tmp_path, 30.0, 0.5
        )
        connection = await StdioTransport().connect(replace(launch, cpu_clock=True))
        channel = Channel("bot", "bot", connection, codec)
        clocks = Clocks(startup=startup, reply=LIMIT, grace=GRACE, mode="cpu", wall_cap=50.0)
        try:
            # Asked once it has started up: that CPU time is all before the request.
            async with asyncio.timeout(30):
                while (connection.cpu_meter.seconds() or 0.0) < 0.4:
                    await asyncio.sleep(0.05)
            return await Table([channel], clocks, EventLog()).ask(0, "hello")
        finally:
            await channel.close()

    return asyncio.run(scenario())


def test_the_start_up_clock_counts_cpu_time_from_the_bots_start(tmp_path: Path) -> None:
    late = ask_slow_starter(tmp_path, startup=0.3)
    assert late.fault is not None and late.fault.kind is FaultKind.TIMEOUT
    assert "0.3 s of CPU time from its start (start-up clock)" in late.fault.detail

    ready = ask_slow_starter(tmp_path, startup=5.0)
    # On time, and its reply's own CPU time is not its start-up's.
    assert ready.ok and ready.cpu is not None and ready.cpu < 0.1
