"""The progress report of ``arena run`` on stderr: games stored of the schedule, games per
second, faults so far and the leader by the run's ranking scorer.

Where stderr is no terminal (a CI log, a pipe) it is the run's header (its sandbox) and
one line at the end, plus one a minute while a long run plays; on a terminal, one line
redrawn in place; ``--quiet``, nothing (test_sandbox_record.py: but a warning). The
observer is driven here with a clock of the test's own, so that what it prints is
compared exactly, never against the time a machine takes."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from arena_cli import arena, untimed
from paths import REPO

from arena_kernel.cli.progress import LEADER_EVERY, ProgressReport, Ranking
from arena_kernel.executors.crowding import usable_cores
from arena_kernel.model import (
    Fault,
    FaultKind,
    GameRecord,
    Outcome,
    RunInfo,
    ScheduledGame,
    Standings,
)
from arena_kernel.runner.api import prepare
from arena_kernel.scoring.base import GameResult
from arena_kernel.scoring.played import PlayedGame
from arena_kernel.scoring.wins import WinsScorer
from arena_kernel.store.sqlite import Store

CRASHER = [
    sys.executable,
    "-m",
    "arena_kernel.testing.scripted",
    json.dumps([{"reply": "take 1"}, {"exit": 3}]),
    "--only",
    "move",
]
"""A Nim bot that crashes on its second move: one ``exit`` fault in each of its games."""


class Clock:
    """The observer's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Stderr(io.StringIO):
    """stderr, a terminal or not."""

    def __init__(self, terminal: bool) -> None:
        super().__init__()
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


def observer(
    terminal: bool, ranking: Ranking | None = None
) -> tuple[ProgressReport, Stderr, Clock]:
    stream, clock = Stderr(terminal), Clock()
    report = ProgressReport("league", ranking=ranking, stream=stream, clock=clock)
    return report, stream, clock


def run_info(total: int) -> RunInfo:
    return RunInfo(1, "key", "league", "nim", total, 0, "/nonexistent/league.sqlite")


def record(index: int, ranks: tuple[int, int], faults: int = 0) -> GameRecord:
    """Game ``index`` between a and b (a in seat 0) with ``faults`` faults of b's."""
    return GameRecord(
        ScheduledGame(index, index, ("a", "b")),
        Outcome(list(ranks), "over"),
        faults=[Fault(FaultKind.EXIT, "exited", 1) for _ in range(faults)],
    )


WINS = Ranking("wins", 0, WinsScorer, ("a", "b"))


def play(
    report: ProgressReport, clock: Clock, games: list[tuple[float, GameRecord]], total: int
) -> RunInfo:
    """Start a run of ``total`` games and end ``games`` (seconds after the start, record)."""
    run = run_info(total)
    start = clock.now
    report.arena_run_start(run)
    for at, game in games:
        clock.now = start + at
        report.arena_game_end(run, game.game, game)
    return run


def test_without_a_terminal_it_is_one_line_at_the_end() -> None:
    report, stream, clock = observer(terminal=False, ranking=WINS)
    games = [(1.0, record(0, (2, 1))), (2.0, record(1, (1, 2), faults=1))]
    games += [(3.0, record(2, (2, 1), faults=2)), (4.0, record(3, (2, 1)))]
    run = play(report, clock, games, total=4)
    assert stream.getvalue() == "", "nothing while a short run plays"
    report.arena_run_end(run, [Standings("Wins", ("bot",), [("b",), ("a",)])])
    assert stream.getvalue() == (
        "league: 4/4 games in 4.0 s (1.00 games/s), 3 faults, leader b (wins)\n"
    )
    report.finish()  # the CLI calls it again, after the run: nothing more
    assert stream.getvalue().count("\n") == 1


def test_without_a_terminal_a_long_run_logs_a_line_a_minute() -> None:
    report, stream, clock = observer(terminal=False, ranking=WINS)
    games = [(30.0, record(0, (1, 2))), (61.0, record(1, (1, 2), faults=1))]
    games += [(90.0, record(2, (2, 1))), (119.0, record(3, (2, 1)))]
    games += [(125.0, record(4, (2, 1))), (180.0, record(5, (2, 1)))]
    play(report, clock, games, total=10)
    assert stream.getvalue().splitlines() == [
        # 2 games in 61 s: 8 left take 244 s.
        "league: 2/10 games, 0.03 games/s, eta 4:04, 1 fault, leader a (wins)",
        # 5 games in 125 s (the line of 61 s was 64 s before); b leads 3 to 2.
        "league: 5/10 games, 0.04 games/s, eta 2:05, 1 fault, leader b (wins)",
    ]
    report.finish()  # stopped here (Ctrl-C): the last line says how far it got
    assert stream.getvalue().splitlines()[-1] == (
        "league: 6/10 games in 3:00 (0.03 games/s), 1 fault, leader b (wins)"
    )


def test_on_a_terminal_one_line_is_redrawn_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    report, stream, clock = observer(terminal=True, ranking=WINS)
    # Redrawn at most every 0.2 s: not for the games at 0.1 s and 1.15 s.
    games = [(0.1, record(0, (1, 2))), (1.0, record(1, (1, 2), faults=1))]
    games += [(1.15, record(2, (2, 1))), (2.0, record(3, (2, 1)))]
    run = play(report, clock, games, total=4)
    report.arena_run_end(run, [])  # no standings: the leader of the last redraw stays
    text = stream.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1, "one line, ended at the end"
    assert text.split("\r\x1b[K") == [
        "",
        "league: [--------------------] 0/4 games, 0 faults",
        "league: [##########----------] 2/4 games, 2.00 games/s, eta 1.0 s, 1 fault, "
        "leader a (wins)",
        "league: [####################] 4/4 games, 2.00 games/s, 1 fault, leader a (wins)",
        "league: [####################] 4/4 games in 2.0 s (2.00 games/s), 1 fault, "
        "leader a (wins)\n",
    ]


def test_on_a_narrow_terminal_the_bar_goes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line that wraps cannot be redrawn: without the bar if that fits, else cut."""
    report, stream, clock = observer(terminal=True, ranking=WINS)
    monkeypatch.setenv("COLUMNS", "75")
    play(report, clock, [(1.0, record(0, (1, 2)))], total=4)
    monkeypatch.setenv("COLUMNS", "30")
    report.finish()
    assert stream.getvalue().split("\r\x1b[K")[1:] == [
        "league: [--------------------] 0/4 games, 0 faults",
        "league: 1/4 games, 1.00 games/s, eta 3.0 s, 0 faults, leader a (wins)",
        "league: 1/4 games in 1.0 s (1\n",  # 29 characters
    ]


def test_the_leader_is_the_ranking_scorers(tmp_path: Path) -> None:
    """``ranking = "elo"``: the leader is the first of the Elo table the run ends with,
    whatever the first scorer's table says."""
    match = tmp_path / "nim.toml"
    text = (REPO / "examples" / "nim.toml").read_text()
    match.write_text(text.replace("rounds = 5", 'scorers = ["wins", "elo"]\nranking = "elo"'))
    prepared = prepare(match)
    ranking = Ranking.of(prepared.spec, prepared.registries)
    assert ranking is not None
    assert (ranking.name, ranking.position) == ("elo", 1)
    assert ranking.bots == ("optimal", "random", "random-2")
    assert ranking.scorer().name == "elo"

    report, stream, clock = observer(terminal=False, ranking=ranking)
    run = play(report, clock, [(1.0, record(0, (1, 2)))], total=1)
    wins = Standings("Wins", ("bot",), [("random",), ("optimal",)])
    elo = Standings("Elo", ("bot",), [("random-2",), ("random",)])
    report.arena_run_end(run, [wins, elo])
    assert stream.getvalue().endswith(", leader random-2 (elo)\n")


def test_no_leader_before_a_game_that_counts() -> None:
    """A void game ranks nobody: no leader until a game counts."""
    report, stream, clock = observer(terminal=False, ranking=WINS)
    void = GameRecord(ScheduledGame(0, 0, ("a", "b")), Outcome([1, 1], "not played", void=True))
    play(report, clock, [(61.0, void), (122.0, record(1, (2, 1)))], total=3)
    assert stream.getvalue().splitlines() == [
        "league: 1/3 games, 0.02 games/s, eta 2:02, 0 faults",
        "league: 2/3 games, 0.02 games/s, eta 1:01, 0 faults, leader b (wins)",
    ]


def test_the_leader_is_computed_again_at_most_once_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rating over many games takes time on the loop that plays them: the line keeps
    the last leader for ``LEADER_EVERY`` seconds, then names the current one."""
    monkeypatch.setenv("COLUMNS", "200")
    calls: list[int] = []

    class Counting(WinsScorer):
        def standings(self, games: Sequence[GameResult], bots: Sequence[str]) -> Standings:
            calls.append(len(games))
            return super().standings(games, bots)

    ranking = Ranking("wins", 0, Counting, ("a", "b"))
    report, stream, clock = observer(terminal=True, ranking=ranking)
    # A game every 0.3 s, each one redrawn; a wins the first two, b every other.
    games = [(0.3 * (i + 1), record(i, (1, 2) if i < 2 else (2, 1))) for i in range(10)]
    play(report, clock, games, total=10)
    assert LEADER_EVERY == 1.0
    assert calls == [1, 5, 9], "at 0.3 s (1 game), 1.5 s (5 games), 2.7 s (9 games)"
    lines = stream.getvalue().split("\r\x1b[K")[2:]  # one per game
    # b leads from the fourth game on (3 wins to 2), but is named from the fifth.
    assert [line.rsplit(" leader ", 1)[1] for line in lines] == ["a (wins)"] * 4 + ["b (wins)"] * 6
    report.finish()
    assert calls == [1, 5, 9, 10], "the last line's leader is computed whenever it is due"
    assert stream.getvalue().endswith(
        "10/10 games in 3.0 s (3.33 games/s), 0 faults, leader b (wins)\n"
    )


def test_a_real_run_without_a_terminal_is_one_line_and_warns_of_nothing(tmp_path: Path) -> None:
    match = tmp_path / "nim.toml"
    text = (REPO / "examples" / "nim.toml").read_text()
    text = text.replace("rounds = 5", "rounds = 1") + '[sandbox]\nmode = "none"\n'
    match.write_text('name = "progress"\n' + text)
    # Deprecation warnings are shown (Python hides them outside __main__ by default).
    result = arena("run", str(match), cwd=tmp_path, env={"PYTHONWARNINGS": "default"})
    assert result.returncode == 0, result.stderr
    assert [untimed(line) for line in result.stderr.splitlines()] == [
        'sandbox: none (bots run with your rights, as [sandbox] mode = "none" asks)',
        "progress: 6/6 games in T, 0 faults, leader optimal (wins)",
    ], result.stderr

    (tmp_path / "nim.sqlite").unlink()  # so that the quiet run plays its games too
    quiet = arena("run", "--quiet", str(match), cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    assert "6 games played now" in quiet.stdout


def test_a_resumed_run_counts_the_games_and_faults_stored_before(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    """Two games deleted as if interrupted: the second run plays four, and its line counts
    the six, and the faults of all six (the crasher's four), as the summary does."""
    match = write_match(
        f"""
        name = "resumed"
        game = "nim"
        concurrency = 2
        [sandbox]
        mode = "none"
        [[bots]]
        name = "optimal"
        builtin = "optimal"
        inproc = true
        [[bots]]
        name = "crasher"
        cmd = {json.dumps(CRASHER)}
        [[bots]]
        name = "random"
        builtin = "random"
        inproc = true
        """
    )
    first = arena("run", str(match), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    line = "resumed: 6/6 games in T, 4 faults, leader optimal (wins)"
    assert [untimed(x) for x in first.stderr.splitlines()][1:] == [line]
    with sqlite3.connect(tmp_path / "results.sqlite") as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        raw.execute("DELETE FROM games WHERE idx >= 4")
    again = arena("run", str(match), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "2 games played now, 4 already stored" in again.stdout
    assert [untimed(x) for x in again.stderr.splitlines()][1:] == [line]

    nothing = arena("run", str(match), cwd=tmp_path)  # no bot started: no sandbox header
    assert nothing.stderr.splitlines() == [
        "resumed: 6/6 games, none played now, 4 faults, leader optimal (wins)"
    ]


def test_every_n_games_every_scorers_table_is_printed_above_the_line() -> None:
    """``--standings-every 2``: after the 2nd and the 4th game, the tables of the games
    so far; on a terminal the line is cleared first and drawn again below them."""
    stream, clock = Stderr(terminal=True), Clock()
    report = ProgressReport(
        "league",
        standings_every=2,
        scorers=[("wins", WinsScorer)],
        bots=("a", "b"),
        stream=stream,
        clock=clock,
    )
    games = [(1.0, record(0, (2, 1))), (2.0, record(1, (2, 1)))]
    games += [(3.0, record(2, (1, 2))), (4.0, record(3, (2, 1)))]
    play(report, clock, games, total=5)
    out = stream.getvalue()
    assert out.count("league: standings after") == 2
    second = out.split("league: standings after 4 games\n")[1]
    rows = [line.split() for line in second.splitlines()[4:6]]
    assert [row[:3] for row in rows] == [["b", "4", "3"], ["a", "4", "1"]]  # bot games wins
    first = out.split("league: standings after 2 games\n")[1].split("league: standings")[0]
    assert "\r\x1b[K" in first, "the progress line is drawn again below the tables"
    assert out.index("after 2 games") < out.index("after 4 games")


def test_standings_every_n_games_with_quiet_prints_the_tables_alone() -> None:
    stream, clock = Stderr(terminal=False), Clock()
    report = ProgressReport(
        "league", bar=False, standings_every=1, scorers=[("wins", WinsScorer)], bots=("a", "b")
    )
    report.stream = stream
    run = play(report, clock, [(1.0, record(0, (1, 2)))], total=1)
    report.arena_run_end(run, [])
    report.finish()
    out = stream.getvalue()
    assert out.startswith("league: standings after 1 games\n\nWins\n")
    assert "games/s" not in out, "no progress line with --quiet"


def test_arena_run_standings_every(tmp_path: Path) -> None:
    match = tmp_path / "nim.toml"
    match.write_text((REPO / "examples" / "nim.toml").read_text())
    done = arena("run", "-q", "--standings-every", "5", str(match), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    counts = [line for line in done.stderr.splitlines() if "standings after" in line]
    assert [line.split("after ")[1] for line in counts] == [f"{n} games" for n in range(5, 31, 5)]


def crowded_nim(folder: Path, concurrency: int, mode: str) -> Path:
    text = (REPO / "examples" / "nim.toml").read_text().replace("rounds = 5", "rounds = 2")
    match = folder / "nim.toml"
    match.write_text(
        f'concurrency = {concurrency}\n{text}\n[sandbox]\nmode = "none"\n[clock]\nmode = "{mode}"\n'
    )
    return match


def test_arena_run_warns_of_a_crowded_wall_clock_and_not_of_a_cpu_clock(tmp_path: Path) -> None:
    cores = usable_cores()
    if cores + 1 > 12:
        pytest.skip("the run has 12 games: too few to crowd this machine")
    wall = arena("run", "-q", str(crowded_nim(tmp_path, cores + 1, "wall")), cwd=tmp_path)
    assert wall.returncode == 0, wall.stderr
    warning = f"arena: warning: wall-clock limits with {cores + 1} games at once on {cores} core"
    assert wall.stderr.splitlines()[0].startswith(warning), wall.stderr

    (tmp_path / "nim.sqlite").unlink()
    cpu = arena("run", "-q", str(crowded_nim(tmp_path, cores + 1, "cpu")), cwd=tmp_path)
    assert cpu.returncode == 0 and cpu.stderr == "", cpu.stderr
    # Each reply of the cpu run has both its times in the replay.
    replay = arena("replay", str(tmp_path / "nim.sqlite"), "1", cwd=tmp_path)
    replies = [line for line in replay.stdout.splitlines() if " ms" in line]
    assert replies and all(re.search(r"\(\d+\.\d ms, CPU \d+\.\d ms\)", r) for r in replies)


def test_a_resumed_run_reads_its_stored_games_once_a_game_was_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stored faults count at once; the stored games (for the leader) are read only
    after the next game was played, so that a resumed run starts it first, and the game
    stored since is counted once."""
    monkeypatch.setenv("COLUMNS", "200")
    database = tmp_path / "league.sqlite"
    with Store(database) as store:
        run = store.open_run("key", "league", "nim", {}, 6)
        for index in range(3):
            store.save_game(run.run_id, record(index, (2, 1), faults=1))
    reads: list[int] = []
    lean = Store.played

    def played(store: Store, run_id: int) -> list[PlayedGame]:
        reads.append(run_id)
        return lean(store, run_id)

    monkeypatch.setattr(Store, "played", played)
    report, stream, clock = observer(terminal=True, ranking=WINS)
    resumed = run.replace(done_games=3, database=str(database))
    report.arena_run_start(resumed)
    assert reads == []
    assert stream.getvalue().endswith("3/6 games, 3 faults")
    game = record(3, (1, 2))
    with Store(database) as store:
        store.save_game(run.run_id, game)  # as the runner does before it tells observers
    clock.now += 1.5
    report.arena_game_end(resumed, game.game, game)
    assert reads == [run.run_id]
    assert stream.getvalue().endswith(
        "4/6 games, 0.67 games/s, eta 3.0 s, 3 faults, leader b (wins)"
    )
    assert sorted(result.index for result in report.results) == [0, 1, 2, 3]
