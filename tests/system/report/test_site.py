"""``arena report`` on real runs of the kernel's test games: the folder it writes, what a run
page, a games list and a game's record say, hostile bot text kept as text, renderer
failures that cost a game its pictures only, and one-line errors for a bad database, run or
folder."""

from __future__ import annotations

import re

import pytest
from arena_cli import arena

from arena_kernel.errors import ArenaError
from arena_kernel.plugin import Register, Renderer, Replay, Step, hookimpl
from arena_kernel.report.game_list import read_game_list
from arena_kernel.report.replay_files import read_records
from arena_kernel.report.transcript import transcript_steps
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store
from arena_kernel.testkit import load_replay, write_report


def test_the_site_has_an_index_a_page_per_run_a_game_page_assets_and_data(
    nim_run, tmp_path, hostile_text
):
    index = write_report(nim_run, tmp_path / "site")
    site = index.parent
    assert index == site / "index.html"
    with Store(nim_run) as store:
        games = store.games(1)
    assert len(games) == 6  # 3 bots, each pairing in both seatings
    files = sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())
    assert files == [
        "assets/draw/nim.css",
        "assets/draw/nim.js",
        "assets/report.css",
        "assets/report.js",
        "assets/run.js",
        "assets/viewer.js",
        "data/games-1-first.js",
        "data/games-1.js",
        "data/replays-0.js",
        "game.html",
        "index.html",
        "runs/1.html",
    ]
    # Each file was written whole, then moved into place: nothing half-written is left.
    assert not list(site.rglob(".*"))
    assert (site / "assets" / "draw" / "nim.js").read_text().startswith("//")
    records = read_records(site)
    assert sorted(records) == sorted(g.game_id for g in games)
    # The cheat's stderr logs are in its games' records, byte for byte.
    logs = [text for record in records.values() for _source, text in record["logs"].values()]
    assert len(logs) == 4 and all(text.startswith(hostile_text) for text in logs)
    listed = read_game_list(site, 1)
    assert sorted(row[0] for row in listed["games"]) == sorted(records)
    assert [row[1] for row in listed["games"]] == list(range(6)), "in schedule order"


def test_the_run_page_names_every_bot_and_scorer_and_which_ranks(nim_run, tmp_path):
    page = write_report(nim_run, tmp_path / "site").read_text()
    for bot in ("optimal", "random", "cheat"):
        assert f"<td>{bot}</td>" in page
    headings = re.findall(r'<h3 id="scorer-(\w+)">([^<]*)(<span class="badge">[^<]*</span>)?', page)
    assert [(name, bool(badge)) for name, _title, badge in headings] == [
        ("wins", False),
        ("elo", True),
    ]
    # The cheat lost all four of its games to faults, and the table of faults says so.
    faults = page.split("<h2>Games lost to faults</h2>")[1].split("</section>")[0]
    assert re.search(r"<td>cheat</td><td class=num>4</td>", faults), faults
    bots = page.split("<h2>Bots: faults and reply times</h2>")[1].split("</section>")[0]
    assert "<td>illegal 4</td>" in bots
    # Each bot has one colour, in the error-bar charts and in the plot over the games.
    dots = re.findall(r'fill="(#\w+)"><title>(\w+): ', page)
    legend = {bot: c for c, bot in re.findall(r'background:(#\w+)"></span>(\w+)<', page)}
    assert len(dots) == 6 and len(legend) == 3
    assert all(legend[bot] == colour for colour, bot in dots), (dots, legend)
    # Cross-table: the cheat lost every game, against each bot twice.
    assert 'title="cheat against optimal: 0 won, 0 drawn, 2 lost">0-0-2<' in page
    assert 'title="optimal against cheat: 2 won, 0 drawn, 0 lost">2-0-0<' in page


def test_bot_text_reaches_the_pages_as_data_only(nim_run, tmp_path, hostile_text):
    site = write_report(nim_run, tmp_path / "site").parent
    pages = [*site.glob("runs/*.html"), site / "index.html", site / "game.html"]
    for path in pages:
        text = path.read_text()
        assert "alert" not in text and "<img src=x" not in text, path
        assert text.count("</script>") == text.count("<script"), path
    # In the data files every text is a JSON string in a script: ASCII, quotes escaped.
    for path in (site / "data").iterdir():
        text = path.read_text()
        assert text.isascii() and "<script>alert" not in text, path
    cheated = [r for r in read_records(site).values() if any("take 9" in e[3] for e in r["events"])]
    assert len(cheated) == 4
    for record in cheated:
        assert any(e[3] == f"take 9 {hostile_text}" for e in record["events"])
        assert any(hostile_text in detail for _at, _seat, _kind, detail in record["faults"])


def test_a_games_record_says_who_won_and_lists_the_faults_in_order(nim_run, tmp_path):
    site = write_report(nim_run, tmp_path / "site").parent
    records = read_records(site)
    with Store(nim_run) as store:
        for game in store.games(1):
            replay = load_replay(store, game.game_id)
            record = records[game.game_id]
            (winner,) = replay.winners()
            assert record["result"].startswith(f"{winner} won: ")
            assert [kind for _at, _seat, kind, _detail in record["faults"]] == [
                str(f.kind) for f in game.faults
            ]
            assert record["problem"] is None and record["drawer"] == "nim"
            assert len(record["events"]) == len(replay.events)


class Exploding(Renderer):
    name = "rps"
    summary = "raises on every game"

    def steps(self, replay: Replay) -> list[Step]:
        raise RuntimeError(f"cannot draw game {replay.game_id}")


class NotJson(Renderer):
    name = "rps"
    summary = "a picture that is not JSON"

    def steps(self, replay: Replay) -> list[Step]:
        return [Step("all", (0, len(replay.events)), "", {"score": float("nan")})]


class Gapped(Renderer):
    name = "rps"
    summary = "steps that skip an event"

    def steps(self, replay: Replay) -> list[Step]:
        return [Step("all", (1, len(replay.events)))]


@pytest.mark.parametrize(
    ("broken", "problem"),
    [
        (Exploding, "RuntimeError: cannot draw game"),
        (NotJson, "its picture is not JSON"),
        (Gapped, "covers events [1,"),
    ],
)
def test_a_broken_renderer_costs_its_games_their_pictures_not_the_report(
    write_match, tmp_path, broken, problem
):
    """Rock-paper-scissors has no renderer: a plugin given to the report draws it, badly.
    Every game page then says why and shows the transcript, which ends with the result."""

    class Plugin:
        @staticmethod
        @hookimpl
        def arena_register_renderers(register: Register) -> None:
            register(broken)

    path = write_match(
        """
        game = "rps"
        seed = 3
        [[bots]]
        name = "a"
        builtin = "random"
        [[bots]]
        name = "b"
        builtin = "rock"
        """
    )
    summary = run_match(path)
    assert not summary.errors, summary.errors
    site = write_report(summary.run.database, tmp_path / "rps", plugins=[Plugin]).parent
    records = read_records(site)
    with Store(summary.run.database) as store:
        for game in store.games(summary.run.run_id):
            record = records[game.game_id]
            assert record["problem"].startswith("the rps renderer failed: ")
            assert problem in record["problem"]
            replay = load_replay(store, game.game_id)
            assert record["steps"][-1]["caption"] == transcript_steps(replay)[-1].caption
    # Without the plugin the same games are transcripts with nothing to excuse.
    plain = read_records(write_report(summary.run.database, tmp_path / "plain").parent)
    assert plain and all(record["problem"] is None for record in plain.values())


def test_several_runs_get_an_index_of_runs(write_match, tmp_path):
    database = tmp_path / "two.sqlite"
    for name, pile in (("first", 5), ("second", 6)):
        path = write_match(
            f"""
            database = "{database}"
            game = "nim"
            name = "{name}"
            [game_options]
            pile = {pile}
            [[bots]]
            name = "a"
            builtin = "optimal"
            [[bots]]
            name = "b"
            builtin = "random"
            """,
            name=f"{name}.toml",
        )
        assert not run_match(path).errors
    index = write_report(database, tmp_path / "site")
    text = index.read_text()
    assert re.findall(r'href="runs/(\d)\.html">(\w+)<', text) == [("1", "first"), ("2", "second")]
    assert {p.name for p in (index.parent / "runs").iterdir()} == {"1.html", "2.html"}
    only = write_report(database, tmp_path / "one", run="2")
    assert "run 2: second" in only.read_text()
    assert not (only.parent / "runs" / "1.html").exists()


def test_bad_inputs_are_one_line_errors(nim_run, tmp_path):
    with pytest.raises(ArenaError, match=r"no such database file"):
        write_report(tmp_path / "missing.sqlite", tmp_path / "out")
    with pytest.raises(ArenaError, match=r"no run"):
        write_report(nim_run, tmp_path / "out", run="99")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ArenaError, match=r"cannot write the report in"):
        write_report(nim_run, blocker / "site")
    result = arena("report", str(nim_run), "--run", "99", "-o", str(tmp_path / "o"))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_the_command_writes_the_site_and_says_where(nim_run, tmp_path):
    result = arena("report", str(nim_run), "-o", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"wrote {tmp_path / 'site' / 'index.html'}"


def bot_rows(page: str) -> tuple[list[str], dict[str, list[str]]]:
    """The run page's table of bots: its column names, and each bot's cells by name."""
    section = page.split("<h2>Bots: faults and reply times</h2>")[1].split("</section>")[0]
    head, body = section.split("<tbody>")
    rows = [
        re.findall(r"<td[^>]*>([^<]*)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body)
    ]
    return re.findall(r"<th[^>]*>([^<]*)</th>", head), {row[0]: row for row in rows}


def test_cpu_times_are_shown_for_the_runs_that_measured_them(cpu_run, tmp_path):
    site = write_report(cpu_run, tmp_path / "site").parent
    page = (site / "runs" / "1.html").read_text()
    assert (
        "<dt>clocks (s)</dt><dd>CPU time: game none, grace 0.1, kill 0.5, reply 1, startup 10;"
        " wall cap 10.0 times the limit</dd>"
    ) in page
    columns, rows = bot_rows(page)
    cpu = columns.index("CPU mean ms")
    assert columns[cpu - 1 : cpu + 6] == [
        "max ms",
        "CPU mean ms",
        "CPU p95 ms",
        "CPU max ms",
        "CPU %",
        "idle mean ms",
        "timeouts",
    ]
    # 0.150 s of 0.153 s on the CPU: 98 %, 3 ms idle; 0.05 of 0.2: 25 %, 150 ms idle.
    assert rows["busy"][cpu : cpu + 5] == ["150", "150", "150", "98", "3"]
    assert rows["sleepy"][cpu : cpu + 5] == ["50", "50", "50", "25", "150"]
    # The wall-cap fault: counted, in red, and a kind the games can be filtered by.
    assert rows["sleepy"][columns.index("by kind")] == "wall-cap 1"
    listed = read_game_list(site, 1)
    kinds = {row[0]: [listed["kinds"][k] for k in row[5]] for row in listed["games"]}
    assert kinds == {1: [], 2: ["wall-cap"]}
    capped = read_records(site)[2]
    assert capped["faults"] == [[10.5, 1, "wall-cap", "no reply within 10 s by the wall clock"]]
    # Each reply's CPU time beside its time, for the viewer.
    replies = {tuple(e[3:]) for e in capped["events"] if e[1] == "recv"}
    assert ("take 1", 0.153, 0.15) in replies and ("take 2", 0.2, 0.05) in replies


def test_runs_stored_before_cpu_times_measured_wall_time(cpu_run, nim_run, tmp_path):
    site = write_report(cpu_run, tmp_path / "site").parent
    old = (site / "runs" / "2.html").read_text()
    assert "<dd>wall time: game none, grace 0.1, kill 0.5, reply 1, startup 10</dd>" in old
    columns, _rows = bot_rows(old)
    assert not [column for column in columns if "CPU" in column or "idle" in column]
    assert next(e[3:] for e in read_records(site)[3]["events"] if e[1] == "recv") == [
        "take 1",
        0.153,
        None,
    ]
    played = write_report(nim_run, tmp_path / "nim").read_text()
    assert "<dt>clocks (s)</dt><dd>wall time: game " in played
    assert "CPU mean ms" not in played
