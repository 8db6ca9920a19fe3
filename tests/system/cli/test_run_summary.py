"""What ``arena run`` prints when it ends: its line, the standings, the games lost to
faults, each bot's faults, the sandbox; ``arena standings`` prints the same from the
database later."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from arena_cli import arena

from arena_kernel.report.stats import bot_stats
from arena_kernel.store import Store

TITLE = "Faults by bot (every fault in the stored games)"
STARTUP_TITLE = "Start-up failures (games in which a bot answered nothing), the first of each bot"


def scripted(steps: list[dict[str, object]]) -> str:
    argv = [sys.executable, "-m", "arena_kernel.testing.scripted", json.dumps(steps)]
    return json.dumps([*argv, "--only", "move"])


LEAGUE = f"""
name = "league"
game = "nim"
concurrency = 4
[sandbox]
mode = "none"
[[bots]]
name = "optimal"
builtin = "optimal"
inproc = true
[[bots]]
name = "crasher"
cmd = {scripted([{"reply": "take 1"}, {"exit": 3}])}
[[bots]]
name = "cheater"
cmd = {scripted([{"reply": "take 9"}])}
[[bots]]
name = "random"
builtin = "random"
inproc = true
"""
"""Nim, 12 games: a bot that crashes on its second move (but against the cheater, who is
out before that), one whose every move is illegal."""


def sections(stdout: str) -> list[list[str]]:
    """The summary's blocks, separated by empty lines."""
    return [block.splitlines() for block in stdout.strip().split("\n\n")]


def test_the_summary_counts_each_bots_faults_after_the_standings(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    result = arena("run", str(write_match(LEAGUE)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    blocks = sections(result.stdout)
    assert blocks[0][0].startswith("run 1 (league): 12 games played now")
    assert [block[0] for block in blocks[1:]] == [
        "Wins",
        "Elo",
        "Games lost to faults",
        TITLE,
        "sandbox: none (12 games)",
    ]
    # Most faults first; the bots without any are not listed.
    assert blocks[4][1:] == [
        "bot      faults  by kind",
        "-------  ------  ---------",
        "cheater       6  illegal 6",
        "crasher       4  exit 4",
    ]
    with Store(tmp_path / "results.sqlite") as store:
        counted = {s.bot: (s.fault_count, s.faults) for s in bot_stats(store, 1)}
    assert counted == {
        "optimal": (0, {}),
        "crasher": (4, {"exit": 4}),
        "cheater": (6, {"illegal": 6}),
        "random": (0, {}),
    }

    standings = arena("standings", str(tmp_path / "results.sqlite"))
    assert standings.returncode == 0, standings.stderr
    assert sections(standings.stdout)[1:] == blocks[1:], "the same, from the database"


def test_a_run_without_faults_says_so_in_one_line(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    clean = LEAGUE.split('[[bots]]\nname = "crasher"')[0]
    clean += '[[bots]]\nname = "random"\nbuiltin = "random"\ninproc = true\n'
    result = arena("run", "-q", str(write_match(clean)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [block[0] for block in sections(result.stdout)[1:]] == [
        "Wins",
        "Elo",
        "faults: none",
        "sandbox: none (2 games)",
    ]
    assert ["faults: none"] in sections(result.stdout)


NO_MAIN_CLASS = (
    "import sys\n"
    "sys.stderr.write('Picked up JAVA_TOOL_OPTIONS: -Xss8m\\n\\n')\n"
    "sys.stderr.write('Error: Could not find or load main class Bot\\n')\n"
    "sys.stderr.write('Caused by: java.lang.ClassNotFoundException: Bot\\n')\n"
    "sys.exit(30)\n"
)
"""A bot that dies at its start the way a Java bot without its class does."""

BROKEN = f"""
game = "nim"
startup_failures = "forfeit"
[sandbox]
mode = "none"
[[bots]]
name = "optimal"
builtin = "optimal"
inproc = true
[[bots]]
name = "java"
cmd = {json.dumps([sys.executable, "-c", NO_MAIN_CLASS])}
[[bots]]
name = "tcp"
transport = "tcp"
cmd = {json.dumps([sys.executable, "-c", "import sys; sys.exit('no module named bot')"])}
"""
"""Nim, 6 games: a stdio bot that exits at its start, a TCP bot that exits before it
connects, each saying why on its stderr."""

JAVA_STDERR = (
    "the end of its stderr: Picked up JAVA_TOOL_OPTIONS: -Xss8m"
    " | Error: Could not find or load main class Bot"
    " | Caused by: java.lang.ClassNotFoundException: Bot"
)


def test_a_bot_that_fails_to_start_is_shown_with_the_end_of_its_stderr(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    result = arena("run", str(write_match(BROKEN)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    blocks = sections(result.stdout)
    startup = blocks[-2]
    assert startup[0] == STARTUP_TITLE
    assert len(startup) == 3, startup
    java, tcp = sorted(startup[1:])
    assert re.fullmatch(
        rf"java \(\d games\), game \d+: exit: exited with status 30; {re.escape(JAVA_STDERR)}",
        java,
    ), java
    assert re.fullmatch(
        r'tcp \(\d games\), game \d+: connect: bot "tcp" exited with status 1 before'
        r" connecting; the end of its stderr: no module named bot",
        tcp,
    ), tcp

    database = tmp_path / "results.sqlite"
    standings = arena("standings", str(database))
    assert standings.returncode == 0, standings.stderr
    assert sections(standings.stdout)[1:] == blocks[1:], "the same, from the database"
    game_id = java.split("game ")[1].split(":")[0]
    replay = arena("replay", str(database), game_id)
    assert f"java: exit: exited with status 30; {JAVA_STDERR}" in replay.stdout
