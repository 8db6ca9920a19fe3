"""Win/draw/loss counts: the table everybody understands, for any number of seats."""

from __future__ import annotations

import math
from collections.abc import Sequence

from arena_kernel.model import Estimate, Standings
from arena_kernel.scoring.base import GameResult, Scorer, tallied

Z95 = 1.96


class _Tally:
    """One bot's counts as the table adds them up (a plain class: nothing compares or
    prints one, and a dataclass costs ``arena standings`` more to make than to use)."""

    __slots__ = ("draws", "games", "rank_sum", "wins")

    def __init__(self) -> None:
        self.games = self.wins = self.draws = self.rank_sum = 0

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws


class WinsScorer(Scorer):
    """Wins, draws and losses per bot.

    With any number of seats: a *win* is rank 1 held alone, a *draw* is rank 1 shared with
    at least one other seat, and every other rank is a *loss* (so in a four-player game,
    second place is a loss; "mean rank" tells second from last). Points are 1 per win and
    0.5 per draw, whatever the number of seats: the table counts games won, not opponents
    beaten. A bot seated twice in one game is counted once per seat.
    """

    name = "wins"
    summary = "wins, draws, losses and points (1 per win, 0.5 per draw)"
    order_free = True

    def score(self, games: Sequence[GameResult], bots: Sequence[str]) -> Standings:
        tallies = {bot: _Tally() for bot in bots}
        for game, count in tallied(games):
            first = sum(rank == 1 for rank in game.ranks)
            for bot, rank in zip(game.seating, game.ranks, strict=True):
                tally = tallies[bot]
                tally.games += count
                tally.rank_sum += rank * count
                if rank == 1:
                    if first == 1:
                        tally.wins += count
                    else:
                        tally.draws += count
        order = sorted(
            bots, key=lambda b: (-tallies[b].points, -tallies[b].wins, _mean(tallies[b]), b)
        )
        rows = []
        for bot in order:
            t = tallies[bot]
            rows.append(
                (
                    bot,
                    t.games,
                    t.wins,
                    t.draws,
                    t.games - t.wins - t.draws,
                    t.points,
                    round(100 * t.wins / t.games, 1) if t.games else None,
                    round(t.rank_sum / t.games, 2) if t.games else None,
                )
            )
        return Standings(
            title="Wins",
            columns=("bot", "games", "wins", "draws", "losses", "points", "win %", "mean rank"),
            rows=rows,
            estimate="points per game, 95% Wilson interval",
            estimates={bot: _rate(t) for bot, t in tallies.items() if t.games},
        )


def _mean(tally: _Tally) -> float:
    """The mean rank that breaks a tie of points and wins (second place beats last in a
    game of four); a bot without games last."""
    return tally.rank_sum / tally.games if tally.games else math.inf


def _rate(tally: _Tally) -> Estimate:
    """Points per game with its Wilson score interval: unlike the plain normal one it stays
    within [0, 1] and is not zero-width for a bot that won (or lost) every game."""
    n, p = tally.games, tally.points / tally.games
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))
