"""Ranks when some players were put out of a game by the referee: shared by every
Dominion protocol, whose referees disqualify bots that stop answering or break rules."""

from __future__ import annotations

from collections.abc import Collection, Sequence


def ranks_without(ranks: Sequence[int], out: Collection[int]) -> list[int]:
    """The engine's ranks for the players still in the game, recomputed among them, and
    every player in ``out`` sharing the place below them all."""
    inside = [p for p in range(len(ranks)) if p not in out]
    final = [len(inside) + 1] * len(ranks)
    for p in inside:
        final[p] = 1 + sum(ranks[q] < ranks[p] for q in inside)
    return final
