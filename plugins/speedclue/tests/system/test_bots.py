"""The built-in bots: in process (``make()``) each answers every message of the protocol as
the spec says; as a program each connects to ``<port>``, says ``<identifier> alive`` and
gives the same answers as in process for the same ``--seed``, then leaves when the arena
closes the connection."""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Callable
from types import ModuleType

import pytest

from arena_speedclue import wire
from arena_speedclue.bots import deducer
from arena_speedclue.bots import random as random_bot
from arena_speedclue.game import SpeedClue
from arena_speedclue.wire import WireError

BOTS: dict[str, ModuleType] = {"random": random_bot, "deducer": deducer}
HAND = ("Mu", "Kn", "Bi", "Co", "Di", "Ha")
"""Seat 0's hand of three players."""
SEED = 2
"""A seed with which each bot's suggestion in :func:`session` holds none of its cards."""


def session(ask: Callable[[str], str]) -> list[str]:
    """One game and the session's end, sent to seat 0 of 3 through ``ask``; the answers.

    Its own suggestion goes undisproved and holds none of its cards, so it must accuse
    exactly that suggestion (the contest's missed-accusation rule)."""
    answers = [ask(wire.reset(3, 0, HAND))]
    answers.append(ask(wire.disprove(1, ("Mu", "Kn", "Ba"))))
    answers.append(ask(wire.suggestion(1, ("Mu", "Kn", "Ba"), 0, answers[-1].split()[1])))
    answers.append(ask("suggest"))
    triple = wire.read_triple(answers[-1], "suggest")
    answers.append(ask(wire.suggestion(0, triple, None, None)))
    answers.append(ask("accuse"))
    accused = wire.read_accuse(answers[-1])
    if accused is not None:
        answers.append(ask(wire.accusation(0, accused, correct=True)))
    answers.append(ask("done"))
    return answers


def check_answers(answers: list[str]) -> None:
    reset, show, told, suggest, told_again, accuse, *rest = answers
    assert reset == told == told_again == "ok"
    assert wire.read_show(show) in ("Mu", "Kn"), "a card it holds among the suggested"
    triple = wire.read_triple(suggest, "suggest")
    assert not set(triple) & set(HAND)
    assert wire.read_accuse(accuse) == triple
    assert rest == ["ok", "dead"]


@pytest.mark.parametrize("name", sorted(BOTS))
def test_in_process_bots_answer_every_message(name: str) -> None:
    bot = BOTS[name].make(SEED)
    bot.identify("3-bot")
    assert bot.start() == ["3-bot alive"]
    check_answers(session(lambda message: single(bot.on_message(message))))
    with pytest.raises(WireError, match="unknown message"):
        bot.on_message("banana")


def single(replies: list[str]) -> str:
    (reply,) = replies
    return reply


def test_the_game_starts_these_modules() -> None:
    assert {name: bot.module for name, bot in SpeedClue.bots.items()} == {
        name: module.__name__ for name, module in BOTS.items()
    }


@pytest.mark.parametrize("name", sorted(BOTS))
def test_programs_connect_greet_and_answer_as_in_process(name: str) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        argv = [arg.format(identifier="5-bot", port=port) for arg in SpeedClue.bots[name].argv()]
        program = subprocess.Popen([*argv, "--seed", str(SEED)], stderr=subprocess.PIPE, text=True)
        try:
            server.settimeout(30)
            connection, _ = server.accept()
            with connection:
                connection.settimeout(30)

                def ask(message: str) -> str:
                    connection.sendall(message.encode())
                    return connection.recv(4096).decode()

                assert connection.recv(4096).decode().rstrip("\n") == "5-bot alive"
                answers = session(ask)
            _, errors = program.communicate(timeout=30)
            assert program.returncode == 0, errors
        finally:
            program.kill()
            program.wait()
    in_process = BOTS[name].make(SEED)
    assert answers == session(lambda message: single(in_process.on_message(message)))
    check_answers(answers)
