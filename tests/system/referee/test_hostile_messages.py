"""Messages built to break the referee rather than to play: each costs its bot the game,
with a fault that says why, and the game is stored and drawn like any other."""

from __future__ import annotations

import json
import sys

import pytest

from arena_kernel.codecs.faults import TOO_DEEP
from arena_kernel.model import FaultKind
from arena_kernel.report.renderer import Replay
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store
from arena_kernel.testing.nim_render import NimRenderer
from arena_kernel.testkit import checked_steps, load_replay


def hostile(prefix: str, reply: str) -> list[str]:
    """A bot that answers every message starting with ``prefix`` with the value of the
    Python expression ``reply`` (too big for a command line as it is)."""
    source = (
        "import sys\n"
        "for line in sys.stdin:\n"
        f"    if line.startswith({prefix!r}):\n"
        f"        sys.stdout.write({reply})\n"
        "        sys.stdout.flush()\n"
    )
    return [sys.executable, "-c", source]


def play_one(write_match, codec: str, hostile_bot: list[str], good: str) -> tuple[list, Replay]:
    """One game of Nim, ``hostile_bot`` in seat 0 and the bot made by the TOML line ``good``
    in seat 1: the faults stored for seat 0, and the game's replay. The run must store the
    game without a referee error, the hostile bot losing it, and the report must draw it."""
    path = write_match(
        f'''
        game = "nim"
        codec = "{codec}"
        games = 1
        [[bots]]
        name = "hostile"
        cmd = {json.dumps(hostile_bot)}
        [[bots]]
        name = "good"
        {good}
        '''
    )
    summary = run_match(path)
    assert summary.errors == [] and summary.played == 1
    assert not list(path.parent.glob("logs/**/*.error")), "no traceback was written"
    with Store(summary.run.database) as store:
        [result] = store.results(summary.run.run_id)
        faults = store.game(result.game_id).faults
        replay = load_replay(store, result.game_id)
    assert result.seating == ("hostile", "good")
    assert result.ranks == (2, 1)
    assert checked_steps(NimRenderer(), replay)[-1].picture["out"] == [0]
    assert [f.seat for f in faults] == [0]
    return faults, replay


def test_a_datum_300000_lists_deep_is_a_malformed_fault_of_its_bot(
    write_match, scripted_bot
) -> None:
    deep = hostile("(move", "'(' * 300_000 + ')' * 300_000")
    good = f"cmd = {json.dumps(scripted_bot([{'reply': '(take 1)'}], only='(move'))}"
    faults, replay = play_one(write_match, "sexpr", deep, good)
    assert [(f.kind, f.detail) for f in faults] == [(FaultKind.MALFORMED, TOO_DEEP)]
    logged = [e.text for e in replay.events if e.kind == "fault" and e.seat == 0]
    assert logged[0].startswith(f"malformed: {TOO_DEEP}: ((("), "as read, with its start"
    assert all(len(text) < 300 for text in logged)


@pytest.mark.parametrize(
    ("reply", "shown"),
    [
        ("'take ' + '9' * 100_000 + '\\n'", "'take 99999"),
        # Not JSON to the line codec, but the report's Nim drawing reads JSON too.
        ("'{\"a\":' + '[' * 1990 + ']' * 1990 + '}\\n'", '\'{"a":[[[['),
    ],
    ids=["100000-digit number", "JSON 1990 levels deep"],
)
def test_a_line_no_parser_takes_in_is_an_illegal_move_of_its_bot(
    write_match, reply: str, shown: str
) -> None:
    good = 'builtin = "optimal"\n        inproc = true'
    [fault], _replay = play_one(write_match, "line", hostile("move", reply), good)
    assert fault.kind is FaultKind.ILLEGAL
    assert fault.detail.startswith(f"expected take <1-3>, got {shown}")
    assert len(fault.detail) < 300


def test_a_throw_that_is_a_list_is_an_illegal_fault_of_its_bot(write_match) -> None:
    def thrower(throw: str) -> str:
        source = (
            "import sys\n"
            "for line in sys.stdin:\n"
            f"    answer = {{'\"throw\"': {throw!r}, '\"bye\"': '\"bye\"'}}.get(line.strip())\n"
            "    if answer:\n"
            "        print(answer, flush=True)\n"
        )
        return json.dumps([sys.executable, "-c", source])

    path = write_match(
        f"""
        game = "rps"
        codec = "jsonl"
        concurrency = 1
        [[bots]]
        name = "listing"
        cmd = {thrower('["rock"]')}
        [[bots]]
        name = "rock"
        cmd = {thrower('"rock"')}
        """
    )
    summary = run_match(path)
    assert summary.errors == [] and summary.played == 2
    with Store(summary.run.database) as store:
        for result in store.results(summary.run.run_id):
            (fault,) = store.game(result.game_id).faults
            assert fault.kind == FaultKind.ILLEGAL and fault.detail == "not a throw: ['rock']"
            assert result.seating[fault.seat] == "listing"
