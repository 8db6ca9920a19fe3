"""``arena report RECORDS``: the report of a file of game records, with no database beside
it: the same games under the same ids, the same standings and games list as the report of
the database, drawn in the real browser; a file that is not whole records is one line
naming its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from arena_cli import arena, one_error_line

from arena_kernel.report.game_list import read_game_list
from arena_kernel.report.replay_files import read_records
from arena_kernel.store import Store
from arena_kernel.testkit import load_replay

NIM = "arena_kernel.testing.games"


@pytest.fixture
def records(nim_run: Path, tmp_path: Path) -> Path:
    """The Nim run's games exported as records, in a folder of their own."""
    out = tmp_path / "elsewhere" / "nim.jsonl"
    out.parent.mkdir()
    done = arena("export", str(nim_run), "--format", "records", "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out


def section(page: str, heading: str) -> str:
    return page.split(f"<h2>{heading}</h2>")[1].split("</section>")[0]


def named(listed: dict) -> list[list]:
    """A games list's rows with each bot's name in place of its index (the order of the
    bots is the match file's in a database, the schedule's in records)."""
    seats = listed["columns"].index("seats")
    return [
        [*row[:seats], [listed["bots"][b] for b in row[seats]], *row[seats + 1 :]]
        for row in listed["games"]
    ]


def wins_table(page: str) -> str:
    return section(page, "Standings").split("<tbody>")[1].split("</tbody>")[0]


def test_the_report_of_records_shows_the_databases_games_under_their_ids(
    nim_run: Path, records: Path, tmp_path: Path
) -> None:
    from_db = tmp_path / "from-db"
    assert arena("report", str(nim_run), "-o", str(from_db)).returncode == 0
    moved = nim_run.rename(tmp_path / "gone.sqlite")  # nothing reads the database
    from_records = tmp_path / "from-records"
    # Nim is the game of a plugin module the match file named: records do not name it.
    done = arena("report", str(records), "-o", str(from_records), "-p", NIM)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"wrote {from_records / 'index.html'}"

    with Store(moved) as store:
        ids = sorted(g.game_id for g in store.games(1))
    kept, read = read_records(from_db), read_records(from_records)
    assert sorted(read) == ids
    for game_id in ids:
        # Everything but the stderr logs, which stay with the database's run.
        assert read[game_id]["logs"] == {}
        assert {**read[game_id], "logs": None} == {**kept[game_id], "logs": None}
    assert named(read_game_list(from_records, 1)) == named(read_game_list(from_db, 1))

    page = (from_records / "index.html").read_text()
    db_page = (from_db / "index.html").read_text()
    assert section(page, "Cross-table") == section(db_page, "Cross-table")
    # The Wins table (the records' run ranks by it: the scorers stay in the database).
    assert wins_table(page) == wins_table(db_page)
    assert "<dd>nim (pile = 9, spread = 0)</dd>" in page  # the run's options
    assert "<dd>-, 2 seats, 6 games</dd>" in page  # what records say of the format
    assert f"<dd>{records}</dd>" in page  # where the games came from
    assert section(page, "Bots: faults and reply times") == section(
        db_page, "Bots: faults and reply times"
    )


def test_a_records_reports_replay_is_drawn_in_the_browser(
    report_browser, nim_run: Path, records: Path, tmp_path: Path
) -> None:
    with Store(nim_run) as store:
        replays = [load_replay(store, g.game_id) for g in store.games(1)]
    nim_run.unlink()
    site = tmp_path / "site"
    assert arena("report", str(records), "-o", str(site), "-p", NIM).returncode == 0
    clean = next(r for r in replays if not r.faults)
    report_browser.assert_replay_shows_winner(site, clean)
    faulted = next(r for r in replays if r.faults)
    report_browser.assert_replay_shows_winner(site, faulted)


def lines_of(records: Path) -> list[dict]:
    return [json.loads(line) for line in records.read_text().splitlines()]


def write_lines(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def spoilt(records: list[dict], line: int, change) -> list[dict]:
    copy = json.loads(json.dumps(records))
    change(copy[line - 1])
    return copy


@pytest.mark.parametrize(
    ("change", "line", "says"),
    [
        (lambda r: r["result"].pop("ranks"), 2, "result.ranks is missing"),
        (lambda r: r["events"][1].update(seat="0"), 3, 'events[1].seat is "0"'),
        (lambda r: r.update(seed=True), 1, "seed is true"),
        (lambda r: r["result"].update(ranks=[1]), 2, "2 seats but ranks [1]"),
        (lambda r: r["result"].update(disqualified=[5]), 2, "not one of the 2"),
        (
            lambda r: r["faults"].append({"kind": "nap", "detail": "", "seat": 0, "at": 0}),
            1,
            "'nap' is not a valid FaultKind",
        ),
        (lambda r: r.update(format="pgn"), 4, "not an arena game record"),
        (lambda r: r.update(id=1), 2, "game 1 is in the file twice"),
        (lambda r: r["run"].update(id=2), 3, "run 2 has the key of run 1"),
    ],
)
def test_records_that_are_not_whole_are_one_line_naming_the_line(
    records: Path, tmp_path: Path, change, line: int, says: str
) -> None:
    bad = write_lines(tmp_path / "bad.jsonl", spoilt(lines_of(records), line, change))
    done = arena("report", str(bad), "-o", str(tmp_path / "site"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"arena: error: {bad}, line {line}: "), done.stderr
    assert says in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "site").exists(), "nothing written for a file it cannot read"


def test_a_games_index_twice_in_a_run_is_one_line_naming_the_line(
    records: Path, tmp_path: Path
) -> None:
    lines = lines_of(records)
    lines[2]["index"] = lines[0]["index"]
    bad = write_lines(tmp_path / "bad.jsonl", lines)
    one_error_line(
        arena("report", str(bad), "-o", str(tmp_path / "site")),
        f"{bad}, line 3: run 1 has a game #{lines[0]['index']} already",
    )


def test_an_empty_file_a_missing_run_and_a_file_of_no_text_are_one_line(
    records: Path, tmp_path: Path
) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00junk")
    for args, says in [
        ((str(empty),), f"{empty}: no game records in it"),
        ((str(binary),), f"{binary}: not a file of game records"),
        ((str(records), "--run", "7"), f'no run "7" in {records}'),
    ]:
        done = arena("report", *args, "-o", str(tmp_path / "site"))
        assert done.returncode == 2
        assert done.stderr.startswith(f"arena: error: {says}"), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
