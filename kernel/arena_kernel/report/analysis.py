"""Figures of a run the standings do not give: pairwise results, each game's kind of
result, and the ranking scorer's figures as the games came in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena_kernel.scoring.base import GameResult, Scorer

CHECKPOINTS = 50
"""How many points the ratings-over-games plot has (each is one scoring of a prefix)."""


@dataclass
class Pairing:
    """The row bot's wins, draws and losses against the column bot."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def cross_table(games: Sequence[GameResult], bots: Sequence[str]) -> dict[tuple[str, str], Pairing]:
    """For each ordered pair of bots that met in a counted game, how the first fared
    against the second: a better rank is a win, an equal one a draw (in a game of four,
    every pair of its bots has met once). A bot in two seats of one game counts once, by
    its best seat."""
    table: dict[tuple[str, str], Pairing] = {}
    for game in games:
        if game.void:
            continue
        best: dict[str, int] = {}
        for bot, rank in zip(game.seating, game.ranks, strict=True):
            best[bot] = min(rank, best.get(bot, rank))
        for a, rank_a in best.items():
            for b, rank_b in best.items():
                if a == b:
                    continue
                pairing = table.setdefault((a, b), Pairing())
                if rank_a < rank_b:
                    pairing.wins += 1
                elif rank_a == rank_b:
                    pairing.draws += 1
                else:
                    pairing.losses += 1
    return table


def result_kind(game: GameResult) -> str:
    """``void``, ``draw`` (more than one seat ranked first, or none) or ``win``: what the
    games list filters by."""
    if game.void:
        return "void"
    return "win" if sum(rank == 1 for rank in game.ranks) == 1 else "draw"


def rating_history(
    games: Sequence[GameResult],
    bots: Sequence[str],
    scorer: type[Scorer],
    checkpoints: int = CHECKPOINTS,
) -> list[tuple[int, dict[str, float]]]:
    """The scorer's figure per bot after the first k counted games (in schedule order),
    for about ``checkpoints`` values of k up to all of them: (k, {bot: figure}). Empty
    when the scorer gives no figures or fewer than two games were counted."""
    counted = sorted((g for g in games if not g.void), key=lambda g: g.index)
    if len(counted) < 2:
        return []
    marks = sorted(
        {max(1, round(len(counted) * i / checkpoints)) for i in range(1, checkpoints + 1)}
    )
    points = []
    for k in marks:
        estimates = scorer().standings(counted[:k], bots).estimates
        if not estimates:
            return []
        points.append((k, {bot: estimate.value for bot, estimate in estimates.items()}))
    return points
