"""Failures of the set-up are run errors, never game results: one line, exit status 2,
no game stored for them, and the next run plays every game they cost. Real ``arena``
processes, real bots, real sockets and SQLite files."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from arena_cli import arena, assert_intact, nim_in_process, one_error_line, stored
from damage import zero_the_tables

HERE = Path(__file__).resolve().parent
TCP_ARGS = 'args = ["--tcp", "{host}", "{port}"]'


def nim_tcp(port: int, games: int, concurrency: int = 2) -> str:
    """Nim over TCP on the machine's network (``network = "host"``), where the arena's own
    port and host can fail; bots confined to a network of their own need neither."""
    return f"""
        game = "nim"
        transport = "tcp"
        games = {games}
        concurrency = {concurrency}
        [transport_options.tcp]
        port = {port}
        [sandbox]
        network = "host"
        [[bots]]
        name = "optimal"
        builtin = "optimal"
        {TCP_ARGS}
        [[bots]]
        name = "random"
        builtin = "random"
        {TCP_ARGS}
        """


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_port_in_use_stores_nothing_and_a_rerun_plays_every_game(
    write_match, tmp_path: Path, no_leftover_processes
) -> None:
    taken = socket.create_server(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    path = write_match(nim_tcp(port, games=6))
    db = tmp_path / "results.sqlite"
    try:
        result = arena("run", "-q", str(path))
    finally:
        taken.close()
    one_error_line(result, str(port))
    assert stored(db)[1] == 0
    no_leftover_processes()

    again = arena("run", "-q", str(path))
    assert again.returncode == 0, again.stderr
    assert "6 games played now, 0 already stored" in again.stdout
    assert_intact(db, 6)
    no_leftover_processes()


def test_a_host_that_does_not_resolve_stores_nothing(write_match, tmp_path: Path) -> None:
    path = write_match(
        nim_tcp(0, games=2).replace("port = 0", 'port = 0\nhost = "no-such-host.invalid"')
    )
    one_error_line(arena("run", "-q", str(path)), "no-such-host.invalid")
    assert stored(tmp_path / "results.sqlite")[1] == 0


NOT_EXECUTABLE = "data.txt"

MISSING_COMMANDS = {
    # cmd -> words the error must contain besides the match file and the bot's name
    "not on the PATH": (["no-such-arena-bot"], 'no command "no-such-arena-bot" on the PATH'),
    "no such file": (["./bots/missing.py"], 'no such file: "./bots/missing.py"'),
    "not executable": ([f"./{NOT_EXECUTABLE}"], "is not an executable file"),
}


@pytest.mark.parametrize("case", MISSING_COMMANDS, ids=list(MISSING_COMMANDS))
def test_a_command_that_cannot_start_names_the_bot_and_stores_nothing(
    case: str, write_match, tmp_path: Path, no_leftover_processes
) -> None:
    cmd, words = MISSING_COMMANDS[case]
    (tmp_path / NOT_EXECUTABLE).write_text("not a program\n")
    path = write_match(
        f"""
        game = "nim"
        [[bots]]
        name = "optimal"
        builtin = "optimal"
        [[bots]]
        name = "ghost"
        cmd = {json.dumps(cmd)}
        """
    )
    one_error_line(arena("run", "-q", str(path)), str(path), 'bot "ghost"', words)
    assert stored(tmp_path / "results.sqlite") == (0, 0)
    assert not list((tmp_path / "logs").glob("run-*")), "no game was started"
    no_leftover_processes()


def test_a_logs_path_that_is_a_file_is_one_line(write_match, tmp_path: Path) -> None:
    logs = tmp_path / "logs.txt"
    logs.write_text("keep me\n")
    path = write_match(
        f"""
        game = "nim"
        logs = "{logs}"
        [[bots]]
        name = "a"
        builtin = "optimal"
        [[bots]]
        name = "b"
        builtin = "random"
        """
    )
    one_error_line(arena("run", "-q", str(path)), str(logs), "is a file")
    assert logs.read_text() == "keep me\n"
    assert stored(tmp_path / "results.sqlite") == (0, 0)


def test_a_second_run_on_the_same_database_refuses_until_the_first_is_gone(
    write_match, tmp_path: Path, no_leftover_processes
) -> None:
    """Both runs use one fixed port: the second must neither play a game nor fault any of
    the first's. After ``kill -9`` of the first, the lock is gone with it."""
    path = write_match(nim_tcp(free_port(), games=40, concurrency=1))
    db = tmp_path / "results.sqlite"
    first = subprocess.Popen(
        [sys.executable, "-m", "arena_kernel.cli.main", "run", "-q", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while stored(db)[1] < 1:
            assert first.poll() is None, first.stderr.read().decode()
            assert time.monotonic() < deadline, "the first run stored nothing"
            time.sleep(0.05)
        second = arena("run", "-q", str(path))
        line = one_error_line(second, str(db), "in use by another arena run")
        assert f"pid {first.pid}" in line
        assert first.poll() is None, "the first run goes on"
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
        first.stderr.close()
    played = stored(db)[1]
    assert played < 40
    with_faults = _games_with_faults(db)
    assert with_faults == 0, "no game of the first run was disturbed"

    third = arena("run", "-q", str(path))
    assert third.returncode == 0, third.stderr
    assert f"{40 - played} games played now, {played} already stored" in third.stdout
    assert_intact(db, 40)
    assert _games_with_faults(db) == 0
    no_leftover_processes(wait=5.0)


def _games_with_faults(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("select count(distinct game_id) from faults").fetchone()[0]


def played_nim(write_match, rounds: int) -> Path:
    """A match file of Nim between two in-process built-in bots, played by ``arena run``."""
    path = write_match(nim_in_process(rounds))
    made = arena("run", "-q", str(path))
    assert made.returncode == 0, made.stderr
    return path


def test_a_damaged_database_is_one_line_for_run_standings_and_replay(
    write_match, tmp_path: Path
) -> None:
    path = played_nim(write_match, rounds=3)
    db = tmp_path / "results.sqlite"
    zero_the_tables(db)
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    logs_before = sorted(p.name for p in (tmp_path / "logs").iterdir())

    for command in (["run", "-q", str(path)], ["standings", str(db)], ["replay", str(db), "2"]):
        one_error_line(arena(*command), str(db), "is damaged")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest, "nothing written into it"
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == logs_before


def _zero_a_page_of(db: Path, table: str = "event_logs") -> None:
    """Damage the file in its middle, in a page of ``table`` alone (by default the event
    logs: the runs, the games, their seats and faults still read, and so would the
    standings)."""
    with sqlite3.connect(db) as conn:
        conn.execute("pragma wal_checkpoint(truncate)")
        size = conn.execute("pragma page_size").fetchone()[0]
        last = conn.execute("pragma page_count").fetchone()[0]
        try:
            pages = conn.execute(
                "select pageno from dbstat where name = ? and pagetype = 'leaf' order by pageno",
                (table,),
            ).fetchall()
        except sqlite3.OperationalError as exc:
            pytest.skip(f"this SQLite cannot say which pages a table uses: {exc}")
    middle = [number for (number,) in pages if number < last]
    assert middle, f"a page of {table} with pages after it"
    with open(db, "r+b") as f:
        f.seek((middle[0] - 1) * size)
        f.write(bytes(size))


def test_a_database_damaged_mid_file_is_one_line_for_every_command_that_reads_it(
    write_match, tmp_path: Path
) -> None:
    path = played_nim(write_match, rounds=30)
    db = tmp_path / "results.sqlite"
    _zero_a_page_of(db)
    digest = hashlib.sha256(db.read_bytes()).hexdigest()

    commands = [
        ["runs", str(db)],
        ["games", str(db)],
        ["export", str(db), "--format", "json"],
        ["report", str(db), "-o", str(tmp_path / "site")],
        ["replay", str(db), "1"],
        ["run", "-q", str(path)],
    ]
    for command in commands:
        one_error_line(arena(*command), str(db), "is damaged", "restore a copy")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest, "nothing written into it"
    assert not (tmp_path / "site").exists()


def test_standings_from_a_tally_check_what_they_read_and_no_more(
    write_match, tmp_path: Path
) -> None:
    """The standings of wins and Elo read the run's tally: a damaged event log changes
    nothing in them, and they are printed whole; a damaged page of what they read is the
    one line."""
    played_nim(write_match, rounds=30)
    db = tmp_path / "results.sqlite"
    whole = arena("standings", str(db))
    assert whole.returncode == 0, whole.stderr
    assert "Wins" in whole.stdout and "Elo" in whole.stdout
    _zero_a_page_of(db)
    beside = arena("standings", str(db))
    assert (beside.returncode, beside.stderr, beside.stdout) == (0, "", whole.stdout)
    _zero_a_page_of(db, "result_tallies")
    one_error_line(arena("standings", str(db)), str(db), "is damaged", "restore a copy")


def test_standings_that_follow_the_games_in_order_check_the_whole_file(
    write_match, tmp_path: Path
) -> None:
    """OpenSkill rates game by game, so its standings read every game, after checking the
    whole file as the other reading commands do."""
    path = write_match('scorers = ["wins", "openskill"]\n' + nim_in_process(30))
    made = arena("run", "-q", str(path))
    assert made.returncode == 0, made.stderr
    db = tmp_path / "results.sqlite"
    _zero_a_page_of(db)
    one_error_line(arena("standings", str(db)), str(db), "is damaged", "restore a copy")


def test_the_open_file_limit_is_raised_to_its_ceiling_or_refused_when_too_low(
    write_match, tmp_path: Path, no_leftover_processes
) -> None:
    """16 games at once with their bots as processes need far more than 100 files."""
    path = write_match(
        """
        game = "nim"
        games = 16
        concurrency = 16
        [[bots]]
        name = "a"
        builtin = "optimal"
        [[bots]]
        name = "b"
        builtin = "random"
        """
    )
    too_low = arena("run", "-q", str(path), prefix=("prlimit", "--nofile=100:100", "--"))
    one_error_line(too_low, str(path), "32 bots at once", "100", "ulimit -n")
    assert stored(tmp_path / "results.sqlite") == (0, 0)

    raised = arena("run", "-q", str(path), prefix=("prlimit", "--nofile=100:4096", "--"))
    assert raised.returncode == 0, raised.stderr
    assert "16 games played now" in raised.stdout
    assert_intact(tmp_path / "results.sqlite", 16)
    no_leftover_processes()


def test_a_set_up_failure_in_the_middle_stops_the_run_and_the_next_run_plays_the_rest(
    write_match, tmp_path: Path, no_leftover_processes
) -> None:
    path = write_match(
        """
        game = "nim"
        plugins = ["arena_kernel.testing.games", "flaky_transport"]
        transport = "flaky-stdio"
        games = 10
        concurrency = 2
        [sandbox]
        mode = "none"  # no warning line where bwrap is missing: the error is the only line
        [[bots]]
        name = "a"
        builtin = "optimal"
        [[bots]]
        name = "b"
        builtin = "random"
        """
    )
    db = tmp_path / "results.sqlite"
    env = {"PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    broken = arena("run", "-q", str(path), env={**env, "ARENA_TEST_SETUP_BREAKS_AFTER": "6"})
    line = one_error_line(broken, "the test broke the set-up", "run it again")
    played = stored(db)[1]
    assert played <= 3, "at most the games whose bots all started"
    assert re.search(rf"{10 - played} of its games not played", line), line
    no_leftover_processes()

    rest = arena("run", "-q", str(path), env=env)
    assert rest.returncode == 0, rest.stderr
    assert f"{10 - played} games played now, {played} already stored" in rest.stdout
    assert_intact(db, 10)
    no_leftover_processes()


# Nim against an in-process optimal bot: in seat 0 it crashes at its second move, in seat 1
# it stops answering.
MIXED_BOT = """
import os, sys
seat = os.environ["ARENA_ID"].split("-")[0]
moves = 0
for line in sys.stdin:
    if line.startswith("move"):
        moves += 1
        if moves == 1:
            print("take 1", flush=True)
        elif seat == "0":
            sys.exit(3)
        else:
            sys.stdin.read()
"""


def test_run_and_standings_say_how_many_games_each_bot_lost_to_faults_and_why(
    write_match, tmp_path: Path, no_leftover_processes
) -> None:
    path = write_match(
        f"""
        game = "nim"
        format = "gauntlet"
        challenger = "optimal"
        rounds = 2
        startup_failures = "forfeit"
        [clock]
        reply = 1
        [[bots]]
        name = "optimal"
        builtin = "optimal"
        inproc = true
        [[bots]]
        name = "mixed"
        cmd = {json.dumps([sys.executable, "-c", MIXED_BOT])}
        [[bots]]
        name = "never-connects"
        transport = "tcp"
        cmd = {json.dumps([sys.executable, "-c", "pass"])}
        """
    )
    run = arena("run", "-q", str(path))
    assert run.returncode == 0, run.stderr
    no_leftover_processes()
    assert_intact(tmp_path / "results.sqlite", 8)
    standings = arena("standings", str(tmp_path / "results.sqlite"))
    assert standings.returncode == 0, standings.stderr
    expected = [
        ["mixed", "4", "exit 2, timeout 2"],
        ["never-connects", "4", "connect 4"],
    ]
    for output in (run.stdout, standings.stdout):
        assert _table(output, "Games lost to faults") == expected, output
        wins = {row[0]: row for row in _table(output, "Wins")}
        assert wins["mixed"][4] == wins["never-connects"][4] == "4", "4 losses each"
        assert wins["optimal"][4] == "0"


def _table(output: str, title: str) -> list[list[str]]:
    """The rows of the table printed under ``title``, cells split on runs of spaces."""
    lines = output.splitlines()
    start = lines.index(title) + 3  # title, column names, rule
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        rows.append(re.split(r"\s{2,}", line.strip()))
    return rows
