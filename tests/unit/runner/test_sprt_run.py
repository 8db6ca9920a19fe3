"""A run with ``[sprt]``: its games in pairs (one seed, both colours), stopped as soon as
the test decides, the test's table in the summary, the standings and the report; the
pairs in play at the decision stored apart from it; a decided run played again plays
nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted_pairs import sprt_in_play

from arena_kernel.errors import MatchFileError
from arena_kernel.runner.api import prepare, run_match
from arena_kernel.store import Store
from arena_kernel.testkit import write_report

SPRT = """
game = "nim"
games = 400
seed = 9
[game_options]
pile = 10
spread = 12
[sprt]
elo0 = 0
elo1 = 20
[[bots]]
name = "{first}"
builtin = "{first}"
inproc = true
[[bots]]
name = "{second}"
builtin = "{second}"
inproc = true
"""


def stored(summary) -> list:
    with Store(Path(summary.run.database)) as store:
        return store.games(summary.run.run_id)


@pytest.mark.parametrize(
    ("first", "second", "decision"), [("optimal", "random", "H1"), ("random", "optimal", "H0")]
)
def test_the_run_stops_when_the_test_decides(write_match, first, second, decision) -> None:
    summary = run_match(write_match(SPRT.format(first=first, second=second)))

    assert summary.errors == []
    assert summary.stopped is not None and f"accepted {decision}" in summary.stopped
    assert summary.played < 400, "stopped early"
    assert summary.sprt is not None and decision in summary.sprt.rows[0][2]
    games = stored(summary)
    pairs = {g.index // 2 for g in games}
    assert all({2 * p, 2 * p + 1} <= {g.index for g in games} for p in pairs), "whole pairs"
    for game in games:
        mate = next(g for g in games if g.index == game.index ^ 1)
        assert game.seed == mate.seed and game.seating == mate.seating[::-1]
    with Store(Path(summary.run.database)) as store:
        (record,) = store.run_records()
        assert record.finished is not None, "a decided run is finished"

    index = write_report(summary.run.database, Path(summary.run.database).parent / "report")
    page = index.read_text()
    assert "<h2>SPRT: " in page and f"{decision} accepted" in page

    again = run_match(write_match(SPRT.format(first=first, second=second)))
    assert (again.played, again.stopped) == (0, summary.stopped), "a decided run plays no more"
    assert again.sprt is not None and again.sprt.rows == summary.sprt.rows


def test_the_test_needs_two_bots_in_pairs(write_match) -> None:
    text = SPRT.format(first="optimal", second="random")
    with pytest.raises(MatchFileError, match="elo1 must be above elo0"):
        prepare(write_match(text.replace("elo1 = 20", "elo1 = -5")))
    with pytest.raises(MatchFileError, match="an even number of games"):
        prepare(write_match(text.replace("games = 400", "games = 41")))
    third = text + '[[bots]]\nname = "third"\nbuiltin = "random"\n'
    with pytest.raises(MatchFileError, match=r"two bots \(this file has 3\)"):
        prepare(write_match(third))
    with pytest.raises(MatchFileError, match="needs elo0"):
        prepare(write_match(text.replace("elo0 = 0\n", "")))


def test_pairs_in_play_when_the_test_decides_are_stored_apart_and_the_decision_kept(
    write_match,
) -> None:
    path = write_match(sprt_in_play(delay=1.0))
    summary = run_match(path)

    assert summary.errors == [] and summary.sprt is not None
    llr, _bounds, verdict, pairs, *_ = summary.sprt.rows[0]
    assert verdict.startswith("H1 accepted") and pairs == 1 and llr == 0.419
    assert summary.stopped is not None
    assert "accepted H1 after 1 pairs" in summary.stopped
    assert "pairs completed after the decision, shown apart" in summary.stopped
    with Store(Path(summary.run.database)) as store:
        steps = store.sprt_steps(summary.run.run_id)
        (record,) = store.run_records()
    assert record.finished is not None
    first, *after = steps
    assert (first.seq, first.pair, first.decision) == (1, 0, "H1")
    assert {s.pair for s in after} >= {1} and all(s.decision is None for s in after)

    again = run_match(path)
    assert again.played == 0 and again.sprt is not None
    assert (again.sprt.rows, again.sprt.notes) == (summary.sprt.rows, summary.sprt.notes)


def test_a_bot_put_out_after_the_decision_takes_the_test_with_its_games(write_match) -> None:
    """The pair in play when the test decides puts b out of the run: every game of b stops
    counting, and so does the test, in the store and in the run alike."""
    summary = run_match(write_match(sprt_in_play(delay=0.5, expel=True)))

    assert summary.errors == [] and summary.stopped is None
    assert summary.sprt is not None
    _llr, _bounds, verdict, pairs, *_ = summary.sprt.rows[0]
    assert (verdict, pairs) == ("no decision yet", 0)
    games = stored(summary)
    assert len(games) == 20 and all(game.void for game in games)
    with Store(Path(summary.run.database)) as store:
        assert store.sprt_steps(summary.run.run_id) == []
