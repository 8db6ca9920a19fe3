"""Ranks when some players were put out of a game by the referee: shared by every
Dominion protocol, whose referees disqualify bots that stop answering or break rules."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from arena_kernel.plugin import Outcome

if TYPE_CHECKING:
    from arena_dominion.engine import Dominion


def ranks_without(ranks: Sequence[int], out: Collection[int]) -> list[int]:
    """The engine's ranks for the players still in the game, recomputed among them, and
    every player in ``out`` sharing the place below them all."""
    inside = [p for p in range(len(ranks)) if p not in out]
    final = [len(inside) + 1] * len(ranks)
    for p in inside:
        final[p] = 1 + sum(ranks[q] < ranks[p] for q in inside)
    return final


def game_outcome(game: Dominion, out: Collection[int], names: Sequence[str], why: str) -> Outcome:
    """The record of a finished (or abandoned) game: VP as scores, turns in the details,
    and the players the referee put out named after ``why``."""
    n = len(names)
    if game.result is not None:
        reason, ranks = game.result.reason, ranks_without(game.result.ranks, out)
    else:
        reason, ranks = "only one player was left in the game", ranks_without([1] * n, out)
    if out:
        reason += f"; {why}: " + ", ".join(names[p] for p in sorted(out))
    vp = [float(game.vp(p)) for p in range(n)]
    return Outcome(ranks, reason, scores=vp, details={"turns": list(game.turns)})
