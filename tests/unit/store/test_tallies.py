"""A run's tally of results (``result_tallies``) is what its games say: after any games
stored in any order, void or not, with faults, scores, sandboxes, a game index stored twice
and bots disqualified, it holds each run's games counted afresh from their rows, and the
standings read from it are those read from every game."""

from __future__ import annotations

import sqlite3
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena_kernel.match.standings import needs_every_game, run_standings
from arena_kernel.model import Fault, FaultKind, GameRecord, Outcome, ScheduledGame
from arena_kernel.scoring.builtin_classes import builtin_scorer
from arena_kernel.store.outcomes import ResultReader, tally_text
from arena_kernel.store.runs import sandbox_counts
from arena_kernel.store.sqlite import Store

BOTS = ("ann", "bo", "cy")
ORDER_FREE = ("wins", "elo", "plackett-luce")


@st.composite
def played(draw: st.DrawFn) -> tuple[int, GameRecord]:
    """A game of run 1 or 2: 2 or 3 seats (a bot may sit twice), any ranks, maybe scores
    (a game's own points, which the tally leaves out), void, faults, a sandbox, and now and
    then a seat disqualified; few kinds of result, so that many games share one, stored
    in any order of their indexes."""
    seats = draw(st.sampled_from((2, 2, 2, 3)))
    seating = tuple(draw(st.sampled_from(BOTS)) for _ in range(seats))
    ranks = [draw(st.integers(1, 2)) for _ in range(seats)]
    scores = draw(st.none() | st.lists(st.floats(0, 9), min_size=seats, max_size=seats))
    rare = draw(st.integers(0, 9))
    out = frozenset({draw(st.integers(0, seats - 1))}) if rare == 0 else frozenset()
    faults = [
        Fault(draw(st.sampled_from(list(FaultKind))), "why", draw(st.integers(0, seats - 1)), 0.0)
        for _ in range(draw(st.integers(1, 2)) if rare in (1, 2) else 0)
    ]
    void = draw(st.integers(0, 4)) == 0
    outcome = Outcome(ranks, "r", scores=scores, void=void, disqualified=out)
    game = ScheduledGame(draw(st.integers(0, 40)), 7, seating)
    sandbox = draw(st.sampled_from((None, "none", "bwrap")))
    return draw(st.sampled_from((1, 2))), GameRecord(game, outcome, faults=faults, sandbox=sandbox)


def recounted(path: Path) -> Counter[tuple[object, ...]]:
    """Every run's games counted by (run, result without scores, void, sandbox), with the
    first index of each, straight from the ``games`` rows."""
    read = ResultReader()
    found: dict[tuple[object, ...], list[int]] = {}
    with sqlite3.connect(path) as db:
        for run, text, void, sandbox, idx in db.execute(
            "SELECT run_id, outcome, void, coalesce(sandbox, ''), idx FROM games"
        ):
            seating, ranks, _scores, out, faults = read(text)
            entry = found.setdefault(
                (run, tally_text(seating, ranks, out, faults), void, sandbox), [0, idx]
            )
            entry[0] += 1
            entry[1] = min(entry[1], idx)
    db.close()
    return Counter({(*key, first): games for key, (games, first) in found.items()})


def kept(path: Path) -> Counter[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT run_id, result, void, sandbox, first, games FROM result_tallies"
        ).fetchall()
    db.close()
    return Counter({tuple(row[:5]): row[5] for row in rows})


@settings(max_examples=80, deadline=None)
@given(st.lists(played(), min_size=10, max_size=40))
def test_the_tally_is_the_games_counted_and_gives_their_standings(
    games: list[tuple[int, GameRecord]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "arena.sqlite"
        with Store(path) as store:
            for key in ("one", "two"):
                store.open_run(key, key, "nim", {}, 50)
            for run_id, record in games:
                store.save_game(run_id, record)
            assert kept(path) == recounted(path)
            for run_id in (1, 2):
                tally, results = store.tally(run_id), store.results(run_id)
                assert tally is not None
                assert len(tally) == len(results)
                assert sandbox_counts(tally) == sandbox_counts(results)
                from_tally = run_standings(tally, ["ann", "bo"], ORDER_FREE, builtin_scorer)
                from_games = run_standings(results, ["ann", "bo"], ORDER_FREE, builtin_scorer)
                assert from_tally == from_games


def test_a_tally_that_misses_games_is_not_read(tmp_path: Path) -> None:
    """A game deleted by another tool leaves the tally counting more than the run holds:
    it is refused, and the standings come from the games."""
    path = tmp_path / "arena.sqlite"
    with Store(path) as store:
        run = store.open_run("k", "n", "nim", {}, 3)
        for index in range(3):
            store.save_game(
                run.run_id, GameRecord(ScheduledGame(index, 1, ("a", "b")), Outcome.win(0, 2, "r"))
            )
        assert store.tally(run.run_id) is not None
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("DELETE FROM games WHERE idx = 1")
    db.close()
    with Store(path) as store:
        assert store.tally(run.run_id) is None


def test_a_version_7_file_gets_the_tally_of_its_games(tmp_path: Path) -> None:
    """Version 8 adds the tally, counted from every stored game once."""
    path = tmp_path / "v7.sqlite"
    with Store(path) as store:
        run = store.open_run("k", "n", "nim", {}, 6)
        for index in range(6):
            outcome = Outcome.win(index % 2, 2, "r", void=index == 5)
            store.save_game(
                run.run_id, GameRecord(ScheduledGame(index, 1, ("a", "b")), outcome, sandbox="none")
            )
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE result_tallies")
        db.execute("PRAGMA user_version = 7")
    db.close()
    with Store(path) as store:
        tally = store.tally(1)
    assert tally is not None and len(tally) == 6
    assert kept(path) == recounted(path)
    assert [(game.index, game.ranks, game.void, count) for game, count in tally.counts] == [
        (0, (1, 2), False, 3),
        (1, (2, 1), False, 2),
        (5, (2, 1), True, 1),
    ]


@pytest.mark.parametrize(
    ("spec", "scorers", "every"),
    [
        ({}, ORDER_FREE, False),
        ({}, ("wins", "openskill"), True),
        ({"sprt": {"elo0": 0, "elo1": 10}}, ("wins",), True),
        ({"format": "swiss"}, ("wins",), True),
    ],
)
def test_only_order_free_standings_of_plain_runs_are_read_from_the_tally(
    spec: dict[str, object], scorers: tuple[str, ...], every: bool
) -> None:
    assert needs_every_game(spec, map(builtin_scorer, scorers)) is every
