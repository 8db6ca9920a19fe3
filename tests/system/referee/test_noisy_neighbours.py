"""Noisy neighbours in whole runs: a flooding bot (bash) beside innocent games, and a bot
that never reads (sh) in a game that writes a lot. Each run completes, the hostile bot is
faulted with the reason, the others never notice, no process is left, the database is
intact. The precise reply-time figures are in ``benchmarks/noisy_neighbour.py``."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from paths import BOTS, SUPPORT

from arena_kernel.referee.eventlog import MAX_UNSOLICITED_EVENTS
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store
from arena_kernel.transports.fd_connection import MAX_UNSENT

ARENA = str(Path(sys.executable).parent / "arena")
REPLY = 1.0

MEASURED = """
import json, os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    json.dump({"status": os.waitstatus_to_exitcode(status), "peak_kib": usage.ru_maxrss}, out)
"""
"""Runs a command and reports its exit status and peak memory. A child of its own: a
process started straight from the test (vfork, then exec) would report the test
process's peak, which the exec replaced."""


def stored(database: Path, games: int) -> list:
    """(result, detail, events) of every stored game, once the file is checked intact."""
    with sqlite3.connect(database) as db:
        assert db.execute("pragma integrity_check").fetchone() == ("ok",)
    with Store(database) as store:
        (run,) = store.runs()
        found = [
            (r, store.game(r.game_id), store.events(r.game_id)) for r in store.results(run.run_id)
        ]
    assert len(found) == games
    return found


def test_a_flooding_bot_is_cut_off_and_the_games_beside_it_never_notice(
    write_match: Callable[..., Path], no_leftover_processes
) -> None:
    innocent = [sys.executable, "-m", "arena_kernel.testing.rps_bot", "random", "--tcp"]
    innocent += ["{host}", "{port}"]
    path = write_match(
        f"""
        game = "rps"
        transport = "tcp"
        rounds = 2
        concurrency = 2
        [game_options]
        throws = 20
        [clock]
        startup = 10
        reply = {REPLY}
        [[bots]]
        name = "flooder"
        cmd = ["bash", "{BOTS / "flooder.sh"}"]
        [[bots]]
        name = "a"
        cmd = {json.dumps(innocent)}
        [[bots]]
        name = "b"
        cmd = {json.dumps(innocent)}
        """
    )
    summary = run_match(path)
    no_leftover_processes()

    assert summary.played == 12 and not summary.errors
    games = stored(summary.run.database, 12)
    innocent_games = flooded = 0
    first_of_session: set[int] = set()
    for result, detail, events in games:
        if "flooder" not in result.seating:
            innocent_games += 1
            assert not detail.faults, detail.faults
            times = [e.elapsed for e in events if e.kind == "recv" and e.elapsed is not None]
            assert len(times) == 2 * 20 and max(times) < REPLY, "every throw, in time"
            continue
        seat = result.seating.index("flooder")
        assert result.ranks[seat] == 2
        assert [f.seat for f in detail.faults] == [seat], detail.faults
        fault = detail.faults[0]
        if str(fault.kind) == "flood":
            flooded += 1
            assert fault.detail == "more than 1000 unsolicited messages"
        else:
            # Its session's first request may come before its first spam did: the spam is
            # then taken for its throw. Only once per session: then it is cut off.
            assert str(fault) == "illegal: not a throw: 'spam'", fault
            assert detail.session not in first_of_session
            first_of_session.add(detail.session)
        from_flooder = [e for e in events if e.seat == seat and e.kind in ("recv", "late")]
        assert len(from_flooder) <= MAX_UNSOLICITED_EVENTS + 1
    assert innocent_games == 4 and flooded >= 6


def test_a_bot_that_never_reads_is_faulted_and_the_arena_stays_small(
    write_match: Callable[..., Path], tmp_path: Path, no_leftover_processes
) -> None:
    rounds = 150  # a 1 MiB notice a round: 150 MiB written to each seat
    path = write_match(
        f"""
        plugins = ["chatter_game"]
        game = "chatter"
        games = 2
        concurrency = 1
        startup_failures = "forfeit"
        [game_options]
        rounds = {rounds}
        [clock]
        startup = 3
        reply = 0.5
        [[bots]]
        name = "reader"
        cmd = ["{sys.executable}", "{BOTS / "reader.py"}"]
        [[bots]]
        name = "deaf"
        cmd = ["sh", "{BOTS / "deaf.sh"}"]
        """
    )
    paths = [str(SUPPORT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, paths))}
    report = tmp_path / "arena.json"
    command = [sys.executable, "-c", MEASURED, str(report), ARENA, "run", str(path)]
    arena = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    no_leftover_processes()

    measured = json.loads(report.read_text())
    assert measured["status"] == 0, arena.stderr
    peak_mib = measured["peak_kib"] / 1024
    assert peak_mib < 100 + (MAX_UNSENT >> 20), f"the arena grew to {peak_mib:.0f} MiB"
    unread = f"exit: does not read its input ({MAX_UNSENT >> 20} MiB written to it unread)"
    for result, detail, _events in stored(tmp_path / "results.sqlite", 2):
        deaf = result.seating.index("deaf")
        assert list(result.ranks) == [2 if seat == deaf else 1 for seat in (0, 1)]
        # Its first request (on the start-up clock) times out; then the notices pile up.
        start_up = "timeout: no reply within 3 s of its start (start-up clock)"
        assert [str(f) for f in detail.faults] == [start_up, unread]
        assert {f.seat for f in detail.faults} == {deaf}
