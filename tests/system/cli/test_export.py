"""``arena export`` on a real database: every row of every table, read back from the CSV
files and the JSON document, equals what the store reads (runs, games, seats, faults and
per-bot figures); and its errors are one line each.

The database holds a Nim league with a bot that crashes (an ``exit`` fault, a stderr log)
and one that plays an illegal move (an ``illegal`` fault), and a rock-paper-scissors run
(session bots, scores), so that every column has values of its every kind; the figures of
CPU time, which those runs on wall-time clocks lack, come from a run stored by hand."""

from __future__ import annotations

import csv
import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from arena_cli import arena, one_error_line

from arena_kernel.model import Event, Fault, FaultKind, GameRecord, Outcome, ScheduledGame
from arena_kernel.report.stats import bot_stats
from arena_kernel.store import Store

TABLES = ("runs", "games", "seats", "faults", "bots", "ladder", "ratings")


def scripted(steps: list[dict[str, Any]]) -> str:
    """The ``cmd`` of a scripted Nim bot, as TOML."""
    argv = [sys.executable, "-m", "arena_kernel.testing.scripted", json.dumps(steps)]
    return json.dumps([*argv, "--only", "move"])


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export")
    crasher = scripted([{"reply": "take 1"}, {"exit": 3, "stderr": "giving up\n"}])
    cheater = scripted([{"reply": "take 9"}])
    (folder / "nim.toml").write_text(
        f"""
name = "league"
game = "nim"
plugins = ["arena_kernel.testing.games"]
database = "arena.sqlite"
seats = [2, 3]
concurrency = 4
[sandbox]
mode = "none"
[[bots]]
name = "optimal"
builtin = "optimal"
inproc = true
[[bots]]
name = "crasher"
cmd = {crasher}
[[bots]]
name = "cheater"
cmd = {cheater}
[[bots]]
name = "random"
builtin = "random"
"""
    )
    (folder / "rps.toml").write_text(
        """
name = "throws"
game = "rps"
plugins = ["arena_kernel.testing.games"]
database = "arena.sqlite"
games = 8
[sandbox]
mode = "none"
[[bots]]
name = "random"
builtin = "random"
inproc = true
[[bots]]
name = "rock"
builtin = "rock"
inproc = true
"""
    )
    for match in ("nim.toml", "rps.toml"):
        played = arena("run", "-q", match, cwd=folder)
        assert played.returncode == 0, played.stderr
    return folder / "arena.sqlite"


def expected(database: Path, run_id: int | None = None) -> dict[str, list[dict[str, Any]]]:
    """Every table's rows as the store reads them (run ``run_id``'s, or every run's)."""
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
    with Store(database) as store:
        for record in store.run_records():
            run = record.info
            if run_id not in (None, run.run_id):
                continue
            rows["runs"].append(
                {
                    "id": run.run_id,
                    "key": run.key,
                    "name": run.name,
                    "game": run.game,
                    "total_games": run.total_games,
                    "stored_games": run.done_games,
                    "created": record.created,
                    "finished": record.finished,
                    "spec": store.spec(run.run_id),
                }
            )
            for stats in bot_stats(store, run.run_id):
                rows["bots"].append(
                    {
                        "run_id": run.run_id,
                        "bot": stats.bot,
                        "games": stats.games,
                        "faults": stats.fault_count,
                        **{f"faults_{k}": stats.faults.get(k, 0) for k in FaultKind},
                        "replies": stats.replies,
                        "reply_mean": stats.reply_mean,
                        "reply_p95": stats.reply_p95,
                        "reply_max": stats.reply_max,
                        "cpu_replies": stats.cpu_replies,
                        "cpu_mean": stats.cpu_mean,
                        "cpu_p95": stats.cpu_p95,
                        "cpu_max": stats.cpu_max,
                        "cpu_share": stats.cpu_share,
                        "idle_mean": stats.idle_mean,
                        "timeouts": stats.timeouts,
                        "late": stats.late,
                    }
                )
        for game in store.games(run_id):
            rows["games"].append(
                {
                    "id": game.game_id,
                    "run_id": game.run_id,
                    "index": game.index,
                    "session": game.session,
                    "seed": game.seed,
                    "started_at": game.started_at,
                    "duration": game.duration,
                    "reason": game.reason,
                    "void": game.void,
                    "details": game.details,
                    "extra": game.extra,
                    "sandbox": game.sandbox,
                }
            )
            for seat, bot in enumerate(game.seating):
                rows["seats"].append(
                    {
                        "game_id": game.game_id,
                        "seat": seat,
                        "bot": bot,
                        "rank": game.ranks[seat],
                        "score": game.scores[seat] if game.scores else None,
                        "disqualified": seat in game.disqualified,
                        "stderr_log": game.stderr_logs.get(seat),
                    }
                )
            for fault in game.faults:
                rows["faults"].append(
                    {
                        "game_id": game.game_id,
                        "seat": fault.seat,
                        "bot": game.seating[fault.seat] if fault.seat is not None else None,
                        "kind": fault.kind.value,
                        "detail": fault.detail,
                        "at": fault.at,
                    }
                )
    return rows


def read_csv(folder: Path) -> dict[str, list[dict[str, str]]]:
    """Every ``<table>.csv`` of an export folder, as dicts by its header row."""
    found = {}
    for name in TABLES:
        with (folder / f"{name}.csv").open(newline="", encoding="utf-8") as source:
            found[name] = list(csv.DictReader(source))
    return found


def read_cell(text: str, like: Any) -> Any:
    """A CSV cell read back as the type of the value ``like`` it should hold: empty for
    None, true/false, integers and floats as Python writes them (a float exactly), JSON
    text for a game's details and a run's spec."""
    if like is None or isinstance(like, str):
        return None if text == "" else text
    if isinstance(like, bool):
        assert text in ("true", "false"), text
        return text == "true"
    if isinstance(like, int):
        return int(text)
    if isinstance(like, float):
        return float(text)
    return json.loads(text)


def test_the_database_has_what_the_export_must_carry(database: Path) -> None:
    """The fixture is what the round trips below rely on: faults of two kinds, games with
    two, stderr logs and seats without one, scores, enough replies for a 95th percentile
    below the longest reply, two runs."""
    rows = expected(database)
    assert [run["name"] for run in rows["runs"]] == ["league", "throws"]
    # Nim: 6 pairs and 4 triples, each in every rotation; then 8 games of rps.
    assert len(rows["games"]) == 12 + 12 + 8
    assert len(rows["seats"]) == 2 * 12 + 3 * 12 + 2 * 8
    assert {fault["kind"] for fault in rows["faults"]} == {"exit", "illegal"}
    assert max(Counter(fault["game_id"] for fault in rows["faults"]).values()) == 2
    assert {seat["stderr_log"] is None for seat in rows["seats"]} == {True, False}
    assert any(isinstance(seat["score"], float) for seat in rows["seats"])
    by_bot = {(b["run_id"], b["bot"]): b for b in rows["bots"]}
    assert by_bot[1, "cheater"]["faults_illegal"] == 15 == by_bot[1, "cheater"]["games"]
    # It never moves twice in its two games alone with the cheater.
    assert by_bot[1, "crasher"]["faults_exit"] == 13 == by_bot[1, "crasher"]["faults"]
    assert by_bot[1, "optimal"]["faults"] == 0 and by_bot[1, "optimal"]["replies"] > 20
    assert any(b["reply_p95"] < b["reply_max"] for b in rows["bots"])
    # Wall-time clocks: no CPU time measured.
    assert {(b["cpu_replies"], b["cpu_share"]) for b in rows["bots"]} == {(0, None)}


@pytest.fixture(scope="module")
def cpu_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run on a CPU-time clock, stored by hand: ``busy`` uses most of each reply's time,
    ``sleepy`` little of it and once passes the wall-clock cap, ``wall`` has its replies
    measured by the wall clock only."""
    path = tmp_path_factory.mktemp("cpu") / "arena.sqlite"
    bots = ("busy", "sleepy", "wall")
    spec = {"bots": [{"name": bot} for bot in bots], "clock": {"mode": "cpu", "wall_cap": 10.0}}
    measured = {0: [(0.25, 0.25), (0.5, 0.375)], 1: [(1.5, 0.125), (0.75, 0.0625)]}
    with Store(path) as store:
        run = store.open_run("cpu-key", "cpu", "nim", spec, 2)
        for index in range(2):
            events = [Event(0.0, "recv", 2, "take 1", elapsed=0.125)]
            events += [
                Event(1.0, "recv", seat, "take 1", elapsed=wall, cpu=cpu)
                for seat, pairs in measured.items()
                for wall, cpu in pairs
            ]
            faults = [Fault(FaultKind.WALL_CAP, "no reply within 30 s", seat=1)] if index else []
            record = GameRecord(
                ScheduledGame(index, index, bots),
                Outcome.win(0, 3, "took the last stone"),
                faults=faults,
                events=events,
            )
            store.save_game(run.run_id, record)
    return path


def test_cpu_figures_round_trip_in_both_formats(cpu_database: Path, tmp_path: Path) -> None:
    want = expected(cpu_database)["bots"]
    busy, sleepy, wall = want
    assert (busy["cpu_replies"], busy["cpu_max"]) == (4, 0.375)
    assert busy["cpu_share"] == 1.25 / 1.5
    assert (sleepy["faults_wall-cap"], sleepy["idle_mean"]) == (1, 1.03125)
    assert (wall["replies"], wall["cpu_replies"], wall["cpu_mean"]) == (2, 0, None)

    out = tmp_path / "arena.json"
    assert arena("export", str(cpu_database), "--format", "json", "-o", str(out)).returncode == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["bots"] == want
    for got, row in zip(document["bots"], want, strict=True):
        assert [type(v) for v in got.values()] == [type(v) for v in row.values()], got

    folder = tmp_path / "csv"
    assert arena("export", str(cpu_database), "--format", "csv", "-o", str(folder)).returncode == 0
    rows = read_csv(folder)["bots"]
    assert [
        {k: read_cell(got[k], v) for k, v in row.items()}
        for got, row in zip(rows, want, strict=True)
    ] == want


def test_json_round_trip_equals_the_store(database: Path, tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    result = arena("export", str(database), "--format", "json", "-o", str(out))
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout == (
        f"wrote {out}: 2 runs, 32 games, 76 seats, 28 faults, 6 bots, 0 ladder, 0 ratings\n"
    )
    document = json.loads(out.read_text(encoding="utf-8"))
    assert list(document) == list(TABLES)
    want = expected(database)
    for name in TABLES:
        assert document[name] == want[name], name
        # JSON keeps types: 1 and 1.0 compare equal in Python, but not as exported text.
        for got, row in zip(document[name], want[name], strict=True):
            assert list(got) == list(row), "the columns in order"
            assert [type(v) for v in got.values()] == [type(v) for v in row.values()], got

    to_stdout = arena("export", str(database), "--format", "json")
    assert to_stdout.returncode == 0, to_stdout.stderr
    assert json.loads(to_stdout.stdout) == document


def test_csv_round_trip_equals_the_store(database: Path, tmp_path: Path) -> None:
    out = tmp_path / "csv"
    result = arena("export", str(database), "--format", "csv", "-o", str(out))
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout == (
        f"wrote {out}: 2 runs, 32 games, 76 seats, 28 faults, 6 bots, 0 ladder, 0 ratings\n"
    )
    assert sorted(path.name for path in out.iterdir()) == sorted(f"{n}.csv" for n in TABLES)
    tables = read_csv(out)
    want = expected(database)
    for name in TABLES:
        assert len(tables[name]) == len(want[name]), name
        for got, row in zip(tables[name], want[name], strict=True):
            assert list(got) == list(row), "the header row: the columns in order"
            assert {k: read_cell(got[k], v) for k, v in row.items()} == row, (name, got)


def test_every_stored_row_is_exported(database: Path, tmp_path: Path) -> None:
    """Counted in SQL, past the store: no game, seat or fault is left out."""
    out = tmp_path / "arena.json"
    assert arena("export", str(database), "--format", "json", "-o", str(out)).returncode == 0
    document = json.loads(out.read_text())
    with sqlite3.connect(database) as raw:
        for table in ("runs", "games", "seats", "faults"):
            (count,) = raw.execute(f"SELECT count(*) FROM {table}").fetchone()
            assert len(document[table]) == count, table
        faults = raw.execute(
            "SELECT g.id, f.seat, f.kind, f.detail FROM faults f JOIN games g"
            " ON g.id = f.game_id ORDER BY g.run_id, g.idx, f.rowid"
        ).fetchall()
    exported = [(f["game_id"], f["seat"], f["kind"], f["detail"]) for f in document["faults"]]
    assert exported == [tuple(row) for row in faults]


def test_one_run_by_id_or_key(database: Path, tmp_path: Path) -> None:
    with Store(database) as store:
        key = store.run(2).key
    for ref in ("2", key):
        out = tmp_path / f"run-{ref[:8]}"
        result = arena("export", str(database), "--run", ref, "--format", "csv", "-o", str(out))
        assert result.returncode == 0, result.stderr
        tables = read_csv(out)
        want = expected(database, run_id=2)
        assert [int(row["id"]) for row in tables["runs"]] == [2]
        assert [row["bot"] for row in tables["bots"]] == ["random", "rock"]
        for name in TABLES:
            assert [
                {k: read_cell(got[k], v) for k, v in row.items()}
                for got, row in zip(tables[name], want[name], strict=True)
            ] == want[name]
        assert {int(seat["game_id"]) for seat in tables["seats"]} == {
            game["id"] for game in want["games"]
        }


def test_an_export_replaces_the_files_of_an_earlier_one(database: Path, tmp_path: Path) -> None:
    out = tmp_path / "csv"
    out.mkdir()
    (out / "games.csv").write_text("stale\n")
    (out / "notes.txt").write_text("mine\n")
    result = arena("export", str(database), "--format", "csv", "-o", str(out), "--run", "2")
    assert result.returncode == 0, result.stderr
    assert len(read_csv(out)["games"]) == 8
    assert (out / "notes.txt").read_text() == "mine\n", "other files are left alone"


def test_errors_are_one_line(database: Path, tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite"
    one_error_line(arena("export", str(missing), "--format", "json"), str(missing), "no such")
    assert not missing.exists(), "a missing database is not created"

    unknown = arena("export", str(database), "--run", "9", "--format", "json")
    one_error_line(unknown, 'no run "9"', str(database), "`arena runs` lists them")
    assert unknown.stdout == ""

    one_error_line(arena("export", str(database), "--format", "csv"), "--format csv", "-o DIR")

    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder\n")
    inside = a_file / "out.json"
    one_error_line(
        arena("export", str(database), "--format", "json", "-o", str(inside)),
        f"cannot write {inside}",
    )
    one_error_line(
        arena("export", str(database), "--format", "csv", "-o", str(a_file)),
        f"cannot write the export into {a_file}",
    )
    nowhere = tmp_path / "no" / "such" / "out.json"
    one_error_line(
        arena("export", str(database), "--format", "json", "-o", str(nowhere)),
        f"cannot write {nowhere}",
    )
    assert not (tmp_path / "no").exists()
    assert a_file.read_text() == "not a folder\n"


@pytest.mark.parametrize("command", ["standings", "games", "export"])
def test_an_unknown_run_points_at_arena_runs_which_lists_them(database: Path, command: str) -> None:
    """The error names `arena runs`, and `arena runs` does list the run ids and keys
    that --run takes."""
    extra = ["--format", "json"] if command == "export" else []
    one_error_line(
        arena(command, str(database), "--run", "nope", *extra), 'no run "nope"', "`arena runs`"
    )
    listing = arena("runs", str(database))
    assert listing.returncode == 0, listing.stderr
    with Store(database) as store:
        for run in store.runs():
            assert any(
                line.split()[0] == str(run.run_id) and line.split()[-1] == run.key
                for line in listing.stdout.splitlines()
            ), listing.stdout
