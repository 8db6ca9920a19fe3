"""The bot author's material works as written: the example match files load, and the
minimal bot of the examples folder plays clean games."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena_kernel.testkit import check_match, run_match, stored_games

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_example_match_files_load(path: Path) -> None:
    spec = check_match(path)
    assert spec.game == "liarsdice" and min(spec.seats) >= 2


def test_the_minimal_python_bot_plays_clean_games(dice_match) -> None:
    minimal = [sys.executable, str(EXAMPLES / "minimal_bot.py")]
    summary = run_match(
        dice_match({"minimal": minimal, "prob": "prob", "basic": "basic"}, "seats = 3")
    )
    assert summary.played == 3 and not summary.errors
    for result, detail, _events in stored_games(summary):
        assert not detail.faults and not result.void, detail.faults
        assert detail.details["names"].get("minimal") == "minimal"
