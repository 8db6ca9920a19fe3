"""Every bot the arena starts is told the match's clocks, sandboxed or not, as a program
(its environment, and ``clocks()`` through ``main()``) and in process (``clocks()``)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from clock_game import ClockTell
from plugin_modules import games_plugin

from arena_kernel.runner.api import run_match
from arena_kernel.store import Store

# Answers every line with the ARENA_CLOCK_* variables of its environment, as JSON.
ENV_TELLER = """
import json, os, sys
for line in sys.stdin:
    told = {k: v for k, v in os.environ.items() if k.startswith("ARENA_CLOCK_")}
    print(json.dumps(told), flush=True)
"""


def heard(summary) -> list[tuple[tuple[str, ...], list]]:
    with Store(summary.run.database) as store:
        return [
            (g.seating, store.game(g.game_id).details["heard"])
            for g in store.results(summary.run.run_id)
        ]


@pytest.mark.parametrize("sandbox", ["auto", "none"])
def test_programs_are_told_the_matchs_clocks(write_match, tmp_path: Path, sandbox) -> None:
    script = tmp_path / "env_teller.py"
    script.write_text(textwrap.dedent(ENV_TELLER))
    path = write_match(
        f"""
        game = "clocktell"
        games = 2
        [clock]
        reply = 0.5
        startup = 8.0
        mode = "cpu"
        [sandbox]
        mode = "{sandbox}"
        [[bots]]
        name = "env"
        cmd = {json.dumps([sys.executable, str(script)])}
        [[bots]]
        name = "teller"
        builtin = "teller"
        """
    )
    summary = run_match(path, [games_plugin(ClockTell)])
    assert summary.played == 2 and not summary.errors
    for seating, answers in heard(summary):
        told = dict(zip(seating, answers, strict=True))
        assert told["env"] == {
            "ARENA_CLOCK_REPLY": "0.5",
            "ARENA_CLOCK_FIRST_REPLY": "8.0",
            "ARENA_CLOCK_GRACE": "0.1",
            "ARENA_CLOCK_MODE": "cpu",
            "ARENA_CLOCK_WALL_CAP": "10.0",
        }
        assert told["teller"] == {
            "reply": 0.5,
            "first_reply": 8.0,
            "grace": 0.1,
            "game": None,
            "mode": "cpu",
            "wall_cap": 10.0,
        }


def test_an_inproc_bot_is_told_the_matchs_clocks_on_the_wall_clock(write_match) -> None:
    path = write_match(
        """
        game = "clocktell"
        games = 1
        [clock]
        reply = 0.25
        game = 30.0
        mode = "cpu"
        [[bots]]
        name = "a"
        builtin = "teller"
        inproc = true
        [[bots]]
        name = "b"
        builtin = "teller"
        inproc = true
        """
    )
    summary = run_match(path, [games_plugin(ClockTell)])
    assert summary.played == 1 and not summary.errors
    ((_seating, answers),) = heard(summary)
    for told in answers:
        assert (told["reply"], told["game"], told["mode"]) == (0.25, 30.0, "wall")
