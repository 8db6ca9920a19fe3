"""``arena check-bot stones``: the built-in bots, the example bot and the Node.js test bot
pass; a bot that passes where it must attack fails, its first violation named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena_stones.game import Stones

PLUGIN = Path(__file__).resolve().parents[2]
NODE_BOT = PLUGIN / "tests" / "bots" / "random_bot.js"
ROOMY = ("--startup", "30", "--reply", "10")
"""Clocks no loaded machine misses: the checks are about the protocol."""

PASSER = """\
import json, sys
for line in sys.stdin:
    if "AllowedMoves" in json.loads(line):
        print(json.dumps({"Type": 0}), flush=True)
"""


def check_bot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena_kernel.cli.main", "check-bot", "stones", "-q", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def passes(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS: no fault in 2 games" in result.stdout
    assert "game 2 of 2: seat 1 of 2" in result.stdout, "it played both colours"


@pytest.mark.parametrize("name", sorted(Stones.bots))
def test_every_built_in_bot_passes(name: str) -> None:
    argv = list(Stones.bots[name].argv())
    if name.startswith("search"):
        argv += ["--time", "0.05"]  # a quick check, not a strong game
    passes(check_bot(*ROOMY, "--", *argv))


def test_the_example_bot_passes() -> None:
    passes(check_bot(*ROOMY, "--", sys.executable, str(PLUGIN / "examples" / "minimal_bot.py")))


def test_the_node_bot_passes(arena_node: str) -> None:
    passes(check_bot(*ROOMY, "--", arena_node, str(NODE_BOT)))


def test_a_bot_that_passes_at_an_attack_only_request_fails(tmp_path: Path) -> None:
    bot = tmp_path / "passer.py"
    bot.write_text(PASSER)
    result = check_bot("--", sys.executable, str(bot))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL: 2 faults in 2 games: illegal 2" in result.stdout
    assert (
        "first problem: game 1 (seat 0), request 1: illegal: Type not in AllowedMoves: pass "
        "at an attack-only request"
    ) in result.stdout
    assert '  it answered:  {"Type": 0}' in result.stdout


def test_a_node_bot_that_crosses_the_centre_fails(arena_node: str) -> None:
    result = check_bot("--", arena_node, str(NODE_BOT), "--misbehave", "centre")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "first problem: game 1 (seat 0), request 1: illegal: path from" in result.stdout
    assert "crosses the centre" in result.stdout
