"""A league's ratings as its games come in: one Plackett-Luce fit of every counted game
(any number of seats, :mod:`arena_kernel.scoring.plackett_luce`), refitted after each block
of games, giving each bot its rating with its 95 % interval, and, for matchmaking, the
log-strengths and their covariance.

A league never ends, so its games are tallied as they come (:class:`LeagueTally`): a
fit reads the distinct finishing orders so far, not the games, and costs the same after
a hundred games as after a hundred thousand. The fit is a pure function of the tally,
which is a pure function of the games counted: a league resumed, or played by a
cluster, rates the same games the same way to the last bit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from arena_kernel.scoring.base import GameResult
from arena_kernel.scoring.fit import BASE_RATING, ELO_PER_LOGIT, Z95, Rating, solve
from arena_kernel.scoring.plackett_luce import Placing, fit_strengths


@dataclass
class LeagueTally:
    """The counted games of a league so far: how many had each placing, how many each
    bot played (a bot seated twice in a game plays it twice) and in which seats (its
    games per seat number)."""

    placings: dict[Placing, int] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    seat_games: dict[str, list[int]] = field(default_factory=dict)

    def add(self, results: Iterable[GameResult]) -> None:
        """Count ``results``, skipping void games (no standings count them)."""
        for game in results:
            if game.void:
                continue
            key = tuple(sorted(zip(game.ranks, game.seating, strict=True)))
            self.placings[key] = self.placings.get(key, 0) + 1
            for seat, bot in enumerate(game.seating):
                self.games[bot] = self.games.get(bot, 0) + 1
                seats = self.seat_games.setdefault(bot, [])
                seats.extend([0] * (seat + 1 - len(seats)))
                seats[seat] += 1

    @property
    def counted(self) -> int:
        return sum(self.placings.values())


@dataclass(frozen=True)
class LeagueFit:
    """One fit of a league's games: every bot's log-strength and their covariance, for
    the bots of the games and those about to play their first."""

    index: Mapping[str, int]
    r: Sequence[float]
    covariance: Sequence[Sequence[float]]
    rated: tuple[str, ...]
    """The bots with a game that tells them from another bot: those the ratings are of."""

    def strengths(self, bots: Sequence[str]) -> tuple[list[float], list[list[float]]]:
        """The log-strengths of ``bots`` (every one of :attr:`index`) and their covariance,
        in that order: the marginal of the fit, what matchmaking reads."""
        rows = [self.index[bot] for bot in bots]
        return (
            [self.r[i] for i in rows],
            [[self.covariance[i][j] for j in rows] for i in rows],
        )

    def ratings(self) -> dict[str, Rating]:
        """The rated bots' ratings on the Elo scale, averaging
        :data:`~arena_kernel.scoring.fit.BASE_RATING`, each with the half-width of its 95 %
        interval relative to that average: the figures of the ``plackett-luce`` scorer."""
        rows = [self.index[bot] for bot in self.rated]
        if not rows:
            return {}
        n = len(rows)
        mean = sum(self.r[i] for i in rows) / n
        column = {i: sum(self.covariance[i][j] for j in rows) / n for i in rows}
        grand = sum(column.values()) / n
        return {
            bot: Rating(
                BASE_RATING + ELO_PER_LOGIT * (self.r[i] - mean),
                Z95
                * ELO_PER_LOGIT
                * math.sqrt(max(self.covariance[i][i] - 2 * column[i] + grand, 0.0)),
            )
            for bot, i in zip(self.rated, rows, strict=True)
        }


def fit_league(tally: LeagueTally, bots: Iterable[str] = ()) -> LeagueFit:
    """Fit every game of ``tally``, for its bots and ``bots`` (which may have none yet)."""
    fit = fit_strengths(tally.placings, bots)
    n = len(fit.index)
    covariance = solve(fit.information, [[float(i == j) for j in range(n)] for i in range(n)])
    informative = {bot for key in tally.placings if len({b for _, b in key}) > 1 for _, bot in key}
    rated = tuple(bot for bot in fit.index if bot in informative)
    return LeagueFit(fit.index, fit.r, covariance, rated)


@dataclass(frozen=True)
class RatingPoint:
    """A bot's rating after a block of a league: ``games`` counted in the league then,
    ``bot_games`` of them the bot's."""

    block: int
    games: int
    bot: str
    rating: float
    error: float
    bot_games: int


def rating_points(block: int, tally: LeagueTally, fit: LeagueFit) -> list[RatingPoint]:
    """Every rated bot's point after ``block``, best first (ties by name)."""
    ratings = fit.ratings()
    order = sorted(ratings, key=lambda bot: (-ratings[bot].elo, bot))
    return [
        RatingPoint(
            block,
            tally.counted,
            bot,
            ratings[bot].elo,
            ratings[bot].error,
            tally.games.get(bot, 0),
        )
        for bot in order
    ]
