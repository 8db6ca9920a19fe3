"""The time slice the games on an event loop share while their bots answer in process."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from arena_kernel.codecs.line import LineCodec
from arena_kernel.referee import turns
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.transports.inproc import InprocTransport


class Echo:
    def start(self) -> list[Any]:
        return ["hello"]

    def on_message(self, message: Any) -> list[Any]:
        return [f"echo {message}"]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(turns, "_clock", clock)
    monkeypatch.setattr(turns, "SHARED", turns.Slice())
    return clock


async def _table(make_launch: Any) -> Table:
    connection = await InprocTransport().connect(make_launch(inproc=Echo))
    table = Table([Channel("echo", "echo", connection, LineCodec())], Clocks(), EventLog())
    await table.receive(0)  # the greeting; from here on every request is answered at once
    return table


class Ticker:
    """Counts the turns of the event loop."""

    def __init__(self) -> None:
        self.turns = 0
        self._task = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0)
            self.turns += 1

    def stop(self) -> None:
        self._task.cancel()


def test_requests_within_the_slice_keep_the_loop_and_the_first_past_it_gives_it_back(
    make_launch, clock
):
    async def main() -> list[int]:
        table = await _table(make_launch)
        ticker = Ticker()
        await asyncio.sleep(0)  # the ticker is waiting for the next turn
        await table.ask(0, "first")  # the slice was spent: the loop turns, and renews it
        seen = [ticker.turns]
        for n in range(5):
            clock.now += turns.TIME_SLICE / 10  # half the slice in all
            assert (await table.ask(0, f"m{n}")).message == f"echo m{n}"
        seen.append(ticker.turns)
        clock.now += turns.TIME_SLICE  # past the slice's end
        await table.ask(0, "late")
        seen.append(ticker.turns)
        await table.ask(0, "renewed")
        seen.append(ticker.turns)
        ticker.stop()
        return seen

    first, within, past, renewed = asyncio.run(main())
    assert first >= 1
    assert within == first, "requests within the slice take no turn of the loop"
    assert past == within + 1, "the first request past the slice gives the loop back once"
    assert renewed == past, "the turn renewed the slice"


def test_a_turn_of_the_loop_lasts_one_slice_however_many_games_run(make_launch, clock):
    """The slice is the loop's, not each game's: once one game finds it spent, every other
    game gives the loop back after its next request, so a turn holds the requests of one
    slice and one more per game (a slice per game would hold three times as many)."""

    class Costly(Echo):
        def on_message(self, message: Any) -> list[Any]:
            clock.now += turns.TIME_SLICE * 0.4  # three answers spend a slice
            return super().on_message(message)

    async def main() -> list[tuple[str, int]]:
        connections = [await InprocTransport().connect(make_launch(inproc=Costly)) for _ in "abc"]
        tables = [
            Table([Channel("c", "c", connection, LineCodec())], Clocks(), EventLog())
            for connection in connections
        ]
        for table in tables:
            await table.receive(0)
        ticker = Ticker()
        done: list[tuple[str, int]] = []

        async def game(name: str, table: Table) -> None:
            for n in range(12):
                assert (await table.ask(0, str(n))).message == f"echo {n}"
                done.append((name, ticker.turns))

        await asyncio.gather(*(game(name, t) for name, t in zip("abc", tables, strict=True)))
        ticker.stop()
        return done

    done = asyncio.run(main())
    assert sorted(name for name, _ in done) == sorted("abc" * 12)
    per_turn = Counter(turn for _, turn in done)
    assert max(per_turn.values()) <= 3 + 2, per_turn
    assert len({name for name, turn in done if per_turn[turn] == 5}) >= 2, "games share a turn"


def test_the_slice_is_renewed_once_per_turn_and_then_lasts_its_length(clock):
    async def main() -> list[bool]:
        share = turns.SHARED
        spent = [share.spent()]
        await share.give_back()
        spent.append(share.spent())
        clock.now += turns.TIME_SLICE * 0.99
        spent.append(share.spent())
        clock.now += turns.TIME_SLICE * 0.02
        spent.append(share.spent())
        return spent

    assert asyncio.run(main()) == [True, False, False, True]


def test_a_renewal_left_on_a_closed_loop_does_not_keep_a_new_loop_from_renewing(clock):
    share = turns.SHARED
    stale = asyncio.new_event_loop()

    async def give_back_and_stop() -> None:
        share._renewing = asyncio.get_running_loop()  # as if its renewal never ran

    stale.run_until_complete(give_back_and_stop())
    stale.close()

    async def main() -> bool:
        await share.give_back()
        return share.spent()

    assert asyncio.run(main()) is False
