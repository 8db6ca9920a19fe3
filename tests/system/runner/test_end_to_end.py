"""Whole matches of the test games through every built-in transport and codec, with real
bot processes in Python and Node.js."""

from __future__ import annotations

import json
import shutil
import socket
import sys
import threading
import time

import pytest
from paths import BOTS

from arena_kernel.runner.api import run_match
from arena_kernel.store import Store

TCP = ("--tcp", "{host}", "{port}")
NIM_BOT = [sys.executable, "-m", "arena_kernel.testing.nim_bot"]


def bot(name: str, cmd: list[str], **extra: object) -> str:
    lines = [f'[[bots]]\nname = "{name}"\ncmd = {json.dumps(cmd)}']
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


def test_nim_over_tcp_with_python_and_node_bots(
    write_match, arena_node, no_leftover_processes
) -> None:
    path = write_match(
        """
        game = "nim"
        transport = "tcp"
        rounds = 2
        concurrency = 2
        """
        + '[[bots]]\nname = "py-optimal"\nbuiltin = "optimal"\n'
        + 'args = ["--tcp", "{host}", "{port}"]\n'
        + bot("node-optimal", [arena_node, str(BOTS / "nim.js"), "line", *TCP])
        + bot("py-random", [*NIM_BOT, "random", *TCP])
    )
    summary = run_match(path)
    no_leftover_processes()
    assert summary.errors == [] and summary.played == 12
    with Store(summary.run.database) as store:
        games = store.results(summary.run.run_id)
        assert all(not store.game(g.game_id).faults for g in games)
    wins = {row[0]: row[2] for row in summary.standings[0].rows}
    assert wins["py-random"] < wins["py-optimal"] and wins["py-random"] < wins["node-optimal"]


def test_nim_over_jsonl_with_node_bots(write_match, arena_node) -> None:
    path = write_match(
        """
        game = "nim"
        codec = "jsonl"
        """
        + bot("a", [arena_node, str(BOTS / "nim.js"), "jsonl"])
        + bot("b", [arena_node, str(BOTS / "nim.js"), "jsonl"])
    )
    summary = run_match(path)
    with Store(summary.run.database) as store:
        game = store.results(summary.run.run_id)[0]
        sent = [e.text for e in store.events(game.game_id) if e.kind == "send"]
    assert summary.played == 2 and not summary.errors
    assert sent[0] == '{"verb":"start","args":[0,2,21]}'
    # 21 stones between two perfect players: the first mover leaves 20 and wins.
    assert all(g.ranks[0] == 1 for g in store_results(summary))


def store_results(summary):
    with Store(summary.run.database) as store:
        return store.results(summary.run.run_id)


@pytest.mark.parametrize(
    ("codec", "reply", "framing", "first_request"),
    [("sexpr", "(take 1)", "line", "(move 5)"), ("raw", "take 1", "raw", "move 5")],
)
def test_nim_over_sexpr_and_raw(
    write_match, scripted_bot, codec, reply, framing, first_request
) -> None:
    cmd = scripted_bot([{"reply": reply}], framing=framing)
    path = write_match(
        f"""
        game = "nim"
        codec = "{codec}"
        [game_options]
        pile = 5
        """
        + bot("one", cmd)
        + bot("two", cmd)
    )
    summary = run_match(path)
    games = store_results(summary)
    assert summary.played == 2 and not summary.errors
    assert all(g.ranks == (1, 2) for g in games), "taking one at a time from 5, seat 0 wins"
    with Store(summary.run.database) as store:
        sent = [e.text for e in store.events(games[0].game_id) if e.kind == "send"]
    assert first_request in sent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def external_bot(port: int, stop: threading.Event) -> None:
    """A bot started by someone else: it connects by itself and always takes one stone."""
    deadline = time.monotonic() + 10
    while not stop.is_set() and time.monotonic() < deadline:
        try:
            sock = socket.create_connection(("127.0.0.1", port))
            break
        except OSError:
            time.sleep(0.02)
    else:
        return
    with sock, sock.makefile("rwb", buffering=0) as wire:
        for line in wire:
            if line.startswith(b"move"):
                wire.write(b"take 1\n")


def test_an_external_bot_connects_on_a_fixed_port(write_match) -> None:
    port = free_port()
    stop = threading.Event()
    thread = threading.Thread(target=external_bot, args=(port, stop), daemon=True)
    thread.start()
    path = write_match(
        f"""
        game = "nim"
        transport = "tcp"
        games = 1
        [game_options]
        pile = 6
        [transport_options.tcp]
        port = {port}
        [[bots]]
        name = "outsider"
        connect = true
        """
        + bot("insider", [*NIM_BOT, "optimal", *TCP])
    )
    try:
        summary = run_match(path)
    finally:
        stop.set()
    games = store_results(summary)
    assert summary.played == 1 and games[0].seating == ("outsider", "insider")
    # pile 6: outsider takes 1 (5), optimal takes 1 (4), outsider 1 (3), optimal takes 3.
    assert games[0].ranks == (2, 1)


SESSION_BOT = """
import os, sys
sys.stderr.write(f"pid {os.getpid()}\\n"); sys.stderr.flush()
for line in sys.stdin:
    if line.strip() == "throw":
        print("rock", flush=True)
    elif line.strip() == "bye":
        print("bye", flush=True)
"""


def test_session_bots_stay_connected_for_many_games(write_match, no_leftover_processes) -> None:
    cmd = [sys.executable, "-c", SESSION_BOT]
    path = write_match(
        """
        game = "rps"
        rounds = 3
        concurrency = 1
        [game_options]
        throws = 2
        """
        + bot("rocky", cmd)
        + bot("stony", cmd)
    )
    summary = run_match(path)
    no_leftover_processes()
    assert summary.played == 6 and not summary.errors
    logs = sorted((path.parent / "logs").rglob("*.stderr"))
    assert len(logs) == 2, "one process per bot for the whole session"
    assert all(log.read_text().count("pid ") == 1 for log in logs)
    session_log = next((path.parent / "logs").rglob("session.log")).read_text()
    assert session_log.count("bye") == 4
    assert all(g.ranks == (1, 1) for g in store_results(summary)), "rock against rock: draws"


def test_a_java_bot_runs_under_the_default_limits(write_match) -> None:
    java = shutil.which("java")
    if java is None:
        pytest.skip("Java is not installed")
    path = write_match(
        """
        game = "nim"
        [clock]
        startup = 20
        reply = 20
        """
        + bot("java", [java, "-Xshare:auto", str(BOTS / "Nim.java")])
        + bot("python", [*NIM_BOT, "random"])
    )
    summary = run_match(path)
    games = store_results(summary)
    assert summary.played == 2 and not summary.errors
    with Store(summary.run.database) as store:
        assert all(not store.game(g.game_id).faults for g in games)
    # 21 stones: the first mover wins with perfect play; Java plays perfectly.
    java_first = next(g for g in games if g.seating[0] == "java")
    assert java_first.ranks == (1, 2)


def test_scripted_bots_over_tcp(write_match, scripted_bot) -> None:
    cmd = scripted_bot([{"reply": "take 1"}], tcp=True)
    path = write_match(
        """
        game = "nim"
        transport = "tcp"
        [game_options]
        pile = 3
        """
        + bot("one", cmd)
        + bot("two", cmd)
    )
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    assert all(g.ranks == (1, 2) for g in store_results(summary)), "3 stones, one at a time"


QUITTER = """
import sys
results = 0
for line in sys.stdin:
    if line.startswith("throw"):
        print("paper", flush=True)
    elif line.startswith("result"):
        results += 1
        if results == 2:
            sys.exit(0)
"""


def test_a_session_bot_that_quits_between_games_forfeits_the_next(write_match) -> None:
    path = write_match(
        """
        game = "rps"
        concurrency = 1
        [game_options]
        throws = 2
        """
        + bot("quitter", [sys.executable, "-c", QUITTER])
        + bot("rocky", [sys.executable, "-c", SESSION_BOT])
    )
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    with Store(summary.run.database) as store:
        first, second = store.results(summary.run.run_id)
        assert first.ranks[first.seating.index("quitter")] == 1, "paper beats rock twice"
        assert second.ranks[second.seating.index("quitter")] == 2
        events = store.events(second.game_id)
        detail = store.game(second.game_id)
    assert [str(f.kind) for f in detail.faults] == ["exit"]
    assert any(e.kind == "fault" and "exit" in e.text for e in events), "the replay shows why"
