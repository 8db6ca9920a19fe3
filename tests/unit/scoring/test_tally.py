"""A :class:`Tally` is its games one by one to any reader, and a result at a time to the
scorers that take it; a scorer that rates games in order refuses one. The built-in scorers
found without the plugin manager are the ones it registers."""

from __future__ import annotations

import pytest

from arena_kernel.cli.commands import registries_with, scorer_classes
from arena_kernel.scoring.base import Tally, roster, tallied, weighted
from arena_kernel.scoring.builtin_classes import BUILTIN_SCORERS, builtin_scorer
from arena_kernel.scoring.played import PlayedGame

A_WINS = PlayedGame(0, ("a", "b"), (1, 2), False)
B_WINS = PlayedGame(1, ("b", "c"), (1, 2), False)
VOID = PlayedGame(2, ("a", "b"), (2, 1), True)


def test_a_tally_reads_as_its_games_one_by_one() -> None:
    tally = Tally([(A_WINS, 3), (B_WINS, 0), (VOID, 2)])
    games = [A_WINS] * 3 + [VOID] * 2
    assert len(tally) == 5
    assert list(tally) == games
    assert [tally[i] for i in range(-5, 5)] == games * 2
    assert tally[1:4] == games[1:4]
    with pytest.raises(IndexError):
        tally[5]
    assert list(weighted(tally)) == [(A_WINS, 3), (VOID, 2)]
    assert list(weighted(games)) == [(game, 1) for game in games]


def test_a_tally_counts_as_its_games_do() -> None:
    tally = Tally([(A_WINS, 3), (B_WINS, 1), (VOID, 2)])
    games = list(tally)
    assert [(g.seating, n) for g, n in tallied(tally)] == [
        (g.seating, n) for g, n in tallied(games)
    ]
    assert roster(tally, ["z"]) == roster(games, ["z"]) == ["z", "a", "b", "c"]
    assert list(tally.counted()) == [A_WINS] * 3 + [B_WINS]


def test_an_order_free_scorer_rates_a_tally_as_its_games_and_others_refuse_it() -> None:
    tally = Tally([(B_WINS, 2), (A_WINS, 3), (VOID, 1)])
    for name in ("wins", "elo", "plackett-luce"):
        scorer = builtin_scorer(name)()
        assert scorer.standings(tally, ["a", "b"]) == scorer.standings(list(tally), ["a", "b"])
    with pytest.raises(TypeError, match="rates games in order"):
        builtin_scorer("openskill")().standings(tally, ["a", "b"])


def test_the_built_in_scorers_by_name_are_those_the_built_in_plugin_registers() -> None:
    _pm, registries = registries_with((), installed=False, kinds=("scorer",))
    assert {name: registries.scorers.cls(name) for name in registries.scorers} == {
        name: builtin_scorer(name) for name in BUILTIN_SCORERS
    }
    assert all(builtin_scorer(name).name == name for name in BUILTIN_SCORERS)
    assert scorer_classes((), ["wins", "elo"]) is builtin_scorer
    through_registry = scorer_classes(("arena_kernel.testing.games",), ["wins"])
    assert through_registry is not builtin_scorer
    assert through_registry("wins") is builtin_scorer("wins")
