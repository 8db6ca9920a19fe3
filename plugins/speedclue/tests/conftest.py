"""Fixtures for the Speed Clue plugin's tests: match files and the test bots."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

NODE_BOT = Path(__file__).parent / "bots" / "clue_bot.js"
RULE_BREAKER = Path(__file__).parent / "bots" / "rule_breaker.py"


@pytest.fixture
def node_bot(arena_node: str) -> Callable[..., list[str]]:
    """``node_bot("--misbehave", "late")`` -> argv of the Node.js bot written from the spec,
    with the argv template written out (``{identifier} {port}`` first, then options)."""
    return lambda *args: [arena_node, str(NODE_BOT), "{identifier}", "{port}", *args]


@pytest.fixture
def rule_breaker() -> Callable[..., list[str]]:
    """``rule_breaker("--bad-show")`` -> argv of the Python bot that breaks a game rule; its
    command names no placeholder, so the game appends ``<identifier> <port>``."""
    return lambda *args: [sys.executable, str(RULE_BREAKER), *args]


@pytest.fixture
def clue_match(arena_match: Callable[..., Path]) -> Callable[..., Path]:
    """A Speed Clue match file with the given bots (name -> argv, or a built-in bot)."""
    return lambda bots, extra="": arena_match("speedclue", bots, extra)
