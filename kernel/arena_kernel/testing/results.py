"""Reading a finished run back, for the assertions of game plugins' protocol tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def game_outcomes(database: str | Path, run_id: int | None = None) -> list[tuple[Any, ...]]:
    """What two runs of one match file must have stored alike, game by game in schedule
    order: index, session, seed, seating, ranks, scores, void, reason, details, faults
    (kind, seat, detail) and each seat's messages in order (kind, text), times left out:
    how two seats' messages interleave is the bots' timing. With ``run_id`` None, the
    database's only run."""
    with Store(Path(database)) as store:
        if run_id is None:
            (run,) = store.runs()
            run_id = run.run_id
        outcomes = []
        for detail in store.games(run_id):
            outcomes.append(
                (
                    detail.index,
                    detail.session,
                    detail.seed,
                    detail.seating,
                    detail.ranks,
                    detail.scores,
                    detail.void,
                    detail.reason,
                    detail.details,
                    [(f.kind, f.seat, f.detail) for f in detail.faults],
                    _by_seat(store.events(detail.game_id)),
                )
            )
        return outcomes


def _by_seat(events: list[Event]) -> dict[int | None, list[tuple[str, str]]]:
    seats: dict[int | None, list[tuple[str, str]]] = {}
    for event in events:
        seats.setdefault(event.seat, []).append((event.kind, event.text))
    return seats
