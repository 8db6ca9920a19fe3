"""Hostile bots and strangers against TCP seats, in whole runs with real processes.

Each test plays a run of Nim over TCP with a hostile party beside it and checks the seats
went to the bots they belong to (no fault at all where the hostile party is a stranger),
that the run completed, that no process of the run is left and that the database is
intact. The hostile programs are in ``tests/bots`` (C, Python, Node.js); they talk to
loopback only and stop by themselves. The bots share the machine's network (``[sandbox]
network = "host"``, or no sandbox where bwrap does not work): a bot confined to a network of
its own cannot be reached by anyone (tests/system/sandbox), and these seats must hold without that.
"""

from __future__ import annotations

import json
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from paths import BOTS

from arena_kernel.runner.api import run_match
from arena_kernel.store import Store

ARENA = str(Path(sys.executable).parent / "arena")


def nim_bot(strategy: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "arena_kernel.testing.nim_bot",
        strategy,
        "--tcp",
        "{host}",
        "{port}",
    ]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def nim_over_tcp(write_match: Callable[..., Path], bots: dict[str, list[str]], extra: str = ""):
    """A match file: ``games = 8`` of Nim over TCP, two at a time, between ``bots``."""
    text = textwrap.dedent(
        """
        game = "nim"
        transport = "tcp"
        games = 8
        concurrency = 2
        [clock]
        startup = 10
        reply = 3
        [sandbox]
        network = "host"
        """
    ) + textwrap.dedent(extra)
    for name, cmd in bots.items():
        text += f"\n[[bots]]\nname = {json.dumps(name)}\ncmd = {json.dumps(cmd)}\n"
    return write_match(text)


def stored(database: Path) -> list:
    """(result, detail) of every stored game, after checking the file is intact."""
    with sqlite3.connect(database) as db:
        assert db.execute("pragma integrity_check").fetchone() == ("ok",)
    with Store(database) as store:
        (run,) = store.runs()
        return [(r, store.game(r.game_id)) for r in store.results(run.run_id)]


def faults_of(games: list) -> list[str]:
    return [f"{detail.seating[f.seat]}: {f}" for _r, detail in games for f in detail.faults]


@pytest.fixture
def reset_stranger(tmp_path: Path) -> str:
    """The C stranger, compiled for this test."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build tests/bots/reset_stranger.c")
    binary = tmp_path / "reset_stranger"
    subprocess.run(
        [compiler, "-O2", "-o", str(binary), str(BOTS / "reset_stranger.c")],
        check=True,
        capture_output=True,
    )
    return str(binary)


def test_a_resetting_stranger_on_the_fixed_port_never_gets_a_seat(
    write_match, reset_stranger, no_leftover_processes
):
    port = free_port()
    path = nim_over_tcp(
        write_match,
        {"optimal": nim_bot("optimal"), "random": nim_bot("random")},
        f"[transport_options.tcp]\nport = {port}\n",
    )
    stranger = subprocess.Popen([reset_stranger, str(port), "60"], stdout=subprocess.PIPE)
    try:
        summary = run_match(path)
    finally:
        stranger.send_signal(signal.SIGTERM)
        made = int(stranger.communicate(timeout=60)[0])
    no_leftover_processes()

    assert made > 0, "the stranger did connect while the bots started"
    assert summary.played == 8 and not summary.errors
    games = stored(summary.run.database)
    assert len(games) == 8
    assert faults_of(games) == [], "every seat went to its own bot"


def test_a_bot_raiding_the_other_bots_ports_never_takes_their_seats(
    write_match, no_leftover_processes
):
    raider = [sys.executable, str(BOTS / "listener_raider.py"), "30"]
    path = nim_over_tcp(write_match, {"victim": nim_bot("optimal"), "raider": raider})
    summary = run_match(path)
    no_leftover_processes()

    assert summary.played == 8 and not summary.errors
    games = stored(summary.run.database)
    assert len(games) == 8
    # Its own resets may take its own seat (a process of its own made them); never another.
    faults = faults_of(games)
    assert not [f for f in faults if not f.startswith("raider: ")], faults
    assert set(faults) <= {"raider: exit: reset the connection"}, faults
    # The raider only ever takes one stone: optimal Nim beats it from either seat.
    for result, _detail in games:
        assert result.ranks[result.seating.index("victim")] == 1, result


@pytest.mark.parametrize("open_files", [160, 80])
def test_a_stranger_holding_many_connections_under_a_low_file_limit_never_plays(
    write_match, tmp_path, no_leftover_processes, open_files
):
    """At 160 open files the run completes; at 80 the arena runs out of descriptors and
    may stop with one line (exit 2), its games unplayed: either way no seat is handed to
    a connection it could not check."""
    port = free_port()
    path = nim_over_tcp(
        write_match,
        {"optimal": nim_bot("optimal"), "random": nim_bot("random")},
        f"[transport_options.tcp]\nport = {port}\n",
    )
    report = tmp_path / "hog.json"
    hog = subprocess.Popen(
        [sys.executable, str(BOTS / "fd_hog.py"), str(port), "400", "60", str(report)]
    )
    try:
        arena = subprocess.run(
            ["prlimit", f"--nofile={open_files}:{open_files}", "--", ARENA, "run", str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        hog.send_signal(signal.SIGTERM)
        hog.wait(timeout=60)
    no_leftover_processes()

    hogged = json.loads(report.read_text())
    assert hogged["opened"] > 400, "the stranger kept connecting while arena closed its excess"
    assert hogged["received"] == 0, "no stranger's connection ever got a seat"
    assert "Traceback" not in arena.stderr
    games = stored(tmp_path / "results.sqlite")
    assert faults_of(games) == []
    if open_files == 160 or arena.returncode == 0:
        assert arena.returncode == 0, arena.stderr
        assert len(games) == 8
    else:
        assert arena.returncode == 2
        assert arena.stderr.splitlines()[-1].startswith("arena: error: "), arena.stderr


def test_a_bot_that_connects_twice_gets_one_seat_and_its_extra_connection_closed(
    write_match, arena_node, no_leftover_processes
):
    path = nim_over_tcp(
        write_match,
        {"twice": [arena_node, str(BOTS / "double_connect.js")], "random": nim_bot("random")},
    )
    summary = run_match(path)
    no_leftover_processes()

    assert summary.played == 8 and not summary.errors
    games = stored(summary.run.database)
    assert len(games) == 8
    assert faults_of(games) == []
    for result, detail in games:
        seat = result.seating.index("twice")
        log = Path(detail.stderr_logs[seat]).read_text()
        assert log == "extra connection closed by the arena\n"
        if seat == 0:
            assert list(result.ranks) == [1, 2], "it plays optimal Nim on its one seat"
