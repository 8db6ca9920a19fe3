"""``arena check-bot dominion_sexpr``: the built-in bots and the test bots (Node.js, and
the course bot in Python) pass version 3 against Militia (so that they answer attacks
too); the course bot, which knows no Curse, fails under the official rules, its first
violation named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena_dominion_sexpr.game import DominionSexpr

BOTS = Path(__file__).parents[1] / "bots"
ROOMY = ("--startup", "30", "--reply", "10")
"""Clocks no loaded machine misses: the checks are about the protocol."""
VERSION_3 = ("-o", "version=3", "--opponent", "militia")


def check_bot(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "arena_kernel.cli.main", "check-bot", "dominion_sexpr"]
    return subprocess.run([*command, "-q", *args], capture_output=True, text=True, timeout=600)


def passes(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS: no fault in 2 games" in result.stdout
    assert "game 2 of 2: seat 1 of 2 against militia" in result.stdout
    assert "(attacked (act militia)" in result.stdout, "it was attacked"


@pytest.mark.parametrize("name", sorted(DominionSexpr.bots))
def test_every_built_in_bot_passes(name: str) -> None:
    passes(check_bot(*VERSION_3, *ROOMY, "--", *DominionSexpr.bots[name].argv()))


@pytest.mark.parametrize("options", [(), ("--mine",)], ids=["money", "mine"])
def test_the_node_bot_passes(arena_node: str, options: tuple[str, ...]) -> None:
    passes(check_bot(*VERSION_3, *ROOMY, "--", arena_node, str(BOTS / "money.js"), *options))


def test_the_course_bot_passes() -> None:
    course = (sys.executable, str(BOTS / "course_bot.py"), "militia", "moat")
    passes(check_bot(*VERSION_3, *ROOMY, "--", *course))


def test_the_course_bot_fails_on_the_curse_of_the_official_rules() -> None:
    official = ("-o", "version=2", "-o", 'rules="official"')
    result = check_bot(*official, "--", sys.executable, str(BOTS / "course_bot.py"))
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'game options: version = 2, rules = "official"' in result.stdout
    assert "FAIL: 2 faults in 2 games: exit 2" in result.stdout
    assert "first problem: game 1 (seat 0), request 1: exit: exited with status 1" in (
        result.stdout
    )
    assert "  it was sent:  (move ((players playera playerb) (supply curse " in result.stdout
    assert "    KeyError: \"unknown card 'curse'\"" in result.stdout, "the end of its stderr"
