"""What a bot is told of its clocks: the match's limits, through a program's environment
back to the same values, and nothing at all when the environment tells none."""

from __future__ import annotations

import re

import pytest
from paths import REPO

from arena_kernel.bot_clocks import ENVIRONMENT, BotClocks
from arena_kernel.referee.clocks import Clocks


def test_a_bot_is_told_the_limits_its_replies_are_judged_by() -> None:
    clocks = Clocks().merged({"startup": 4.0, "reply": 0.3, "grace": 0.05, "mode": "cpu"})
    assert clocks.told() == BotClocks(
        reply=0.3, first_reply=4.0, grace=0.05, game=None, mode="cpu", wall_cap=10.0
    )
    # A budget of 0 is none.
    assert Clocks().merged({"game": 0.0}).told().game is None
    assert Clocks().merged({"game": 60.0}).told().game == 60.0


@pytest.mark.parametrize(
    "told",
    [
        BotClocks(reply=0.1 + 0.2, first_reply=5.0),
        BotClocks(reply=1.0, first_reply=10.0, grace=0.1, game=90.5, mode="cpu", wall_cap=3.0),
    ],
)
def test_the_environment_gives_back_exactly_the_clocks_told(told: BotClocks) -> None:
    env = told.environment()
    assert set(env) <= set(ENVIRONMENT)
    assert all(name.startswith("ARENA_CLOCK_") for name in env)
    assert BotClocks.from_environment({"PATH": "/bin", **env}) == told


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"ARENA_CLOCK_MODE": "wall"},
        {"ARENA_CLOCK_REPLY": "fast"},
        {"ARENA_CLOCK_REPLY": "-1"},
        {"ARENA_CLOCK_REPLY": "nan"},
        {"ARENA_CLOCK_REPLY": "1.0", "ARENA_CLOCK_MODE": "sundial"},
    ],
)
def test_an_environment_that_tells_no_clocks_or_wrong_ones_tells_none(env) -> None:
    assert BotClocks.from_environment(env) is None


def test_the_clock_docs_name_every_variable() -> None:
    text = (REPO / "docs" / "clocks.md").read_text()
    section = text.split("## What a bot is told")[1].split("\n## ")[0]
    assert set(re.findall(r"`(ARENA_CLOCK_[A-Z_]+)`", section)) == set(ENVIRONMENT)
