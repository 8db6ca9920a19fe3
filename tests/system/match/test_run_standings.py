"""One function computes a run's standings for ``arena run`` and ``arena standings``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from arena_kernel.errors import PluginError
from arena_kernel.match.standings import run_standings
from arena_kernel.registries.manager import get_plugin_manager, load_registries
from arena_kernel.runner.api import run_match
from arena_kernel.scoring.elo import EloScorer
from arena_kernel.scoring.faults import fault_losses
from arena_kernel.scoring.wins import WinsScorer
from arena_kernel.store import Store, StoredGame

SCORERS = {"wins": WinsScorer, "elo": EloScorer}


def game(index: int, seating: tuple[str, ...], ranks: tuple[int, ...], fault=None) -> StoredGame:
    faults = (fault, None) if fault else (None, None)
    return StoredGame(
        index + 1, index, seating, ranks, None, False, frozenset(), "t", first_faults=faults
    )


GAMES = [
    game(0, ("a", "b"), (1, 2)),
    game(1, ("b", "a"), (2, 1), fault="timeout"),
    game(2, ("a", "c"), (2, 1), fault="exit"),
]


def test_a_table_per_scorer_in_the_files_order_then_the_faults() -> None:
    standings = run_standings(GAMES, ["a", "b", "c"], ["elo", "wins"], SCORERS.__getitem__)
    assert [table.title for table in standings.tables] == ["Elo", "Wins"]
    assert standings.tables[1] == WinsScorer().standings(GAMES, ["a", "b", "c"])
    assert standings.faults == fault_losses(GAMES, ["a", "b", "c"])
    assert standings.faults is not None
    assert standings.faults.rows == [("a", 1, "exit 1"), ("b", 1, "timeout 1")]


def test_a_missing_scorer_is_the_registrys_error() -> None:
    registries = load_registries(get_plugin_manager(entry_points=False))
    with pytest.raises(PluginError, match='unknown scorer "wnis"'):
        run_standings(GAMES, ["a", "b"], ["wnis"], registries.scorers.cls)


def test_a_run_prints_what_its_stored_results_give(write_match: Callable[..., Path]) -> None:
    """A real run with a bot that exits at once: the runner's standings are the function's,
    computed again from the database afterwards."""
    quitter = [sys.executable, "-c", "pass"]
    path = write_match(
        'game = "nim"\ngames = 6\nconcurrency = 2\nstartup_failures = "forfeit"\n'
        '[[bots]]\nname = "optimal"\nbuiltin = "optimal"\ninproc = true\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\ninproc = true\n'
        f'[[bots]]\nname = "quitter"\ncmd = {json.dumps(quitter)}\n'
    )
    summary = run_match(path)
    assert summary.played == 6 and not summary.errors
    registries = load_registries(get_plugin_manager(entry_points=False))
    with Store(summary.run.database) as store:
        results = store.results(summary.run.run_id)
    again = run_standings(
        results, ["optimal", "random", "quitter"], ["wins", "elo"], registries.scorers.cls
    )
    assert (summary.standings, summary.faults, summary.sprt, summary.format) == again
    assert again.faults is not None and again.faults.rows[0][0] == "quitter"


def test_the_formats_with_a_table_of_their_own_are_those_played_in_stages() -> None:
    """``run_standings`` names them itself (the match file's schema is not loaded to show
    standings): a new staged format must add its table there too."""
    from arena_kernel.match.spec import DYNAMIC_FORMATS
    from arena_kernel.match.standings import STAGED_FORMATS

    assert STAGED_FORMATS == DYNAMIC_FORMATS
