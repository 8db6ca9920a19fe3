"""Organisers' ordinary layouts under the sandbox: a sandbox path that would show what the
run hides is refused in one line; a bot's folder made writable whole is writable; an
entrant that writes next to itself plays, its writes kept for the organiser and never in
the organiser's folder; a bot that crashes while its child holds its output is an ``exit``
fault at once, not after its reply clock."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

from arena_kernel.errors import MatchFileError, SetupError
from arena_kernel.testkit import run_match, stored_games

WRITER = textwrap.dedent(
    """
    import sys
    with open("entrant.log", "a") as log:
        for line in sys.stdin:
            log.write(line)
            log.flush()
            words = line.split()
            if words[:1] == ["move"]:
                print(f"take {int(words[1]) % 4 or 1}", flush=True)
    """
)
"""A Nim bot that logs every request to a file beside itself, as entrants did."""

CRASHER = textwrap.dedent(
    """
    import os, signal, sys, time
    sys.stdin.readline()
    if os.fork() == 0:  # keeps the bot's output open, for a minute at most
        os.setsid()
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(60)
        os._exit(0)
    os._exit(3)
    """
)
"""A Nim bot that crashes at its first request, leaving a child holding its output."""

REPLY = 60
"""The reply clock of these games: far above what ending a crashed bot takes."""


def match(write_match, bots: str, sandbox: str = "") -> Path:
    return write_match(
        f"""\
game = "nim"
games = 1
database = "results.sqlite"
logs = "logs"
[clock]
startup = {REPLY}
reply = {REPLY}
[sandbox]
mode = "required"
{sandbox}
{bots}
"""
    )


def cmd_bot(name: str, script: str, extra: str = "") -> str:
    cmd = json.dumps([sys.executable, script])
    return f'[[bots]]\nname = "{name}"\ncmd = {cmd}\ncwd = "{name}"\n{extra}\n'


BUILTIN = '[[bots]]\nname = "builtin"\nbuiltin = "random"\n'


@pytest.mark.parametrize(
    "run_table, bot",
    [
        ("", 'sandbox = { writable = ["."] }'),
        ('read_only = ["."]', ""),
        ("", 'sandbox = { read_write = ["logs"] }'),
    ],
    ids=["writable folder", "readable match folder", "writable logs"],
)
def test_a_sandbox_path_that_holds_what_is_hidden_is_refused(
    sandbox, tmp_path, write_match, run_table, bot
) -> None:
    (tmp_path / "writer").mkdir()
    (tmp_path / "writer" / "writer.py").write_text(WRITER)
    (tmp_path / "logs").mkdir()
    # The bot's folder is the match file's, where the database and the logs are.
    bots = cmd_bot("writer", "writer/writer.py", bot).replace('cwd = "writer"\n', "") + BUILTIN
    path = match(write_match, bots, run_table)
    with pytest.raises(MatchFileError, match=r"holds .*(results|logs|match\.toml)") as error:
        run_match(path)
    assert "\n" not in str(error.value)
    assert not list(tmp_path.glob("logs/**/*.stderr")), "no bot was started"


def test_a_folder_made_writable_whole_is_writable(sandbox, tmp_path, write_match) -> None:
    (tmp_path / "writer").mkdir()
    (tmp_path / "writer" / "writer.py").write_text(WRITER)
    bots = cmd_bot("writer", "writer.py", 'sandbox = { writable = ["."] }') + BUILTIN
    summary = run_match(match(write_match, bots))
    ((_, detail, _),) = stored_games(summary)
    assert not detail.faults, detail.faults
    assert "move" in (tmp_path / "writer" / "entrant.log").read_text()


def test_an_entrant_that_writes_beside_itself_plays_and_its_writes_are_kept(
    sandbox, tmp_path, write_match
) -> None:
    (tmp_path / "writer").mkdir()
    (tmp_path / "writer" / "writer.py").write_text(WRITER)
    summary = run_match(match(write_match, cmd_bot("writer", "writer.py") + BUILTIN))
    ((_, detail, _),) = stored_games(summary)
    assert not detail.faults, detail.faults
    assert sorted(p.name for p in (tmp_path / "writer").iterdir()) == ["writer.py"]
    (kept,) = (tmp_path / "logs").glob("**/*-writer.files")
    assert sorted(p.name for p in kept.iterdir()) == ["entrant.log"], "only what it wrote"
    assert "move" in (kept / "entrant.log").read_text()


@pytest.mark.parametrize("mode", ["required", "none"])
def test_a_crash_with_a_child_holding_the_output_is_an_exit_fault_at_once(
    sandbox, tmp_path, write_match, no_leftover_processes, mode
) -> None:
    (tmp_path / "crasher").mkdir()
    (tmp_path / "crasher" / "crasher.py").write_text(CRASHER)
    path = match(write_match, cmd_bot("crasher", "crasher.py") + BUILTIN)
    text = path.read_text().replace('mode = "required"', f'mode = "{mode}"')
    path.write_text(f'startup_failures = "forfeit"\n{text}')
    summary = run_match(path)
    no_leftover_processes()
    ((result, detail, _),) = stored_games(summary)
    (fault,) = detail.faults
    assert fault.kind == "exit" and "status 3" in fault.detail, fault
    assert result.seating[fault.seat] == "crasher"
    assert detail.duration < REPLY / 2, "ended by the crash, not by the reply clock"


def test_a_path_other_users_may_not_read_is_refused_where_bots_have_users_of_their_own(
    sandbox, tmp_path, write_match
) -> None:
    if os.geteuid() != 0:
        pytest.skip("bots have user ids of their own only when arena runs as root")
    library = tmp_path / "library"
    library.mkdir(mode=0o700)
    (tmp_path / "writer").mkdir()
    (tmp_path / "writer" / "writer.py").write_text(WRITER)
    bots = cmd_bot("writer", "writer.py", f'sandbox = {{ read_only = ["{library}"] }}')
    with pytest.raises(SetupError, match=r"other users may not read .*library \(mode 0700\)"):
        run_match(match(write_match, bots + BUILTIN))
