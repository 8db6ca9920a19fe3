"""A built-in bot run as a program ends with one clear line, never a traceback, when it
cannot handle a message or cannot reach the arena."""

from __future__ import annotations

import socket
import subprocess
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


PROGRAM = """
from arena_kernel.plugin import LineCodec, main

class Echo:
    def __init__(self, suffix="!"):
        self.suffix = suffix
    def start(self):
        return []
    def on_message(self, message):
        return [message + self.suffix]

main({bot}, LineCodec())
"""


@pytest.mark.parametrize(
    "bot",
    ["Echo()", "Echo", "lambda: Echo()", "lambda args: Echo(suffix='!')"],
)
def test_main_takes_a_bot_or_a_factory_of_bots(bot: str, tmp_path) -> None:
    path = tmp_path / "bot.py"
    path.write_text(PROGRAM.format(bot=bot))
    done = subprocess.run(
        [sys.executable, str(path)], input="hi\nho\n", capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "hi!\nho!\n", "")


@pytest.mark.parametrize("bot", ["lambda: 42", "Echo().on_message", "'Echo'"])
def test_main_given_no_bot_ends_the_program_with_one_line(bot: str, tmp_path) -> None:
    path = tmp_path / "bot.py"
    path.write_text(PROGRAM.format(bot=bot))
    done = subprocess.run(
        [sys.executable, str(path)], input="hi\n", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("bot: ") and done.stderr.count("\n") == 1, done.stderr
    assert any(why in done.stderr for why in ("not a bot", "needs a bot", "cannot build"))


class Mute:
    """Fails at its greeting, as a bot whose set-up breaks would."""

    def start(self) -> list[Any]:
        raise OSError("no model file")

    def on_message(self, message: Any) -> list[Any]:
        return []


def test_a_bot_that_fails_to_start_ends_with_one_line() -> None:
    with pytest.raises(SystemExit) as ended:
        serve(Mute(), LineCodec(), lambda: b"", lambda data: None)
    assert str(ended.value) == "bot: cannot start (OSError: no model file)"


def test_a_port_that_is_not_a_number_is_a_usage_error(tmp_path) -> None:
    path = tmp_path / "bot.py"
    path.write_text(PROGRAM.format(bot="Echo()"))
    done = subprocess.run(
        [sys.executable, str(path), "--tcp", "127.0.0.1", "abc"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--tcp: the port must be a number, not 'abc'" in done.stderr
