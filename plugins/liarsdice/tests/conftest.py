"""Fixtures for the Liar's Dice plugin's tests: match files and the Node.js test bots."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

BOTS = Path(__file__).parent / "bots"


@pytest.fixture
def dice_bot(arena_node: str) -> Callable[..., list[str]]:
    """``dice_bot("--misbehave", "late")`` -> argv of the Node.js bot written from the spec;
    it finds the port in ``ARENA_PORT``, as a bot told nothing on its command line would."""
    return lambda *args: [arena_node, str(BOTS / "dice_bot.js"), *args]


@pytest.fixture
def contest_sample(arena_node: str) -> list[str]:
    """argv of the contest's sample bot, hard-wired to port 5533."""
    return [arena_node, str(BOTS / "contest_sample.js")]


@pytest.fixture
def dice_match(arena_match: Callable[..., Path]) -> Callable[..., Path]:
    """A Liar's Dice match file with the given bots (name -> argv, or a built-in bot)."""
    return lambda bots, extra="": arena_match("liarsdice", bots, extra)
