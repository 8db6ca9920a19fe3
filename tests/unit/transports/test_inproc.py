"""The inproc transport (through a real codec), and the registration of all built-ins."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from transport_helpers import Recorder, run

from arena_kernel.bot_clocks import BotClocks
from arena_kernel.codecs.line import LineCodec
from arena_kernel.referee import turns
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.registries.manager import BUILTIN_SOURCE, get_plugin_manager, load_registries
from arena_kernel.transports.base import ConnectError, Connection, OnClosed, OnData
from arena_kernel.transports.inproc import InprocTransport
from arena_kernel.transports.process import stderr_log_path
from arena_kernel.transports.stdio import StdioTransport
from arena_kernel.transports.tcp import TcpTransport


class EchoBot:
    def start(self) -> list[Any]:
        return ["hello"]

    def on_message(self, message: Any) -> list[Any]:
        if message == "fail":
            raise ValueError("boom")
        if message == "silent":
            return []
        return [f"echo {message}", "ok"]


class RefusingBot(EchoBot):
    def start(self) -> list[Any]:
        raise RuntimeError("no greeting today")


def test_round_trip_through_the_codec(make_launch):
    async def main():
        conn = await InprocTransport().connect(make_launch(inproc=EchoBot))
        assert conn.pid is None
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        assert rec.data == b""  # the greeting too comes from the loop, not from start()
        conn.write(b"a\nsil")
        conn.write(b"ent\nb\n")
        assert rec.data == b""  # never re-entrantly inside write()
        await rec.received(b"hello\necho a\nok\necho b\nok\n")
        await conn.close()
        conn.write(b"c\n")
        await asyncio.sleep(0.01)
        assert rec.closed == []
        assert rec.data == b"hello\necho a\nok\necho b\nok\n"

    run(main())


def test_a_raising_bot_closes_with_the_exception(make_launch):
    launch = make_launch(inproc=EchoBot)

    async def main():
        conn = await InprocTransport().connect(launch)
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        conn.write(b"fail\nnever\n")
        assert await rec.wait_closed() == "in-process bot raised ValueError: boom"
        conn.write(b"more\n")
        await asyncio.sleep(0.01)
        assert rec.events == [("data", b"hello\n"), ("closed", rec.closed[0])]
        await conn.close()

        # Written before start(): what happened is still reported, in order, after it.
        early = await InprocTransport().connect(launch)
        early.write(b"x\nfail\n")
        rec = Recorder()
        early.start(rec.on_data, rec.on_closed)
        await rec.wait_closed()
        assert rec.events == [
            ("data", b"hello\necho x\nok\n"),
            ("closed", "in-process bot raised ValueError: boom"),
        ]

    run(main())
    log = stderr_log_path(launch).read_text()
    assert log.startswith("Traceback") and "ValueError: boom" in log


def test_a_bot_that_fails_to_start(make_launch):
    launch = make_launch(inproc=RefusingBot)
    with pytest.raises(ConnectError) as caught:
        run(InprocTransport().connect(launch))
    assert str(caught.value) == (
        'cannot start bot "bot": in-process bot raised RuntimeError: no greeting today'
    )
    assert "no greeting today" in stderr_log_path(launch).read_text()


class IdentifiedBot(EchoBot):
    """Greets with the identifier the arena gave it, as Speed Clue's ``<id> alive``."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.identifier = "nobody"

    def identify(self, identifier: str) -> None:
        self.calls.append(f"identify {identifier}")
        self.identifier = identifier

    def start(self) -> list[Any]:
        self.calls.append("start")
        return [f"{self.identifier} alive"]


class NamelessBot(IdentifiedBot):
    def identify(self, identifier: str) -> None:
        raise LookupError("who am I")


def test_an_inproc_bot_learns_its_identifier_before_it_starts(make_launch):
    made: list[IdentifiedBot] = []

    def factory() -> IdentifiedBot:
        made.append(IdentifiedBot())
        return made[-1]

    async def main():
        conn = await InprocTransport().connect(make_launch(inproc=factory, identifier="3-clue"))
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        conn.write(b"x\n")
        await rec.received(b"3-clue alive\necho x\nok\n")
        await conn.close()

    run(main())
    assert made[0].calls == ["identify 3-clue", "start"]


def test_a_bot_without_identify_starts_as_before(make_launch):
    assert not hasattr(EchoBot(), "identify")

    async def main():
        conn = await InprocTransport().connect(make_launch(inproc=EchoBot, identifier="3-clue"))
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        await rec.received(b"hello\n")
        await conn.close()

    run(main())


def test_a_bot_whose_identify_raises_fails_to_start(make_launch):
    launch = make_launch(inproc=NamelessBot)
    with pytest.raises(ConnectError) as caught:
        run(InprocTransport().connect(launch))
    assert str(caught.value).endswith('"bot": in-process bot raised LookupError: who am I')
    assert "who am I" in stderr_log_path(launch).read_text()


def test_undecodable_bytes_from_the_referee_are_a_referee_bug(make_launch):
    async def main():
        conn = await InprocTransport().connect(make_launch(inproc=EchoBot))
        conn.start(Recorder().on_data, Recorder().on_closed)
        with pytest.raises(RuntimeError, match="cannot decode"):
            conn.write(b"\xff\n")

    run(main())


def test_a_program_without_an_object(make_launch):
    with pytest.raises(ConnectError, match="has no in-process implementation"):
        run(InprocTransport().connect(make_launch(("python",))))


def test_hook_arena_register_transports():
    registries = load_registries(get_plugin_manager(entry_points=False))
    transports = registries.transports
    assert transports.cls("stdio") is StdioTransport
    assert transports.cls("tcp") is TcpTransport
    assert transports.cls("inproc") is InprocTransport
    for name in ("stdio", "tcp", "inproc"):
        assert transports[name].source == BUILTIN_SOURCE
        assert transports.cls(name).summary


class ClockedBot(EchoBot):
    """Greets with the reply limit and the mode it was told."""

    def __init__(self) -> None:
        self.told: BotClocks | None = None

    def clocks(self, clocks: BotClocks) -> None:
        self.told = clocks

    def start(self) -> list[Any]:
        told = self.told
        return ["told nothing" if told is None else f"reply {told.reply:g} {told.mode}"]


def test_an_inproc_bot_is_told_its_clocks_before_it_starts_on_the_wall_clock(make_launch):
    clocks = BotClocks(reply=0.5, first_reply=4.0, grace=0.1, mode="cpu")

    async def main(launch, greeting):
        conn = await InprocTransport().connect(launch)
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        await rec.received(greeting)
        await conn.close()

    # A bot in process is judged by the wall clock whatever the match's mode: it is told so.
    run(main(make_launch(inproc=ClockedBot, clocks=clocks), b"reply 0.5 wall\n"))
    run(main(make_launch(inproc=ClockedBot), b"told nothing\n"))


class ThreadedEchoBot(EchoBot):
    threaded = True


@pytest.mark.parametrize("bot", [EchoBot, ThreadedEchoBot])
def test_a_threaded_bot_answers_in_order_and_fails_as_a_plain_one(make_launch, bot):
    async def main():
        conn = await InprocTransport().connect(make_launch(inproc=bot))
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        conn.write(b"a\nsilent\nb\n")
        await rec.received(b"hello\necho a\nok\necho b\nok\n")
        conn.write(b"fail\nnever\n")
        assert await rec.wait_closed() == "in-process bot raised ValueError: boom"
        await asyncio.sleep(0.05)
        assert rec.data == b"hello\necho a\nok\necho b\nok\n"
        await conn.close()

    run(main())


class Rendezvous:
    """Two bots of one game: ``wait`` blocks until the other is sent ``go`` (or gives up
    after seconds, answering ``blocked``), as a long search in one seat while the other
    seat is asked."""

    def __init__(self) -> None:
        self.went = threading.Event()

    def bot(self, threaded: bool) -> Callable[[], Any]:
        went = self.went

        class Bot(EchoBot):
            def on_message(self, message: Any) -> list[Any]:
                if message == "go":
                    went.set()
                    return ["went"]
                return ["waited" if went.wait(2.0) else "blocked"]

        Bot.threaded = threaded  # type: ignore[attr-defined]
        return Bot


@pytest.mark.parametrize(("threaded", "answer"), [(True, b"waited"), (False, b"blocked")])
def test_a_threaded_bot_thinks_while_the_event_loop_serves_another(make_launch, threaded, answer):
    pair = Rendezvous()

    async def main():
        waiting = await InprocTransport().connect(make_launch(inproc=pair.bot(threaded)))
        going = await InprocTransport().connect(make_launch(inproc=pair.bot(False)))
        waits, goes = Recorder(), Recorder()
        waiting.start(waits.on_data, waits.on_closed)
        going.start(goes.on_data, goes.on_closed)
        waiting.write(b"wait\n")
        await asyncio.sleep(0)  # the loop runs on: the other bot is sent its message
        going.write(b"go\n")
        await waits.received(b"hello\n" + answer + b"\n")
        await goes.received(b"hello\nwent\n")
        await waiting.close()
        await going.close()

    run(main())


def test_hand_over_delivers_what_is_waiting_at_once_in_order_and_once(make_launch):
    """The greeting and the replies made inside the writes, all of them, in order; the
    loop's own delivery that comes after finds nothing more to give."""

    async def main():
        conn = await InprocTransport().connect(make_launch(inproc=EchoBot))
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        conn.write(b"a\n")
        conn.write(b"silent\nb\n")
        assert rec.data == b"", "never inside write()"
        conn.hand_over()
        assert rec.data == b"hello\necho a\nok\necho b\nok\n"
        conn.hand_over()
        await asyncio.sleep(0.01)
        assert rec.data == b"hello\necho a\nok\necho b\nok\n", "each reply once"
        conn.write(b"c\n")
        await rec.received(b"hello\necho a\nok\necho b\nok\necho c\nok\n")
        conn.write(b"fail\n")
        conn.hand_over()
        assert await rec.wait_closed() == "in-process bot raised ValueError: boom"
        assert rec.events[-1] == ("closed", "in-process bot raised ValueError: boom")
        await conn.close()

    run(main())


def test_replies_left_waiting_come_in_the_next_turn_in_order_and_once(make_launch):
    """What no request handed over is delivered in the loop's next turn, every bot's in
    the order its first reply came; what was handed over is not delivered again."""

    async def main() -> list[tuple[str, bytes]]:
        delivered: list[tuple[str, bytes]] = []
        a = await InprocTransport().connect(make_launch(inproc=EchoBot))
        b = await InprocTransport().connect(make_launch(inproc=EchoBot))
        a.start(lambda data: delivered.append(("a", data)), lambda reason: None)
        b.start(lambda data: delivered.append(("b", data)), lambda reason: None)
        await asyncio.sleep(0)  # the greetings
        delivered.clear()
        b.write(b"1\n")
        a.write(b"2\n")
        b.write(b"3\n")
        assert delivered == []
        await asyncio.sleep(0)
        in_turn = list(delivered)
        a.write(b"4\n")
        a.hand_over()
        a.write(b"5\n")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        await a.close()
        await b.close()
        return [*in_turn, ("--", b""), *delivered[len(in_turn) :]]

    assert run(main()) == [
        ("b", b"echo 1\nok\n"),
        ("b", b"echo 3\nok\n"),
        ("a", b"echo 2\nok\n"),
        ("--", b""),
        ("a", b"echo 4\nok\n"),
        ("a", b"echo 5\nok\n"),
    ]


def test_a_connection_that_is_a_pipe_hands_over_nothing(make_launch):
    """The base class's hand_over: what a pipe holds comes from the event loop."""

    class Pipe(Connection):
        def start(self, on_data: OnData, on_closed: OnClosed) -> None:
            self.on_data = on_data

        def write(self, data: bytes) -> None:
            self.written = data

        async def close(self) -> None:
            pass

    pipe = Pipe()
    seen: list[bytes] = []
    pipe.start(seen.append, lambda reason: None)
    pipe.write(b"x\n")
    pipe.hand_over()
    assert seen == []


def test_a_request_to_an_inproc_bot_takes_one_turn_of_the_loop_once_the_slice_is_spent(
    make_launch, monkeypatch
):
    """The reply is handed over as the referee waits, in the order the bot sent: an
    unasked message it sent first answers the request, as through a pipe (the reply that
    came after it waits for the next); and a request made once the loop's time slice is
    spent lets the loop run the other games once (here every slice is spent by the time
    it is looked at)."""
    moments = iter(range(10**6))
    monkeypatch.setattr(turns, "_clock", lambda: next(moments) * turns.TIME_SLICE)
    monkeypatch.setattr(turns, "SHARED", turns.Slice())

    class Chatty(EchoBot):
        def on_message(self, message: Any) -> list[Any]:
            return ["unasked"] if message == "news" else [f"echo {message}"]

    async def main():
        conn = await InprocTransport().connect(make_launch(inproc=Chatty))
        table = Table([Channel("chatty", "chatty", conn, LineCodec())], Clocks(), EventLog())
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0)
                ticks += 1

        ticking = asyncio.create_task(ticker())
        await table.receive(0)  # the greeting
        answers = [(await table.ask(0, f"m{n}")).message for n in range(20)]
        before = ticks
        await table.ask(0, "m20")
        assert ticks - before in (1, 2), "one turn of the loop per request, as the other games'"
        table.send(0, "news")
        late = await table.ask(0, "m21")
        then = await table.ask(0, "m22")
        ticking.cancel()
        await conn.close()
        return answers, late, then

    answers, late, then = run(main())
    assert answers == [f"echo m{n}" for n in range(20)]
    assert (late.message, then.message, then.unsolicited) == ("unasked", "echo m22", ["echo m21"])
