"""The bot author's material works as written: the example match files load, and the
minimal bots of the examples folder and of the README play clean games."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from arena_kernel.testkit import check_match, run_match, stored_games

PLUGIN = Path(__file__).parents[2]
EXAMPLES = PLUGIN / "examples"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_example_match_files_load(path: Path) -> None:
    spec = check_match(path)
    assert spec.game == "speedclue" and 3 <= min(spec.seats) <= max(spec.seats) <= 6


def play_clean_games(clue_match, argv: list[str]) -> None:
    bots = {"minimal": argv, "deducer": "deducer", "random": "random"}
    summary = run_match(clue_match(bots, "games = 6\nconcurrency = 1"))
    assert summary.played == 6 and not summary.errors
    for result, detail, _events in stored_games(summary):
        assert not detail.faults and not result.void, detail.faults


def test_the_minimal_python_bot_plays_clean_games(clue_match) -> None:
    play_clean_games(clue_match, [sys.executable, str(EXAMPLES / "minimal_bot.py")])


def test_the_readme_node_bot_plays_clean_games(clue_match, arena_node, tmp_path) -> None:
    readme = (PLUGIN / "README.md").read_text()
    (code,) = re.findall(r"```js\n(.*?)```", readme, flags=re.S)
    script = tmp_path / "bot.js"
    script.write_text(code)
    play_clean_games(clue_match, [arena_node, str(script)])
