"""The Nim renderer (the kernel's test game) on stored games: a step per move with the pile
the referee sent next, a seat that faults put out at its move, every wire form, and any
spoilt log drawn without an exception."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from arena_kernel.plugin import Replay
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store
from arena_kernel.testing.nim_render import NimRenderer, read_wire
from arena_kernel.testkit import checked_steps, load_replay, spoilt_logs


def replays(path: Path) -> list[Replay]:
    summary = run_match(path)
    assert not summary.errors, summary.errors
    with Store(summary.run.database) as store:
        return [load_replay(store, g.game_id) for g in store.games(summary.run.run_id)]


def nim_match(write_match, bots: dict[str, str | list[str]], extra: str = "") -> Path:
    lines = ['game = "nim"', "seed = 11", extra]
    for name, bot in bots.items():
        how = f"builtin = {json.dumps(bot)}" if isinstance(bot, str) else f"cmd = {json.dumps(bot)}"
        lines.append(f"[[bots]]\nname = {json.dumps(name)}\n{how}")
    return write_match("\n".join(lines) + "\n")


TAKE_ONE = {
    "line": ({"reply": "take 1"}, "line", "move"),
    "jsonl": ({"reply": '{"verb": "take", "args": [1]}'}, "line", '{"verb":"move"'),
    "sexpr": ({"reply": "(take 1)"}, "line", "(move"),
    "raw": ({"reply": "take 1"}, "raw", ""),
}
"""A bot that always takes one stone, in each codec's wire form: its step, its framing
and the prefix of the requests it answers."""


@pytest.mark.parametrize("codec", sorted(TAKE_ONE))
def test_a_step_per_move_with_the_pile_the_referee_sent_next(write_match, scripted_bot, codec):
    step, framing, only = TAKE_ONE[codec]
    bot = scripted_bot([step], framing=framing, only=only)
    path = nim_match(
        write_match,
        {"first": bot, "second": bot},
        f'codec = "{codec}"\n[game_options]\npile = 13\nspread = 6',
    )
    for replay in replays(path):
        steps = checked_steps(NimRenderer(), replay)
        requests = [e for e in replay.events if e.kind == "send" and read_wire(e.text)[0] == "move"]
        assert len(steps) == len(requests) + 1
        assert steps[0].label == "start"
        start = read_wire(requests[0].text)[1][0]
        assert steps[0].picture == {
            "start": start,
            "pile": start,
            "taken": 0,
            "by": None,
            "out": [],
        }
        # Each move's pile is the one the next request shows; the last takes the rest.
        for step, request in zip(steps[1:], requests[1:], strict=False):
            assert step.picture["pile"] == read_wire(request.text)[1][0], step.label
        assert steps[-1].picture["pile"] == 0
        movers = [replay.seating[r.seat] for r in requests]
        assert [s.label.split(" ")[1] for s in steps[1:]] == movers
        (winner,) = replay.winners()
        assert steps[-1].label.split(" ")[1] == winner
        assert steps[-1].caption.endswith(f"{winner} wins: {replay.reason}")


def test_a_seat_that_faults_is_out_at_its_move_and_the_game_goes_on(write_match, scripted_bot):
    """Three seats: the cheat's first move is illegal, so it is out there; the two others
    play on and the winner is named at the end."""
    cheat = scripted_bot([{"reply": "take 7"}], only="move")
    path = nim_match(
        write_match,
        {"a": "optimal", "cheat": cheat, "b": "random"},
        'format = "round-robin"\nseats = 3\n[game_options]\npile = 10',
    )
    games = replays(path)
    assert games
    for replay in games:
        steps = checked_steps(NimRenderer(), replay)
        seat = replay.seating.index("cheat")
        (fault,) = replay.faults
        out = next(s for s in steps if s.picture["out"])
        assert out.label.endswith("cheat out")
        assert out.picture == {**out.picture, "by": seat, "taken": 0, "out": [seat]}
        assert out.caption == f"cheat is out: {fault.kind}: {fault.detail}" or (
            fault.detail in out.caption
        )
        # Its fault event is among the messages of that very step.
        kinds = [replay.events[i].kind for i in range(*out.events)]
        assert "fault" in kinds
        later = steps[steps.index(out) + 1 :]
        assert later and all(s.picture["out"] == [seat] for s in later)
        assert all("cheat" not in s.label for s in later)
        assert replay.winners()[0] in steps[-1].caption


def test_any_spoilt_log_is_drawn_without_an_exception(write_match):
    path = nim_match(write_match, {"optimal": "optimal", "random": "random"})
    replay = replays(path)[0]
    junk = ["", "move", "move x", "move -3", "take", "{", "(move", "(take 2", "took 0 9 9", "\0"]
    (winner,) = replay.winners()
    for spoilt in spoilt_logs(replay, junk, seed=5):
        steps = checked_steps(NimRenderer(), spoilt)
        assert steps[-1].caption.endswith(f"{winner} wins: {replay.reason}")
    for options in ({}, {"pile": "many"}):
        checked_steps(NimRenderer(), dataclasses.replace(replay, events=(), options=options))
