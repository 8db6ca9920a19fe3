"""A stdio bot's process is made in a worker thread: the event loop runs on meanwhile, and a
start cancelled half-way leaves nothing behind."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from arena_kernel.codecs.line import LineCodec
from arena_kernel.processes.procfs import read_stat
from arena_kernel.processes.reaper import reaper
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.transports import process
from arena_kernel.transports.base import BotProgram, Launch
from arena_kernel.transports.stdio import StdioTransport

SLOW = 0.3
"""How long a start takes here once the process exists (the thread that made it waiting
for its turn on a very busy machine)."""


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    """Every process made, each handed over :data:`SLOW` seconds after it was made."""
    processes: list[subprocess.Popen[bytes]] = []
    real = subprocess.Popen

    def slow_popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        processes.append(real(*args, **kwargs))
        time.sleep(SLOW)
        return processes[-1]

    monkeypatch.setattr(process.subprocess, "Popen", slow_popen)
    return processes


def cat(tmp_path: Path) -> Launch:
    return Launch(
        BotProgram("cat", ("cat",)), LineCodec(), "cat", ResourceLimits(), tmp_path, 5.0, 0.5
    )


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_the_event_loop_runs_while_a_bots_process_is_made(
    tmp_path: Path, made: list[subprocess.Popen[bytes]]
) -> None:
    async def scenario() -> list[float]:
        ticks: list[float] = []

        async def tick() -> None:
            while True:
                ticks.append(time.monotonic())
                await asyncio.sleep(0.01)

        ticking = asyncio.ensure_future(tick())
        began = time.monotonic()
        connection = await StdioTransport().connect(cat(tmp_path))
        ticking.cancel()
        await connection.close()
        return [t - began for t in ticks]

    ticks = asyncio.run(scenario())
    assert len(made) == 1
    assert sum(1 for t in ticks if 0 < t < SLOW) >= 5, "the loop ticked on during the start"


def test_a_start_cancelled_half_way_leaves_no_process_and_no_descriptor(
    tmp_path: Path, made: list[subprocess.Popen[bytes]]
) -> None:
    async def scenario() -> None:
        connecting = asyncio.ensure_future(StdioTransport().connect(cat(tmp_path)))
        await asyncio.sleep(SLOW / 3)
        connecting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await connecting

    before = open_descriptors()
    asyncio.run(scenario())
    (bot,) = made
    assert bot.returncode is not None, "made after all, then killed and reaped"
    assert read_stat(bot.pid) is None
    assert open_descriptors() == before


def test_a_sweep_while_a_bot_is_started_leaves_that_bot_alone(
    tmp_path: Path, made: list[subprocess.Popen[bytes]]
) -> None:
    """Another game's bot ends (and the reaper sweeps) after this bot's process was made
    but before its start is over: the new process carries a tag the reaper already knows."""

    async def scenario() -> list[bytes]:
        connecting = asyncio.ensure_future(StdioTransport().connect(cat(tmp_path)))
        await asyncio.sleep(SLOW / 3)
        assert made and not connecting.done()
        await reaper.sweep()
        connection = await connecting
        echoed: list[bytes] = []
        connection.start(echoed.append, lambda reason: None)
        connection.write(b"still here\n")
        for _ in range(100):
            if echoed:
                break
            await asyncio.sleep(0.02)
        await connection.close()
        return echoed

    assert b"".join(asyncio.run(scenario())) == b"still here\n"
