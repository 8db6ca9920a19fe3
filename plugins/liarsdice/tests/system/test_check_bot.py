"""``arena check-bot liarsdice``: the built-in bots, the example bot and the Node.js test
bots (the contest's sample on its hard-wired port) pass a session of games; a bot that
answers with the wrong message_id fails, its first violation named."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from arena_liarsdice.game import LiarsDice

PLUGIN = Path(__file__).resolve().parents[2]
BOTS = PLUGIN / "tests" / "bots"
ROOMY = ("--startup", "30", "--reply", "10")
"""Clocks no loaded machine misses: the checks are about the protocol."""

WRONG_ID = """\
import json, os, socket
server = socket.create_connection((os.environ["ARENA_HOST"], int(os.environ["ARENA_PORT"])))
stream = server.makefile("rw")
for line in stream:
    message = json.loads(line)
    if message.get("subject") == "move_request":
        stream.write(json.dumps({"message_id": message["message_id"] + "x", "move": "pass"}))
        stream.write("\\n")
        stream.flush()
"""


def check_bot(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "arena_kernel.cli.main", "check-bot", "liarsdice"]
    return subprocess.run([*command, "-q", *args], capture_output=True, text=True, timeout=600)


def passes(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS: no fault in 2 games" in result.stdout
    assert "game 2 of 2: seat 1 of 2 against random" in result.stdout


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.mark.parametrize("name", sorted(LiarsDice.bots))
def test_every_built_in_bot_passes(name: str) -> None:
    passes(check_bot(*ROOMY, "--", *LiarsDice.bots[name].argv()))


def test_the_example_bot_passes() -> None:
    passes(check_bot(*ROOMY, "--", sys.executable, str(PLUGIN / "examples" / "minimal_bot.py")))


def test_the_node_bot_passes(arena_node: str) -> None:
    passes(check_bot(*ROOMY, "--", arena_node, str(BOTS / "dice_bot.js"), "--name", "node"))


def test_the_contest_sample_passes_on_its_hard_wired_port(arena_node: str) -> None:
    if not port_is_free(5533):
        pytest.skip("port 5533 is in use on this machine")
    passes(check_bot("--port", "5533", *ROOMY, "--", arena_node, str(BOTS / "contest_sample.js")))


def test_a_bot_that_answers_with_the_wrong_message_id_fails(tmp_path: Path) -> None:
    bot = tmp_path / "wrong_id.py"
    bot.write_text(WRONG_ID)
    result = check_bot("--", sys.executable, str(bot))
    assert result.returncode == 1, result.stdout + result.stderr
    verdict = next(line for line in result.stdout.splitlines() if line.startswith("FAIL"))
    assert re.fullmatch(r"FAIL: (\d+) faults in 2 games: illegal \1", verdict), verdict
    assert (
        "first problem: game 1 (seat 0), request 1: illegal: message_id 'g1r1m1p1x' is not "
        "'g1r1m1p1'"
    ) in result.stdout
    assert '  it answered:  {"message_id": "g1r1m1p1x", "move": "pass"}' in result.stdout


def test_the_contest_sample_without_its_port_fails_with_a_hint(arena_node: str) -> None:
    if not port_is_free(5533):
        pytest.skip("port 5533 is in use on this machine")
    result = check_bot("--startup", "10", "--", arena_node, str(BOTS / "contest_sample.js"))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL: 2 faults in 2 games: connect 2" in result.stdout
    assert "hint: its stderr says a connection was refused" in result.stdout
    assert "needs --port 5533 here" in result.stdout
