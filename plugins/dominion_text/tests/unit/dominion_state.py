"""A Dominion game's whole state as one value, for tests that compare two games (a
fast path against the step-by-step one, a step that must change nothing)."""

from __future__ import annotations

from arena_dominion.engine import Dominion


def game_state(game: Dominion) -> tuple[object, ...]:
    """Everything a game is made of, its random generator's state included."""
    return (
        game.hands,
        game.decks,
        game.discards,
        game.in_play,
        game.trash,
        game.supply,
        game.owned,
        game.turns,
        game.phase,
        game.current,
        game.actions,
        game.buys,
        game.coins,
        game.pending,
        game.events,
        game.rng.getstate(),
        game.result,
    )
