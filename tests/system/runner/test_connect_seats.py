"""Seats of bots started by someone else (``connect = true``), bound by the match file to a
port of their own or to a peer address, in whole runs with real processes."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
from pathlib import Path

from arena_kernel.runner.api import run_match
from arena_kernel.testing.results import stored_games

REMOTE_BOT = """
import socket, sys, time
from arena_kernel.bots.serve import serve
from arena_kernel.codecs.line import LineCodec
from arena_kernel.testing.nim import NimBot

port, games = int(sys.argv[1]), int(sys.argv[2])
for _ in range(games):  # a new connection per game: seats live for one game
    for _attempt in range(400):
        try:
            sock = socket.create_connection(("127.0.0.1", port))
            break
        except ConnectionRefusedError:
            time.sleep(0.05)
    else:
        sys.exit("the arena never opened the port")
    with sock:
        serve(NimBot("optimal"), LineCodec(), lambda: sock.recv(65536), sock.sendall)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def match_file(write_match, binding: str, startup: float, failures: str = "stop") -> Path:
    return write_match(
        textwrap.dedent(
            f"""
            game = "nim"
            rounds = 1
            concurrency = 1
            startup_failures = "{failures}"
            [clock]
            startup = {startup}
            [[bots]]
            name = "remote"
            connect = true
            transport = "tcp"
            {binding}
            [[bots]]
            name = "local"
            builtin = "random"
            """
        )
    )


def test_a_connect_seat_bound_to_a_port_plays_from_that_port(
    write_match, tmp_path, no_leftover_processes
) -> None:
    port = free_port()
    script = tmp_path / "remote.py"
    script.write_text(REMOTE_BOT)
    remote = subprocess.Popen([sys.executable, str(script), str(port), "2"])
    try:
        summary = run_match(match_file(write_match, f"port = {port}", startup=20))
        assert remote.wait(timeout=30) == 0
    finally:
        remote.kill()
        remote.wait()
    no_leftover_processes()
    games = stored_games(summary)
    assert len(games) == 2 and summary.errors == []
    for _result, detail, _events in games:
        assert not detail.faults, detail.faults


def test_a_connect_seat_bound_to_a_peer_refuses_another_address(
    write_match, tmp_path, no_leftover_processes
) -> None:
    """The remote bot connects from 127.0.0.1, the seat wants 127.0.0.2: no seat for it."""
    port = free_port()
    script = tmp_path / "remote.py"
    script.write_text(REMOTE_BOT)
    binding = f'port = {port}\npeer = "127.0.0.2"'
    remote = subprocess.Popen([sys.executable, str(script), str(port), "1"])
    try:
        summary = run_match(match_file(write_match, binding, startup=2, failures="forfeit"))
    finally:
        remote.kill()
        remote.wait()
    no_leftover_processes()
    games = stored_games(summary)
    assert len(games) == 2
    for result, detail, _events in games:
        seat = result.seating.index("remote")
        assert [(f.seat, str(f.kind)) for f in detail.faults] == [(seat, "connect")]
        assert result.ranks[seat] == 2
