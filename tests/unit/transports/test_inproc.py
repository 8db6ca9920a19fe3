"""The inproc transport (through a real codec), and the registration of all built-ins."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from transport_helpers import Recorder, run

from arena_kernel.registries.manager import BUILTIN_SOURCE, get_plugin_manager, load_registries
from arena_kernel.transports.base import ConnectError
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
