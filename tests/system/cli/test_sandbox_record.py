"""What each game's bots ran under, as ``arena run`` records it and the organiser sees it:
the run's header, the summary, ``arena standings`` and ``arena replay``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from arena_cli import arena, one_error_line, untimed, without_bwrap
from paths import OLD_SCHEMAS, REPO

from arena_kernel.sandbox.probe import Probe

BWRAP_HEADER = "sandbox: bwrap (every bot the arena starts runs in a bubblewrap sandbox)"
NONE_HEADER = 'sandbox: none (bots run with your rights, as [sandbox] mode = "none" asks)'
PROGRESS = "nim: 6/6 games in T, 0 faults, leader optimal (wins)"
"""The progress, one line at the end of a run when stderr is not a terminal."""


def nim_match(folder: Path, sandbox: str | None = None, inproc: tuple[str, ...] = ()) -> Path:
    """The kernel's Nim example, one round (6 games) of its built-in bots run as programs
    (but the ``inproc`` ones), with ``[sandbox] mode = sandbox`` if given."""
    text = (REPO / "examples" / "nim.toml").read_text().replace("rounds = 5", "rounds = 1")
    for name in inproc:
        text = text.replace(f'name = "{name}"\n', f'name = "{name}"\ninproc = true\n')
    if sandbox is not None:
        text += f'\n[sandbox]\nmode = "{sandbox}"\n'
    match = folder / "nim.toml"
    match.write_text(text)
    return match


def stored(database: Path) -> list[tuple[tuple[str, ...], str | None]]:
    """Each stored game's seating and sandbox, in schedule order."""
    with sqlite3.connect(database) as raw:
        rows = raw.execute(
            "SELECT g.sandbox, group_concat(s.bot) FROM games g JOIN seats s"
            " ON s.game_id = g.id GROUP BY g.id ORDER BY g.idx"
        ).fetchall()
    return [(tuple(bots.split(",")), sandbox) for sandbox, bots in rows]


def last_line(text: str) -> str:
    return text.rstrip().splitlines()[-1]


def test_a_run_with_mode_none_records_it_and_every_report_says_so(tmp_path: Path) -> None:
    run = arena("run", str(nim_match(tmp_path, "none")), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert [untimed(line) for line in run.stderr.splitlines()] == [NONE_HEADER, PROGRESS]
    assert last_line(run.stdout) == "sandbox: none (6 games)"
    database = tmp_path / "nim.sqlite"
    assert [sandbox for _seating, sandbox in stored(database)] == ["none"] * 6

    standings = arena("standings", str(database))
    assert standings.returncode == 0, standings.stderr
    assert last_line(standings.stdout) == "sandbox: none (6 games)"
    replay = arena("replay", str(database), "1")
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.splitlines()[0].endswith(" s, sandbox none")


def test_a_sandboxed_run_records_bwrap(tmp_path: Path, sandbox: Probe) -> None:
    run = arena("run", str(nim_match(tmp_path)), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert [untimed(line) for line in run.stderr.splitlines()] == [BWRAP_HEADER, PROGRESS]
    assert last_line(run.stdout) == "sandbox: bwrap (6 games)"
    database = tmp_path / "nim.sqlite"
    assert [sandbox for _seating, sandbox in stored(database)] == ["bwrap"] * 6
    assert last_line(arena("standings", str(database)).stdout) == "sandbox: bwrap (6 games)"
    replay = arena("replay", str(database), "6")
    assert replay.stdout.splitlines()[0].endswith(" s, sandbox bwrap")


def test_a_game_of_in_process_bots_alone_ran_under_no_sandbox(
    tmp_path: Path, sandbox: Probe
) -> None:
    """In-process bots run inside the arena: a game with no bot the arena started is
    "none", one with any is the run's sandbox."""
    match = nim_match(tmp_path, inproc=("optimal", "random-2"))
    run = arena("run", "-q", str(match), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    games = stored(tmp_path / "nim.sqlite")
    assert [sandbox for _seating, sandbox in games] == [
        "bwrap" if "random" in seating else "none" for seating, _sandbox in games
    ]
    counts = {"bwrap": 4, "none": 2}  # the pairs with "random": 2 of 3, played twice each
    in_order = dict.fromkeys(sandbox for _seating, sandbox in games)
    shown = ", ".join(f"{mode} ({counts[mode]} games)" for mode in in_order)
    assert last_line(run.stdout) == f"sandbox: {shown}"


def test_a_run_that_starts_no_bot_has_no_sandbox_header(tmp_path: Path) -> None:
    match = nim_match(tmp_path, inproc=("optimal", "random", "random-2"))
    run = arena("run", str(match), cwd=tmp_path, env=without_bwrap(tmp_path / "bin"))
    assert run.returncode == 0, run.stderr
    assert [untimed(line) for line in run.stderr.splitlines()] == [PROGRESS]
    assert [sandbox for _seating, sandbox in stored(tmp_path / "nim.sqlite")] == ["none"] * 6
    assert last_line(run.stdout) == "sandbox: none (6 games)"


def test_without_bwrap_auto_falls_back_to_none_with_one_warning_line(tmp_path: Path) -> None:
    env = without_bwrap(tmp_path / "bin")
    quiet = arena("run", "-q", str(nim_match(tmp_path)), cwd=tmp_path, env=env)
    assert quiet.returncode == 0, quiet.stderr
    (warning,) = quiet.stderr.splitlines()
    assert warning.startswith(
        "arena: warning: bots run unsandboxed: bubblewrap (bwrap) is not installed; "
        "to sandbox them, install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"
    ), warning
    assert last_line(quiet.stdout) == "sandbox: none (6 games)"
    assert [sandbox for _seating, sandbox in stored(tmp_path / "nim.sqlite")] == ["none"] * 6

    (tmp_path / "nim.sqlite").unlink()
    loud = arena("run", str(nim_match(tmp_path)), cwd=tmp_path, env=env)
    assert loud.returncode == 0, loud.stderr
    assert [untimed(line) for line in loud.stderr.splitlines()] == [warning, PROGRESS]


def _interrupted_after_two_games(database: Path) -> None:
    """As if the run had been interrupted after its first two games."""
    with sqlite3.connect(database) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        raw.execute("DELETE FROM games WHERE idx >= 2")


def test_a_run_played_unsandboxed_is_not_resumed_sandboxed(tmp_path: Path, sandbox: Probe) -> None:
    """The [sandbox] table is not part of the run's identity (its key stays): a run whose
    first games ran unsandboxed refuses to go on sandboxed, and says what to do."""
    database = tmp_path / "nim.sqlite"
    assert arena("run", "-q", str(nim_match(tmp_path, "none")), cwd=tmp_path).returncode == 0
    _interrupted_after_two_games(database)

    for mode in ("auto", "required"):
        refused = arena("run", "-q", str(nim_match(tmp_path, mode)), cwd=tmp_path)
        one_error_line(
            refused,
            "nim.toml: run 1 would go on with its bots in a bubblewrap sandbox, "
            "but 2 of its games ran them unsandboxed",
            'set [sandbox] mode = "none" to finish it unsandboxed',
            "a `database` of its own",
        )
        assert [mode for _seating, mode in stored(database)] == ["none"] * 2

    again = arena("run", "-q", str(nim_match(tmp_path, "none")), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "4 games played now, 2 already stored" in again.stdout
    assert last_line(arena("standings", str(database)).stdout) == "sandbox: none (6 games)"


def test_a_run_played_sandboxed_is_not_resumed_unsandboxed(tmp_path: Path, sandbox: Probe) -> None:
    database = tmp_path / "nim.sqlite"
    assert arena("run", "-q", str(nim_match(tmp_path)), cwd=tmp_path).returncode == 0
    _interrupted_after_two_games(database)

    for mode, env in (("none", {}), (None, without_bwrap(tmp_path / "bin"))):
        match = nim_match(tmp_path, mode)
        refused = arena("run", "-q", str(match), cwd=tmp_path, env=env)
        one_error_line(
            refused,
            "run 1 would go on with its bots unsandboxed, "
            "but 2 of its games ran them in a bubblewrap sandbox",
            "`arena doctor`",
        )
        assert [mode for _seating, mode in stored(database)] == ["bwrap"] * 2

    again = arena("run", "-q", str(nim_match(tmp_path)), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "4 games played now, 2 already stored" in again.stdout
    assert last_line(again.stdout) == "sandbox: bwrap (6 games)"


def test_games_of_bots_the_arena_does_not_start_do_not_stop_a_resumed_run(
    tmp_path: Path, sandbox: Probe
) -> None:
    """Such a game ran under no sandbox whatever the run's: it is no reason to refuse."""
    match = nim_match(tmp_path, inproc=("optimal", "random-2"))
    assert arena("run", "-q", str(match), cwd=tmp_path).returncode == 0
    database = tmp_path / "nim.sqlite"
    with sqlite3.connect(database) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        raw.execute("DELETE FROM games WHERE sandbox = 'bwrap'")
    assert {mode for _seating, mode in stored(database)} == {"none"}
    again = arena("run", "-q", str(match), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "4 games played now, 2 already stored" in again.stdout


def test_games_stored_before_arena_recorded_the_sandbox_show_as_unknown(tmp_path: Path) -> None:
    database = tmp_path / "old.sqlite"
    with sqlite3.connect(database) as raw:
        raw.executescript((OLD_SCHEMAS / "schema_v1.sql").read_text())
    standings = arena("standings", str(database))
    assert standings.returncode == 0, standings.stderr
    assert last_line(standings.stdout) == "sandbox: unknown (2 games)"
    replay = arena("replay", str(database), "1")
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.splitlines()[0].endswith(", 0.500 s")
