"""Fixtures for the line-protocol tests: match files, and the plan bot's command line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

PLAN_BOT = Path(__file__).parent / "bots" / "plan_bot.py"


@pytest.fixture
def plan_bot() -> Callable[..., list[str]]:
    """``plan_bot(turn=[...], when=[...])`` -> the argv of ``bots/plan_bot.py`` with that plan."""

    def argv(**plan: Any) -> list[str]:
        return [sys.executable, str(PLAN_BOT), json.dumps(plan)]

    return argv


@pytest.fixture
def match(arena_match: Callable[..., Path]) -> Callable[..., Path]:
    """A dominion_text match file with the given bots (name -> argv, or a built-in bot)."""
    return lambda bots, extra="": arena_match("dominion_text", bots, extra)
