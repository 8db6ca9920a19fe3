"""The alarm: the referee's deadlines on a timerfd, not on the event loop's timers."""

from __future__ import annotations

import asyncio
import ctypes
import gc
import math
import time
import weakref

import pytest

from arena_kernel.codecs.line import LineCodec
from arena_kernel.model import FaultKind
from arena_kernel.referee import alarm as alarm_module
from arena_kernel.referee.alarm import Alarm, alarm
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.transports.base import Connection, OnClosed, OnData


class Silent(Connection):
    """A bot that never answers."""

    def start(self, on_data: OnData, on_closed: OnClosed) -> None:
        pass

    def write(self, data: bytes) -> None:
        pass

    async def close(self) -> None:
        pass


def test_calls_come_in_time_order_and_cancelled_ones_not_at_all() -> None:
    """The latest call is scheduled first and the earliest last: the timer is moved
    earlier each time, and every call comes when due, not before."""

    async def scenario() -> list[tuple[str, float]]:
        loop = asyncio.get_running_loop()
        found = alarm(loop)
        assert isinstance(found, Alarm) and alarm(loop) is found, "one alarm per loop"
        start = time.monotonic()
        made: list[tuple[str, float]] = []

        def note(name: str) -> None:
            made.append((name, time.monotonic() - start))

        found.call_at(start + 0.3, lambda: note("third"))
        found.call_at(start + 0.2, lambda: note("never")).cancel()
        found.call_at(start + 0.2, lambda: note("second"))
        found.call_at(start + 0.1, lambda: note("first"))
        found.call_at(math.inf, lambda: note("infinite"))
        await asyncio.sleep(0.5)
        return made

    made = asyncio.run(scenario())
    assert [name for name, _ in made] == ["first", "second", "third"]
    for (_, at), due in zip(made, (0.1, 0.2, 0.3), strict=True):
        assert due <= at < due + 0.15


def test_a_waiting_request_keeps_no_timer_in_the_event_loop() -> None:
    """The point of the alarm: with no timer of its own, the loop waits for events
    without a timeout, and pays nothing per iteration for the referee's clocks."""

    async def scenario() -> tuple[int, FaultKind | None]:
        codec = LineCodec()
        table = Table([Channel("bot", "bot", Silent(), codec)], Clocks(startup=0.0), EventLog())
        asking = asyncio.ensure_future(table.ask(0, "move", timeout=0.2))
        await asyncio.sleep(0.05)
        timers = len(asyncio.get_running_loop()._scheduled)  # type: ignore[attr-defined]
        reply = await asking
        return timers, reply.fault.kind if reply.fault else None

    timers, fault = asyncio.run(scenario())
    assert timers == 0
    assert fault is FaultKind.TIMEOUT


def test_without_a_timerfd_the_loops_own_timers_keep_the_clocks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_libc(*args: object, **kwargs: object) -> ctypes.CDLL:
        raise OSError("no timerfd here")

    monkeypatch.setattr(alarm_module.ctypes, "CDLL", no_libc)

    async def scenario() -> tuple[bool, float, FaultKind | None]:
        loop = asyncio.get_running_loop()
        codec = LineCodec()
        table = Table([Channel("bot", "bot", Silent(), codec)], Clocks(startup=0.0), EventLog())
        started = time.monotonic()
        reply = await table.ask(0, "move", timeout=0.2)
        kind = reply.fault.kind if reply.fault else None
        return alarm(loop) is loop, time.monotonic() - started, kind

    fell_back, took, fault = asyncio.run(scenario())
    assert fell_back
    assert fault is FaultKind.TIMEOUT and 0.2 <= took < 1.0


class Echo(Connection):
    """A bot that answers every line at once, as an in-process bot does."""

    def start(self, on_data: OnData, on_closed: OnClosed) -> None:
        self.on_data = on_data

    def write(self, data: bytes) -> None:
        asyncio.get_running_loop().call_soon(self.on_data, data)

    async def close(self) -> None:
        pass


def test_a_cancelled_call_lets_go_of_its_callback_and_leaves_the_heap() -> None:
    """Cancelled long before they are due, calls keep nothing alive (their callbacks hold
    channels, connections, game logs) and do not pile up in the heap."""

    class Held:
        pass

    async def scenario() -> tuple[list[weakref.ref[Held]], int]:
        found = alarm(asyncio.get_running_loop())
        assert isinstance(found, Alarm)
        held = [Held() for _ in range(1000)]
        refs = [weakref.ref(h) for h in held]
        later = time.monotonic() + 3600
        for h in held:
            found.call_at(later, lambda h=h: h).cancel()  # type: ignore[misc]
        del held, h
        return refs, len(found._due)

    refs, left = asyncio.run(scenario())
    assert all(ref() is None for ref in refs)
    assert left <= 2 * alarm_module.COMPACT_AFTER


def test_finished_games_channels_are_not_kept_by_their_timers() -> None:
    """Games of answered requests on the start-up clock: once each game's channels are
    closed, nothing of theirs (here, their connections) stays alive until their timers
    would have been due."""

    async def scenario() -> list[weakref.ref[Echo]]:
        refs = []
        for _game in range(300):
            bots = [Echo(), Echo()]
            channels = [
                Channel(f"bot{i}", f"bot{i}", bot, LineCodec()) for i, bot in enumerate(bots)
            ]
            table = Table(channels, Clocks(startup=60.0, reply=30.0), EventLog())
            for _move in range(3):
                for seat in range(2):
                    assert (await table.ask(seat, "move")).ok
            for channel in channels:
                await channel.close()
            refs += [weakref.ref(bot) for bot in bots]
            del table, channels, channel, bots
        return refs

    refs = asyncio.run(scenario())
    gc.collect()
    assert sum(ref() is not None for ref in refs) == 0
