"""An SPRT between a strong and a weak built-in stones bot stops the run early, with H1
accepted, and every stored pair of games shares its seed, colours swapped."""

from __future__ import annotations

from arena_kernel.testkit import run_match, stored_games

SPRT = """
games = 200
seed = 3
concurrency = 2
[game_options]
setup = "random"
[sprt]
elo0 = 0
elo1 = 100
"""


def test_greedy_against_random_stops_early_with_h1(arena_match) -> None:
    path = arena_match("stones", {"greedy": "greedy", "random": "random"}, SPRT)
    summary = run_match(path)

    assert summary.errors == []
    assert summary.stopped is not None and "accepted H1" in summary.stopped
    assert summary.played < 200
    assert summary.sprt is not None and summary.sprt.rows[0][2].startswith("H1 accepted")
    games = {detail.index: detail for _result, detail, _events in stored_games(summary)}
    for index, detail in games.items():
        mate = games[index ^ 1]  # a stopped run still plays whole pairs
        assert detail.seed == mate.seed and detail.seating == mate.seating[::-1]
