"""The ``arena`` command as a user runs it: a real process, real files, exit statuses."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from arena_cli import arena, one_error_line
from paths import REPO


def test_every_command_has_help() -> None:
    top = arena("--help")
    assert top.returncode == 0
    for command in (
        "run",
        "plugins",
        "standings",
        "replay",
        "runs",
        "games",
        "export",
        "init",
        "new-game",
        "doctor",
    ):
        assert command in top.stdout
        result = arena(command, "--help")
        assert result.returncode == 0 and "Usage: " in result.stdout, command


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("report", "results.sqlite"), "arena report: missing option '-o' / '--output'"),
        (("run",), "arena run: missing argument 'MATCH_FILE'"),
        (("run", "-j", "0", "m.toml"), "arena run: invalid value for '--concurrency'"),
        (("rn",), "arena: no such command 'rn' (did you mean one of: 'run', 'runs'?)"),
        (("standings", "a", "b"), "arena standings: got unexpected extra argument (b)"),
        (("--bogus",), "arena: no such option '--bogus'"),
    ],
)
def test_a_command_line_arena_cannot_read_is_one_error_line_naming_its_help(
    args: tuple[str, ...], words: str
) -> None:
    line = one_error_line(arena(*args), words)
    command = words.split(":")[0]
    assert line.endswith(f"(see {command} --help)"), line
    assert "Usage:" not in line


def test_plugins_lists_builtins_with_their_source() -> None:
    result = arena("plugins", "-p", "arena_kernel.testing.games")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    for name in (
        "stdio",
        "tcp",
        "inproc",
        "line",
        "jsonl",
        "sexpr",
        "raw",
        "wins",
        "elo",
        "openskill",
    ):
        assert any(line.split()[:3] == [name, "arena", "(built-in)"] for line in lines), name
    assert any(
        line.startswith("nim ") and "plugin arena_kernel.testing.games" in line for line in lines
    )


def test_run_standings_and_replay(tmp_path: Path) -> None:
    match = tmp_path / "nim.toml"
    match.write_text(
        (REPO / "examples" / "nim.toml").read_text().replace("rounds = 5", "rounds = 1")
    )
    result = arena("run", str(match), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "6 games played now" in result.stdout
    assert "Wins" in result.stdout and "Elo" in result.stdout
    db = tmp_path / "nim.sqlite"
    with sqlite3.connect(db) as conn:
        assert conn.execute("select count(*) from games").fetchone()[0] == 6

    standings = arena("standings", str(db))
    assert standings.returncode == 0
    rows = [line for line in standings.stdout.splitlines() if line.startswith("optimal ")]
    assert rows and rows[0].split()[1:3] == ["4", "4"], "optimal: 4 games, 4 wins"

    replay = arena("replay", str(db), "1")
    assert replay.returncode == 0
    assert "seat 0: " in replay.stdout and ">> 0:" in replay.stdout and "<< " in replay.stdout
    assert "result: took the last stone" in replay.stdout


def test_init_writes_a_match_file_that_runs(tmp_path: Path) -> None:
    out = tmp_path / "starter.toml"
    made = arena("init", "nim", "-p", "arena_kernel.testing.games", "-o", str(out))
    assert made.returncode == 0, made.stderr
    text = out.read_text()
    assert text.lstrip().startswith("#") and 'game = "nim"' in text
    assert 'plugins = ["arena_kernel.testing.games"]' in text.splitlines()
    result = arena("run", "-q", str(out), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    again = arena("init", "nim", "-p", "arena_kernel.testing.games", "-o", str(out))
    one_error_line(again, "already exists")


def test_init_into_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "folder" / "starter.toml"
    made = arena("init", "nim", "-p", "arena_kernel.testing.games", "-o", str(out))
    one_error_line(made, str(out), f"there is no folder {out.parent}")
    assert not (tmp_path / "no").exists()


TWO_BOTS = '[[bots]]\nname = "a"\nbuiltin = "optimal"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('game = "nim"\nsedd = 1\n', 'line 5: unknown top-level key "sedd" (did you mean "seed"?)'),
        ('game = "nim"\nseed = "one"\n' + TWO_BOTS, "seed must be an integer"),
        (
            'game = "nim"\n[[bots]]\nname = "a"\n[[bots]]\nname = "b"\nbuiltin = "optimal"\n',
            "bots[1]",
        ),
        ('game = "chess"\n', 'game "chess"'),
        ('game = "nim"\nseed = \n', "line 5, column 8: invalid TOML"),
    ],
    ids=["unknown-key", "wrong-type", "missing-command", "unknown-game", "bad-toml"],
)
def test_a_bad_match_file_gets_one_clear_message(
    write_match: Callable[..., Path], text: str, expected: str
) -> None:
    match = write_match(text, "bad.toml")
    one_error_line(arena("run", str(match)), str(match), expected)


def test_missing_database_is_a_user_error(tmp_path: Path) -> None:
    result = arena("standings", str(tmp_path / "nope.sqlite"))
    assert result.returncode == 2 and "no such database file" in result.stderr
    result = arena("replay", str(tmp_path / "nope.sqlite"), "1")
    assert result.returncode == 2
