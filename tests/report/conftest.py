"""A played run of the kernel's test games for the report's tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena_kernel.runner.api import run_match

HOSTILE = '</script><script>alert("pwned")</script><img src=x onerror=alert(2)>'
"""What a bot may write to stderr or put in a reply: it must reach the page as text."""


@pytest.fixture
def hostile_text() -> str:
    return HOSTILE


@pytest.fixture
def nim_run(write_match, scripted_bot) -> Path:
    """A played round robin of Nim: a cheat that answers every move with an illegal take
    wrapped in markup and writes markup to its stderr, listed first (so that the match
    file's order is not the standings'), and two built-in bots; Elo ranks."""
    cheat = scripted_bot([{"reply": f"take 9 {HOSTILE}", "stderr": HOSTILE}], only="move")
    path = write_match(
        f"""
        game = "nim"
        seed = 7
        rounds = 1
        scorers = ["wins", "elo"]
        ranking = "elo"
        [game_options]
        pile = 9
        [[bots]]
        name = "cheat"
        cmd = {json.dumps(cheat)}
        [[bots]]
        name = "optimal"
        builtin = "optimal"
        [[bots]]
        name = "random"
        builtin = "random"
        """
    )
    summary = run_match(path)
    assert not summary.errors, summary.errors
    return Path(summary.run.database)
