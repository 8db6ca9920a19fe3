"""A built-in bot run as a program ends with one clear line, never a traceback, when it
cannot handle a message or cannot reach the arena."""

from __future__ import annotations

import socket
import sys
from typing import Any

import pytest

from arena_kernel.bots.serve import main, serve
from arena_kernel.codecs.line import LineCodec


class Picky:
    """Answers "ping", and fails on anything else as a built-in bot's parser would."""

    def start(self) -> list[Any]:
        return []

    def on_message(self, message: Any) -> list[Any]:
        if message != "ping":
            raise KeyError("subject")
        return ["pong"]


def test_a_message_the_bot_cannot_handle_ends_it_with_one_line() -> None:
    chunks = [b"ping\nhello\n"]
    written: list[bytes] = []
    with pytest.raises(SystemExit) as ended:
        serve(Picky(), LineCodec(), lambda: chunks.pop() if chunks else b"", written.append)
    assert written == [b"pong\n"]
    assert str(ended.value) == "bot: cannot answer 'hello' (KeyError: 'subject')"


def test_an_arena_that_is_not_there_ends_the_bot_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(sys.modules["__main__"], "__doc__", "test bot")
    with pytest.raises(SystemExit) as ended:
        main(lambda args: Picky(), LineCodec(), ["--tcp", "127.0.0.1", str(port)])
    assert str(ended.value).startswith(f"bot: cannot reach the arena at ('127.0.0.1', {port}): ")
    with pytest.raises(SystemExit) as ended:
        main(
            lambda args: Picky(),
            LineCodec(),
            [str(port)],
            configure=lambda parser: parser.add_argument("port", type=int),
            address=lambda args: ("127.0.0.1", args.port),
        )
    assert "cannot reach the arena" in str(ended.value)
