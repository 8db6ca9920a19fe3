"""Running the ``arena`` command as a user does, and reading what it left behind."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def nim_in_process(rounds: int = 1) -> str:
    """A match file's game and bots: ``rounds`` of Nim between two built-in bots that play
    in the arena's process (keys of its own go before it)."""
    return f'game = "nim"\nrounds = {rounds}\n' + IN_PROCESS_BOTS


IN_PROCESS_BOTS = """\
[[bots]]
name = "a"
builtin = "optimal"
inproc = true
[[bots]]
name = "b"
builtin = "random"
inproc = true
"""


def arena(
    *args: str,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    prefix: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` in a child process; ``prefix`` runs it under another command
    (``prlimit``), ``env`` adds to the environment."""
    return subprocess.run(
        [*prefix, sys.executable, "-m", "arena_kernel.cli.main", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def one_error_line(result: subprocess.CompletedProcess[str], *words: str) -> str:
    """Check the command failed as a user error should: status 2, stderr one line
    ``arena: error: ...`` containing every one of ``words``, no traceback. Returns it."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("arena: error: "), lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def stored(database: Path) -> tuple[int, int]:
    """(runs, games) stored in ``database``: (0, 0) while it does not exist or has no tables
    yet (a run that is starting creates them in one transaction)."""
    if not database.exists():
        return 0, 0
    with sqlite3.connect(database, timeout=60) as conn:
        tables = {row[0] for row in conn.execute("select name from sqlite_master")}
        if "games" not in tables:
            return 0, 0
        runs = conn.execute("select count(*) from runs").fetchone()[0]
        games = conn.execute("select count(*) from games").fetchone()[0]
    return runs, games


def assert_intact(database: Path, games: int) -> None:
    """The file passes SQLite's integrity check and holds ``games`` games of one run, each
    schedule index once, each with its seats."""
    with sqlite3.connect(database) as conn:
        assert conn.execute("pragma integrity_check").fetchall() == [("ok",)]
        indices = [row[0] for row in conn.execute("select idx from games order by idx")]
        assert indices == list(range(games)), indices
        assert conn.execute("select count(distinct run_id) from games").fetchone()[0] == 1
        seatless = conn.execute(
            "select count(*) from games g where not exists "
            "(select 1 from seats s where s.game_id = g.id)"
        ).fetchone()[0]
        assert seatless == 0


def without_bwrap(folder: Path) -> dict[str, str]:
    """An environment for :func:`arena` on a machine without bubblewrap: its ``PATH`` is
    ``folder``, holding the commands arena starts bots through (``setpriv``, ``prlimit``)
    and no ``bwrap``."""
    folder.mkdir(exist_ok=True)
    for command in ("setpriv", "prlimit"):
        found = shutil.which(command)
        assert found is not None, f"{command} (util-linux) is needed to start bots at all"
        (folder / command).symlink_to(found)
    return {"PATH": str(folder)}


TIMING = re.compile(r" in (\d+(\.\d)? s|\d+(:\d\d){1,2})( \(\d+(\.\d+)? games/s\))?")


def untimed(line: str) -> str:
    """A progress line with what the clock decides (``in 4.2 s (1.43 games/s)``) written
    ``in T``: what a test can compare exactly, content and order."""
    return TIMING.sub(" in T", line)
