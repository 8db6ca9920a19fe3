"""Fixtures for the stones plugin's tests: match files and the Node.js bot."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

NODE_BOT = Path(__file__).parent / "bots" / "random_bot.js"


@pytest.fixture
def node_bot(arena_node: str) -> Callable[..., list[str]]:
    """``node_bot("--strings")`` -> the argv of the Node.js bot written from the spec."""
    return lambda *args: [arena_node, str(NODE_BOT), *args]


@pytest.fixture
def stones_match(arena_match: Callable[..., Path]) -> Callable[..., Path]:
    """A stones match file with the given bots (name -> argv, or a built-in bot's name)."""
    return lambda bots, extra="": arena_match("stones", bots, extra)
