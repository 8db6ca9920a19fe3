"""Ctrl-C or SIGTERM at any moment of an ``arena`` command: one line on stderr, exit status
130, every bot ended, nothing half-stored. Real ``arena`` processes, each stopped at a known
moment (an import that waits, or a bot that says it started; tests/system/cli/stall) and
signalled there."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from arena_cli import arena, nim_in_process, stored

HERE = Path(__file__).resolve().parent
RESUME = "arena: interrupted; run the same match file again to resume\n"
SIGNALS = pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
REACH_LIMIT = 120.0
"""Seconds a process may take to reach its moment: a bound for a stuck test, not a timing."""

WAITER = "import sys; open(sys.argv[1], 'w').close(); sys.stdin.read()"
"""A bot that notes it started, then never answers."""

IN_PROCESS = nim_in_process()


def stalled(
    args: list[str], module: str, folder: Path, env: Mapping[str, str] | None = None
) -> tuple[subprocess.Popen[str], Path]:
    """``arena ARGS`` (in ``folder``, with ``env`` added) started so that it stops in the
    import of ``module``; the file it creates when it gets there."""
    reached = folder / f"reached-{module}"
    path = [str(HERE / "stall"), os.environ.get("PYTHONPATH", "")]
    stall = {
        "PYTHONPATH": os.pathsep.join(filter(None, path)),
        "ARENA_TEST_STALL_AT": module,
        "ARENA_TEST_STALL_FILE": str(reached),
    }
    return started(args, folder, {**(env or {}), **stall}), reached


def started(args: list[str], folder: Path, env: Mapping[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "arena_kernel.cli.main", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=folder,
        env={**os.environ, **env},
    )


def signalled_there(
    process: subprocess.Popen[str],
    reached: Path,
    sig: signal.Signals,
    there: Callable[[], object] = lambda: None,
    then: Callable[[], object] = lambda: None,
) -> tuple[int, str]:
    """Wait until ``process`` creates ``reached``, call ``there`` (which checks that this
    is the moment meant), signal it, call ``then``, and return its exit status and
    stderr."""
    deadline = time.monotonic() + REACH_LIMIT
    while not reached.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            out, err = process.communicate()
            pytest.fail(f"it never got there (status {process.returncode}): {out}{err}")
        time.sleep(0.01)
    try:
        there()
    except BaseException:
        process.kill()
        process.communicate()
        raise
    process.send_signal(sig)
    then()
    _out, err = process.communicate(timeout=REACH_LIMIT)
    return process.returncode, err


def assert_whole(database: Path, games: int) -> None:
    """The file passes SQLite's integrity check and holds ``games`` games, each with its
    seats (no game half-stored)."""
    assert stored(database)[1] == games
    if not database.exists():
        return
    with sqlite3.connect(database) as conn:
        assert conn.execute("pragma integrity_check").fetchall() == [("ok",)]
        seatless = conn.execute(
            "select count(*) from games g where not exists "
            "(select 1 from seats s where s.game_id = g.id)"
        ).fetchone()[0]
        assert seatless == 0


MOMENTS = {
    # moment -> the import it stops in, and the games stored by then
    "start": ("click", 0),  # the command line's first import after the handlers
    "plugins": ("arena_kernel.testing.games", 0),  # the match file's plugin module
    "shutdown": ("arena_kernel.report.fault_counts", 2),  # the faults summary, after the run
}


@SIGNALS
@pytest.mark.parametrize("moment", MOMENTS)
def test_arena_run_interrupted_at_any_moment_says_one_line_and_exits_130(
    moment: str, sig: signal.Signals, write_match: Callable[..., Path], tmp_path: Path
) -> None:
    module, games = MOMENTS[moment]
    path = write_match(IN_PROCESS)
    database = tmp_path / "results.sqlite"
    process, reached = stalled(["run", "-q", str(path)], module, tmp_path)

    def there() -> None:
        assert stored(database)[1] == games

    status, err = signalled_there(process, reached, sig, there)
    assert (status, err) == (130, RESUME)
    assert_whole(database, games)
    if moment == "shutdown":
        resumed = arena("run", "-q", str(path))
        assert resumed.returncode == 0, resumed.stderr
        assert "0 games played now, 2 already stored" in resumed.stdout


@SIGNALS
@pytest.mark.parametrize("moment", ["exit:threads", "exit:modules"])
def test_a_signal_once_the_run_has_ended_changes_neither_its_status_nor_its_output(
    moment: str, sig: signal.Signals, write_match: Callable[..., Path], tmp_path: Path
) -> None:
    """Signalled as Python exits, joining a thread or clearing the modules (where the
    signals have their default action again): it exits as it would have, quietly."""
    path = write_match(IN_PROCESS)
    database = tmp_path / "results.sqlite"
    process, reached = stalled(["run", "-q", str(path)], moment, tmp_path)
    go = reached.with_name(reached.name + ".go")

    def there() -> None:
        assert stored(database)[1] == 2

    status, err = signalled_there(process, reached, sig, there, then=go.touch)
    assert (status, err) == (0, "")
    assert_whole(database, 2)


@SIGNALS
def test_arena_run_interrupted_while_a_bot_plays_ends_it_and_stores_nothing_of_its_game(
    sig: signal.Signals,
    write_match: Callable[..., Path],
    tmp_path: Path,
    no_leftover_processes: Callable[..., None],
) -> None:
    note = tmp_path / "waiter-started"
    path = write_match(
        f"""
        game = "nim"
        games = 1
        [clock]
        startup = 300
        [sandbox]
        mode = "none"  # the bot writes its note where the test sees it
        [[bots]]
        name = "a"
        builtin = "optimal"
        inproc = true
        [[bots]]
        name = "waiter"
        cmd = {json.dumps([sys.executable, "-c", WAITER, str(note)])}
        """
    )
    process = started(["run", "-q", str(path)], tmp_path, {})
    status, err = signalled_there(process, note, sig)
    assert (status, err) == (130, RESUME)
    assert_whole(tmp_path / "results.sqlite", 0)
    no_leftover_processes()


@SIGNALS
def test_check_bot_interrupted_says_one_line_exits_130_and_removes_its_folder(
    sig: signal.Signals, tmp_path: Path
) -> None:
    """Stopped as it is about to play, its temporary folder made."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    check = ["check-bot", "-p", "arena_kernel.testing.games", "nim", "--", "true"]
    process, reached = stalled(
        check, "arena_kernel.runner.api", tmp_path, {"TMPDIR": str(temporary)}
    )
    status, err = signalled_there(process, reached, sig, there=lambda: next(temporary.iterdir()))
    assert (status, err) == (130, "arena: interrupted\n")
    assert list(temporary.iterdir()) == []


@SIGNALS
def test_report_interrupted_says_one_line_and_exits_130(
    sig: signal.Signals, write_match: Callable[..., Path], tmp_path: Path
) -> None:
    """Stopped as it is about to write the site."""
    made = arena("run", "-q", str(write_match(IN_PROCESS)))
    assert made.returncode == 0, made.stderr
    report = ["report", str(tmp_path / "results.sqlite"), "-o", str(tmp_path / "site")]
    process, reached = stalled(report, "arena_kernel.report.site", tmp_path)
    status, err = signalled_there(process, reached, sig)
    assert (status, err) == (130, "arena: interrupted\n")
