"""The built-in bots: in process (``make()``) each answers every ``move_request`` with a legal
move for the request's ``message_id`` and ``round_over`` with nothing; as a program each
connects to ``--tcp HOST PORT``, greets with its ``--name`` and gives the same answers as in
process for the same ``--seed``, then leaves when the arena closes the connection."""

from __future__ import annotations

import json
import socket
import subprocess
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from arena_liarsdice import wire
from arena_liarsdice.bots import basic, prob
from arena_liarsdice.bots import random as random_bot
from arena_liarsdice.game import LiarsDice
from arena_liarsdice.players import CHALLENGE, PASS, is_raise

BOTS: dict[str, ModuleType] = {"random": random_bot, "basic": basic, "prob": prob}
HAND = (2, 2, 5, 5, 5)
ME = 1
"""The bot's session id; the others are 2 and 3, five dice each."""
SEED = 3


def requests() -> list[dict[str, Any]]:
    """One round as the referee tells it to the bot with id 1: its opening bid, a bid no
    table of 15 dice can make true (it must be challenged), the round's end, then a move
    of the next round that is another player's turn."""
    everyone = [(1, 5), (2, 5), (3, 5)]
    return [
        wire.move_request("g1r1m1p1", ME, (1, 1, 1), HAND, everyone, (0, 0)),
        wire.move_request("g1r1m4p1", ME, (1, 1, 4), HAND, everyone, (6, 16)),
        wire.round_over(ME, (1, 1), [(1, 5), (2, 5), (3, 4)], 3, ME, wire.NOBODY),
        wire.move_request("g1r2m1p1", ME, (1, 2, 1), HAND, [(3, 4), (1, 5), (2, 5)], (0, 0)),
    ]


def session(ask: Callable[[dict[str, Any]], list[Any]]) -> list[list[Any]]:
    """What the bot answers to each of :func:`requests`, as JSON reads it back."""
    return [json.loads(json.dumps(ask(message))) for message in requests()]


def check_answers(answers: list[list[Any]]) -> None:
    (opening,), (call,), over, (not_my_turn,) = answers
    bid = wire.read_move(opening, "g1r1m1p1")
    assert bid == CHALLENGE or (isinstance(bid, tuple) and is_raise(bid, (0, 0), 15))
    assert wire.read_move(call, "g1r1m4p1") == CHALLENGE
    assert over == []
    assert wire.read_move(not_my_turn, "g1r2m1p1") == PASS, "no bid to call, not its turn"


@pytest.mark.parametrize("name", sorted(BOTS))
def test_in_process_bots_answer_every_message(name: str) -> None:
    bot = BOTS[name].make(SEED)
    assert bot.start() == [], "no set_name without a name"
    check_answers(session(bot.on_message))
    with pytest.raises(ValueError, match="unknown message"):
        bot.on_message({"subject": "banana"})


def test_the_game_starts_these_modules() -> None:
    assert {name: bot.module for name, bot in LiarsDice.bots.items()} == {
        name: module.__name__ for name, module in BOTS.items()
    }


@pytest.mark.parametrize("name", sorted(BOTS))
def test_programs_connect_greet_and_answer_as_in_process(name: str) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        argv = [arg.format(host="127.0.0.1", port=port) for arg in LiarsDice.bots[name].argv()]
        command = [*argv, "--seed", str(SEED), "--name", "bob"]
        program = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        try:
            server.settimeout(30)
            connection, _ = server.accept()
            with connection, connection.makefile("rw") as stream:
                connection.settimeout(30)

                def ask(message: dict[str, Any]) -> list[Any]:
                    stream.write(json.dumps(message) + "\n")
                    stream.flush()
                    if message["subject"] != "move_request":
                        return []
                    return [json.loads(stream.readline())]

                assert json.loads(stream.readline()) == {"name": "bob"}
                answers = session(ask)
            _, errors = program.communicate(timeout=30)
            assert program.returncode == 0, errors
        finally:
            program.kill()
            program.wait()
    assert answers == session(BOTS[name].make(SEED).on_message)
    check_answers(answers)
