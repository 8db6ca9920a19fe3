"""A run killed with SIGKILL and started again completes with every game counted once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

from arena_kernel.runner.api import run_match
from arena_kernel.store import Store

MATCH = """
game = "nim"
rounds = 6
concurrency = 2
seed = 3
[game_options]
pile = 12
[[bots]]
name = "optimal"
builtin = "optimal"
[[bots]]
name = "random"
builtin = "random"
[[bots]]
name = "other"
builtin = "random"
"""


def stored_games(db) -> int:
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute("select count(*) from games").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_sigkill_then_resume_counts_every_game_once(write_match, no_leftover_processes) -> None:
    path = write_match(MATCH)
    db = path.parent / "results.sqlite"
    arena = subprocess.Popen(
        [sys.executable, "-m", "arena_kernel.cli.main", "run", "-q", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while stored_games(db) < 5:
        assert arena.poll() is None, arena.stderr.read().decode()
        assert time.monotonic() < deadline, "the run stored nothing"
        time.sleep(0.02)
    os.kill(arena.pid, signal.SIGKILL)
    arena.wait()
    arena.stderr.close()
    interrupted_at = stored_games(db)
    assert 5 <= interrupted_at < 36

    summary = run_match(path)
    no_leftover_processes(wait=5.0)

    assert summary.skipped == interrupted_at
    assert summary.played == 36 - interrupted_at
    with Store(db) as store:
        results = store.results(summary.run.run_id)
        assert sorted(r.index for r in results) == list(range(36))
        assert len(store.runs()) == 1
    with sqlite3.connect(db) as conn:
        seats = conn.execute("select count(*) from seats").fetchone()[0]
    assert seats == 2 * 36


def test_rerun_of_a_finished_match_plays_nothing(write_match) -> None:
    path = write_match(MATCH.replace("rounds = 6", "rounds = 1"))
    first = run_match(path)
    second = run_match(path)
    assert (first.played, second.played, second.skipped) == (6, 0, 6)
    assert first.standings[0].rows == second.standings[0].rows
