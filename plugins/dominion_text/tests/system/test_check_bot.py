"""``arena check-bot dominion_text``: the built-in bots and the Node.js test bots pass
against Militia (so that they answer attacks too); a bot that sends garbage fails, its
first violation named."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena_dominion_text.game import DominionText

BOTS = Path(__file__).parents[1] / "bots"
ROOMY = ("--startup", "30", "--reply", "10")
"""Clocks no loaded machine misses: the checks are about the protocol."""


def check_bot(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "arena_kernel.cli.main", "check-bot", "dominion_text"]
    return subprocess.run(
        [*command, "-q", "--opponent", "militia", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def passes(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS: no fault in 2 games" in result.stdout
    assert "game 2 of 2: seat 1 of 2 against militia" in result.stdout


@pytest.mark.parametrize("name", sorted(DominionText.bots))
def test_every_built_in_bot_passes(name: str) -> None:
    passes(check_bot(*ROOMY, "--", *DominionText.bots[name].argv()))


@pytest.mark.parametrize("options", [(), ("--smithy",)], ids=["bigmoney", "smithy"])
def test_the_node_bot_passes(arena_node: str, options: tuple[str, ...]) -> None:
    passes(check_bot(*ROOMY, "--", arena_node, str(BOTS / "bigmoney.js"), *options))


def test_a_bot_that_answers_garbage_fails() -> None:
    plan = json.dumps({"turn": ["buy me a province"]})
    result = check_bot("--", sys.executable, str(BOTS / "plan_bot.py"), plan)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL: 2 faults in 2 games: illegal 2" in result.stdout
    first = next(line for line in result.stdout.splitlines() if line.startswith("first problem"))
    assert first.startswith("first problem: game 1 (seat 0), request ")
    assert first.endswith(": illegal: not a play-reply: 'buy me a province'")
    assert "  it was sent:  play-request play-turn " in result.stdout
    assert "  it answered:  buy me a province" in result.stdout
