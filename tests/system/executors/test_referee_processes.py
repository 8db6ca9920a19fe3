"""The local executor with several referee processes (``referees``): the games are played
in this process and others of its own, this one storing them all, and come out as with
one; what stops one process (a crash, Ctrl-C) stops the run, every bot ended."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from arena_cli import arena, one_error_line, stored
from paths import SUPPORT as SUPPORT_FOLDER

from arena_kernel.executors.crowding import usable_cores
from arena_kernel.match.spec import AUTO_REFEREES_FROM
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store

DETERMINISTIC = """
game = "pid_nim"
plugins = ["pid_game"]
database = "r{referees}.sqlite"
seed = 3
games = {games}
concurrency = 4
referees = {referees}
[game_options]
spread = 9
[[bots]]
name = "one"
builtin = "optimal"
inproc = true
[[bots]]
name = "two"
builtin = "optimal"
inproc = true
"""
"""Optimal against optimal on seeded piles: each game's result follows from its seed."""

SUPPORT = {
    "PYTHONPATH": os.pathsep.join(filter(None, [str(SUPPORT_FOLDER), os.environ.get("PYTHONPATH")]))
}
"""The environment of an ``arena`` command that loads the plugin modules of tests/support."""


def played(write_match: Callable[..., Path], referees: int, games: int) -> list[tuple]:
    """Play the match with ``referees`` processes; per game, by index: its seating, ranks,
    reason, faults and details (the pid of the process that refereed it apart, last)."""
    path = write_match(DETERMINISTIC.format(games=games, referees=referees), f"r{referees}.toml")
    summary = run_match(path)
    assert summary.played == games and not summary.errors
    with Store(summary.run.database) as store:
        games_stored = store.games(summary.run.run_id)
    rows = []
    for game in games_stored:
        details = dict(game.details)
        pid = details.pop("pid")
        rows.append((game.index, game.seating, game.ranks, game.reason, game.faults, details, pid))
    return rows


def test_several_referee_processes_play_the_games_this_one_stores_and_alike(
    write_match: Callable[..., Path],
) -> None:
    one = played(write_match, 1, 24)
    two = played(write_match, 2, 24)
    assert [row[:-1] for row in two] == [row[:-1] for row in one], (
        "the same games, the same results"
    )
    assert {row[-1] for row in one} == {os.getpid()}
    referees = {row[-1] for row in two}
    assert len(referees) == 2 and os.getpid() in referees


def test_program_bots_of_a_referee_process_leave_their_logs_with_the_run(
    write_match: Callable[..., Path],
) -> None:
    """A bot started by a referee process writes its stderr where the run keeps it."""
    chatty = (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    print('thinking', file=sys.stderr, flush=True)\n"
        "    print('take 1', flush=True)\n"
    )
    path = write_match(
        f"""
        game = "pid_nim"
        plugins = ["pid_game"]
        games = 2
        concurrency = 2
        referees = 2
        [sandbox]
        mode = "none"
        [[bots]]
        name = "one"
        builtin = "optimal"
        inproc = true
        [[bots]]
        name = "chatty"
        cmd = {json.dumps([sys.executable, "-c", chatty])}
        """
    )
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    with Store(summary.run.database) as store:
        games = store.games(summary.run.run_id)
    assert len({game.details["pid"] for game in games}) == 2
    for game in games:
        (log,) = game.stderr_logs.values()
        assert Path(log).read_text().startswith("thinking\n")


def test_a_referee_process_that_dies_stops_the_run_with_one_error_line(
    write_match: Callable[..., Path],
) -> None:
    """The first game goes to the other process, which it ends."""
    path = write_match(
        """
        game = "worker_killer_nim"
        plugins = ["pid_game"]
        games = 6
        concurrency = 2
        referees = 2
        [[bots]]
        name = "one"
        builtin = "optimal"
        inproc = true
        [[bots]]
        name = "two"
        builtin = "optimal"
        inproc = true
        """
    )
    one_error_line(arena("run", "-q", str(path), env=SUPPORT), "referee process", "status 70")


def test_bots_that_connect_by_themselves_need_one_referee(
    write_match: Callable[..., Path],
) -> None:
    path = write_match(
        """
        game = "nim"
        referees = 2
        transport = "tcp"
        [[bots]]
        name = "here"
        builtin = "optimal"
        inproc = true
        [[bots]]
        name = "there"
        connect = true
        """
    )
    one_error_line(arena("run", "-q", str(path)), "referees = 2", "connect", "referees = 1")


WAITER = (
    "import os, sys\n"
    "open(os.path.join(sys.argv[1], os.environ['ARENA_ID']), 'w').close()\n"
    "sys.stdin.read()\n"
)
"""A bot that notes its start in the folder it is given (one file per seat), then never
answers."""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_interrupted_every_referee_process_ends_its_bots_and_nothing_is_stored(
    sig: signal.Signals,
    write_match: Callable[..., Path],
    tmp_path: Path,
    no_leftover_processes: Callable[..., None],
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    path = write_match(
        f"""
        game = "pid_nim"
        plugins = ["pid_game"]
        games = 2
        concurrency = 2
        referees = 2
        [clock]
        startup = 300
        [sandbox]
        mode = "none"  # the bots write their notes where the test sees them
        [[bots]]
        name = "one"
        builtin = "optimal"
        inproc = true
        [[bots]]
        name = "waiter"
        cmd = {json.dumps([sys.executable, "-c", WAITER, str(notes)])}
        """
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "arena_kernel.cli.main", "run", "-q", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **SUPPORT},
    )
    deadline = time.monotonic() + 120
    while len(list(notes.iterdir())) < 2:
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.02)
    process.send_signal(sig)
    _out, err = process.communicate(timeout=120)
    assert (process.returncode, err) == (
        130,
        "arena: interrupted; run the same match file again to resume\n",
    )
    assert stored(tmp_path / "results.sqlite")[1] == 0
    no_leftover_processes()


def test_without_the_key_a_long_run_uses_every_core(write_match: Callable[..., Path]) -> None:
    """From AUTO_REFEREES_FROM sessions on, as many referee processes as cores (at most
    the games at once); below, this process alone (every other test of the suite)."""
    games = AUTO_REFEREES_FROM
    path = write_match(DETERMINISTIC.format(games=games, referees=1).replace("referees = 1", ""))
    summary = run_match(path)
    assert summary.played == games and not summary.errors
    with Store(summary.run.database) as store:
        pids = {game.details["pid"] for game in store.games(summary.run.run_id)}
    expected = min(usable_cores(), 4)
    assert len(pids) == expected
    assert os.getpid() in pids, "the run's own process referees too"
