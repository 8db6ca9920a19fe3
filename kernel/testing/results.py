"""Reading a finished run back, for the assertions of game plugins' protocol tests."""

from __future__ import annotations

from arena_kernel.model import Event
from arena_kernel.runner.run import RunSummary
from arena_kernel.store import GameDetail, Store, StoredGame


def stored_games(summary: RunSummary) -> list[tuple[StoredGame, GameDetail, list[Event]]]:
    """``(result, detail, events)`` of every stored game of the run, in schedule order:
    what a scorer sees, the faults and details, and the transcript."""
    with Store(summary.run.database) as store:
        return [
            (g, store.game(g.game_id), store.events(g.game_id))
            for g in store.results(summary.run.run_id)
        ]
