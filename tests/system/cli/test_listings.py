"""``arena runs`` and ``arena games`` on a real database: a finished run with a bot that
crashes, and an unfinished run; what the tables say is checked against the store."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from arena_cli import arena, one_error_line

from arena_kernel.model import GameRecord, Outcome, ScheduledGame
from arena_kernel.store import Store


def table(text: str) -> list[dict[str, str]]:
    """The rows of a table printed by the CLI, as dicts by column (cells are separated by
    two spaces or more; numbers are right-aligned)."""
    lines = text.strip().splitlines()
    columns = lines[0].split()
    assert set(lines[1]) <= {"-", " "}, lines[1]
    return [
        dict(zip(columns, re.split(r"\s{2,}", line.strip()), strict=True)) for line in lines[2:]
    ]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run 1: nim between two built-in bots and one that crashes on its second move,
    played to its end; run 2: one game of five stored."""
    folder = tmp_path_factory.mktemp("listings")
    crasher = [
        sys.executable,
        "-m",
        "arena_kernel.testing.scripted",
        json.dumps([{"reply": "take 1"}, {"exit": 3}]),
        "--only",
        "move",
    ]
    (folder / "nim.toml").write_text(
        f"""
name = "league"
game = "nim"
plugins = ["arena_kernel.testing.games"]
database = "nim.sqlite"
concurrency = 2
[sandbox]
mode = "none"
[[bots]]
name = "optimal"
builtin = "optimal"
inproc = true
[[bots]]
name = "crasher"
cmd = {json.dumps(crasher)}
[[bots]]
name = "random"
builtin = "random"
inproc = true
"""
    )
    played = arena("run", "-q", "nim.toml", cwd=folder)
    assert played.returncode == 0, played.stderr
    with Store(folder / "nim.sqlite") as store:
        run = store.open_run("unfinished-key", "unfinished", "nim", {"bots": []}, 5)
        store.save_game(
            run.run_id,
            GameRecord(ScheduledGame(3, 1, ("zed", "optimal")), Outcome.draw(2, "agreed")),
        )
    return folder / "nim.sqlite"


def test_runs_lists_every_run(database: Path) -> None:
    result = arena("runs", str(database))
    assert result.returncode == 0, result.stderr
    with Store(database) as store:
        keys = [run.key for run in store.runs()]
    assert table(result.stdout) == [
        {
            "id": "1",
            "name": "league",
            "game": "nim",
            "games": "6/6",
            "finished": "yes",
            "created": table(result.stdout)[0]["created"],
            "key": keys[0],
        },
        {
            "id": "2",
            "name": "unfinished",
            "game": "nim",
            "games": "1/5",
            "finished": "no",
            "created": table(result.stdout)[1]["created"],
            "key": "unfinished-key",
        },
    ]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", table(result.stdout)[0]["created"])


def test_games_lists_every_game_by_run_and_index(database: Path) -> None:
    result = arena("games", str(database))
    assert result.returncode == 0, result.stderr
    rows = table(result.stdout)
    with Store(database) as store:
        stored = [store.game(g.game_id) for run in (1, 2) for g in store.results(run)]
    assert [(r["id"], r["run"], r["index"]) for r in rows] == [
        (str(g.game_id), str(g.run_id), str(g.index)) for g in stored
    ]
    for row, game in zip(rows, stored, strict=True):
        assert row["seating"] == ", ".join(game.seating)
        assert row["ranks"] == " ".join(map(str, game.ranks))
        assert row["result"] == game.reason
        assert row["sandbox"] == (game.sandbox or "unknown")
        if game.faults:
            assert row["faults"] == f"{len(game.faults)} (exit {len(game.faults)})"
        else:
            assert row["faults"] == "-"
    assert rows[-1]["sandbox"] == "unknown", "a game stored without its sandbox"


def test_games_filters(database: Path) -> None:
    with Store(database) as store:
        crashed = [g.game_id for g in store.results(1) if "crasher" in g.seating]
        faulted = [g.game_id for g in store.results(1) if store.game(g.game_id).faults]
    assert len(crashed) == 4 and faulted == crashed

    by_bot = table(arena("games", str(database), "--run", "1", "--bot", "crasher").stdout)
    assert [int(r["id"]) for r in by_bot] == crashed
    with_faults = table(arena("games", str(database), "--faults").stdout)
    assert [int(r["id"]) for r in with_faults] == faulted
    assert all("exit" in r["faults"] for r in with_faults)
    limited = table(arena("games", str(database), "--faults", "--limit", "2").stdout)
    assert [int(r["id"]) for r in limited] == faulted[:2]
    # "zed" sat only in run 2.
    assert len(table(arena("games", str(database), "--bot", "zed").stdout)) == 1
    none = arena("games", str(database), "--run", "2", "--faults")
    assert none.returncode == 0 and none.stdout == "no games match\n"


def test_unknown_run_bot_or_file_is_one_line(database: Path, tmp_path: Path) -> None:
    one_error_line(
        arena("games", str(database), "--bot", "nobody"),
        'no bot "nobody" in',
        "optimal, crasher, random",
    )
    one_error_line(
        arena("games", str(database), "--run", "2", "--bot", "crasher"),
        'no bot "crasher" in run 2',
    )
    one_error_line(arena("games", str(database), "--run", "9"), 'no run "9"', "`arena runs`")
    one_error_line(arena("runs", str(tmp_path / "none.sqlite")), "no such database file")
    assert not (tmp_path / "none.sqlite").exists()


def test_an_empty_database_has_no_runs(tmp_path: Path) -> None:
    Store(tmp_path / "empty.sqlite").close()
    result = arena("runs", str(tmp_path / "empty.sqlite"))
    assert result.returncode == 0 and result.stdout == f"no runs in {tmp_path / 'empty.sqlite'}\n"
