"""``arena check-bot speedclue``: the built-in bots, the example bot and the Node.js test
bot pass a session of games; a bot that shows a card it does not hold fails, its first
violation named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena_speedclue.game import SpeedClue

PLUGIN = Path(__file__).resolve().parents[2]
BOTS = PLUGIN / "tests" / "bots"
ROOMY = ("--startup", "30", "--reply", "20")
"""Clocks no loaded machine misses: the checks are about the protocol."""


def check_bot(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "arena_kernel.cli.main", "check-bot", "speedclue"]
    return subprocess.run([*command, "-q", *args], capture_output=True, text=True, timeout=600)


def passes(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS: no fault in 2 games" in result.stdout
    assert "game 1 of 2: seat 0 of 3 against random, deducer" in result.stdout
    assert "game 2 of 2: seat 2 of 3" in result.stdout


@pytest.mark.parametrize("name", sorted(SpeedClue.bots))
def test_every_built_in_bot_passes(name: str) -> None:
    passes(check_bot("--games", "2", *ROOMY, "--", *SpeedClue.bots[name].argv()))


def test_the_example_bot_passes_with_its_plain_command_line() -> None:
    """A command with no placeholder gets ``<identifier> <port>`` appended."""
    bot = (sys.executable, str(PLUGIN / "examples" / "minimal_bot.py"))
    passes(check_bot("--games", "2", *ROOMY, "--", *bot))


def test_the_node_bot_passes(arena_node: str) -> None:
    bot = (arena_node, str(BOTS / "clue_bot.js"), "{identifier}", "{port}")
    passes(check_bot("--games", "2", *ROOMY, "--", *bot))


def test_a_bot_that_shows_a_card_it_lacks_fails() -> None:
    bot = (sys.executable, str(BOTS / "rule_breaker.py"), "--bad-show")
    result = check_bot("--games", "3", "--", *bot)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL: 1 fault in " in result.stdout and ": illegal 1" in result.stdout
    first = next(line for line in result.stdout.splitlines() if line.startswith("first problem"))
    assert "is not one of the suggested cards" in first, first
    assert "  it was sent:  disprove " in result.stdout
    assert "  it answered:  show " in result.stdout


def test_a_node_bot_with_the_wrong_handshake_fails(arena_node: str) -> None:
    bot = (arena_node, str(BOTS / "clue_bot.js"), "{identifier}", "{port}")
    result = check_bot("--", *bot, "--misbehave", "wrong-alive")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL: 1 fault in 1 game (2 not played): illegal 1" in result.stdout
    assert (
        "first problem: game 1 (seat 0), before its first request: illegal: no alive "
        "handshake: wrong identifier"
    ) in result.stdout
