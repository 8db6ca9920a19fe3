"""Elo ratings with error bars: a maximum-likelihood Bradley-Terry fit of two-player games.

A fit of all games at once, not the incremental Elo update: the result does not depend on
the order the games were played in, and it comes with honest error bars. The fit is small
enough (one row per bot) for plain Newton steps and Gaussian elimination.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena_kernel.scoring.base import Estimate, GameResult, Scorer, Standings, plural, tallied

ELO_PER_LOGIT = 400 / math.log(10)
"""The Elo scale: a 400-point gap means 10:1 odds."""

BASE_RATING = 1500.0
"""The ratings' average."""

PRIOR_DRAWS = 1.0
"""Virtual draws each bot plays against a fixed 1500-rated opponent before its real games.

Without them a bot that won (or lost) every game would have an infinite rating. One draw is
weak: after a few dozen real games it moves a rating by a few points at most."""

Z95 = 1.96


@dataclass(frozen=True)
class Rating:
    """One bot's fitted rating and the half-width of its 95 % confidence interval."""

    elo: float
    error: float


def fit_elo(results: Iterable[tuple[str, str, float]]) -> dict[str, Rating]:
    """Fit ratings to ``(bot_a, bot_b, score_of_a)`` results (score 1, 0.5 or 0): see
    :func:`fit_elo_counted`."""
    return fit_elo_counted(Counter(results).items())


def fit_elo_counted(results: Iterable[tuple[tuple[str, str, float], int]]) -> dict[str, Rating]:
    """Fit ratings to distinct ``(bot_a, bot_b, score_of_a)`` results (score 1, 0.5 or 0),
    each with how many games had it.

    Maximises the Bradley-Terry likelihood, draws counting as half a win for each side,
    plus :data:`PRIOR_DRAWS`. Ratings are then shifted to average :data:`BASE_RATING`, and
    error bars are those of each rating relative to that average: ``1.96 * sd`` from the
    inverse Fisher information, projected onto the constraint.
    """
    index: dict[str, int] = {}
    pairs: dict[tuple[int, int], list[float]] = {}
    for (a, b, score), count in results:
        i, j = index.setdefault(a, len(index)), index.setdefault(b, len(index))
        if i > j:
            i, j, score = j, i, 1.0 - score
        tally = pairs.setdefault((i, j), [0.0, 0.0])
        tally[0] += count
        tally[1] += score * count
    n = len(index)
    if not n:
        return {}
    r = [0.0] * n
    for _ in range(100):
        gradient, information = _derivatives(r, pairs)
        step = [row[0] for row in _solve(information, [[g] for g in gradient])]
        # The log-likelihood is concave, so halving the step until it goes up converges.
        current, t = _log_likelihood(r, pairs), 1.0
        while t > 1e-6:
            trial = [x + t * dx for x, dx in zip(r, step, strict=True)]
            if _log_likelihood(trial, pairs) >= current - 1e-12:
                break
            t /= 2
        r = trial
        if max(abs(t * dx) for dx in step) < 1e-10:
            break
    _, information = _derivatives(r, pairs)
    covariance = _solve(information, [[float(i == j) for j in range(n)] for i in range(n)])
    mean = sum(r) / n
    col_means = [sum(row) / n for row in covariance]
    grand_mean = sum(col_means) / n
    return {
        name: Rating(
            elo=BASE_RATING + ELO_PER_LOGIT * (r[i] - mean),
            error=Z95
            * ELO_PER_LOGIT
            * math.sqrt(max(covariance[i][i] - 2 * col_means[i] + grand_mean, 0.0)),
        )
        for name, i in index.items()
    }


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _log_likelihood(r: Sequence[float], pairs: dict[tuple[int, int], list[float]]) -> float:
    total = sum(PRIOR_DRAWS / 2 * (_log_sigmoid(x) + _log_sigmoid(-x)) for x in r)
    for (i, j), (games, score) in pairs.items():
        d = r[i] - r[j]
        total += score * _log_sigmoid(d) + (games - score) * _log_sigmoid(-d)
    return total


def _derivatives(
    r: Sequence[float], pairs: dict[tuple[int, int], list[float]]
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and its negated Hessian (the Fisher information)."""
    n = len(r)
    gradient = [0.0] * n
    information = [[0.0] * n for _ in range(n)]
    for i, x in enumerate(r):
        p = 1 / (1 + math.exp(-x))
        gradient[i] += PRIOR_DRAWS * (0.5 - p)
        information[i][i] += PRIOR_DRAWS * p * (1 - p)
    for (i, j), (games, score) in pairs.items():
        p = 1 / (1 + math.exp(r[j] - r[i]))
        gradient[i] += score - games * p
        gradient[j] -= score - games * p
        w = games * p * (1 - p)
        information[i][i] += w
        information[j][j] += w
        information[i][j] -= w
        information[j][i] -= w
    return gradient, information


def _solve(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> list[list[float]]:
    """``a⁻¹ b`` by Gauss-Jordan elimination with partial pivoting (``a`` is positive
    definite thanks to the prior, so a pivot is never zero)."""
    n = len(a)
    m = [list(a[i]) + list(b[i]) for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda row: abs(m[row][col]))
        m[col], m[pivot] = m[pivot], m[col]
        head = m[col]
        inv = 1 / head[col]
        for k in range(col, len(head)):
            head[k] *= inv
        for row in range(n):
            if row != col and m[row][col]:
                factor = m[row][col]
                target = m[row]
                for k in range(col, len(head)):
                    target[k] -= factor * head[k]
    return [row[n:] for row in m]


class EloScorer(Scorer):
    """Bradley-Terry Elo of two-player games, with 95 % error bars.

    Games with more than two seats, and games without two different bots, are skipped (and
    the table says how many): pairwise ratings have nothing to say about them; use the
    ``openskill`` scorer for multiplayer games. Bots without a rated game have no rating.
    """

    name = "elo"
    summary = (
        "maximum-likelihood Elo of two-player games with 95% error bars "
        "(prior: one draw against a 1500 player per bot)"
    )

    def score(self, games: Sequence[GameResult], bots: Sequence[str]) -> Standings:
        results: Counter[tuple[str, str, float]] = Counter()
        played = dict.fromkeys(bots, 0)
        points = dict.fromkeys(bots, 0.0)
        multiplayer = lonely = 0
        for game, count in tallied(games):
            if len(game.seating) > 2:
                multiplayer += count
                continue
            if len(set(game.seating)) != 2:
                lonely += count
                continue
            (a, b), (rank_a, rank_b) = game.seating, game.ranks
            score = 1.0 if rank_a < rank_b else 0.0 if rank_a > rank_b else 0.5
            results[a, b, score] += count
            played[a] += count
            played[b] += count
            points[a] += score * count
            points[b] += (1 - score) * count
        ratings = fit_elo_counted(results.items())
        order = sorted(
            bots,
            key=lambda bot: (-ratings[bot].elo, bot) if bot in ratings else (math.inf, bot),
        )
        rows = [
            (
                bot,
                round(ratings[bot].elo, 1) if bot in ratings else None,
                round(ratings[bot].error, 1) if bot in ratings else None,
                played[bot],
                round(100 * points[bot] / played[bot], 1) if played[bot] else None,
            )
            for bot in order
        ]
        notes = []
        if multiplayer:
            notes.append(
                f"{plural(multiplayer, 'game')} with more than two seats skipped "
                "(Elo rates two-player games; see the openskill scorer)"
            )
        if lonely:
            notes.append(f"{plural(lonely, 'game')} without two different bots skipped")
        return Standings(
            title="Elo",
            columns=("bot", "elo", "±95%", "games", "score %"),
            rows=rows,
            notes=notes,
            estimate="Elo, 95% interval",
            estimates={
                bot: Estimate(r.elo, r.elo - r.error, r.elo + r.error) for bot, r in ratings.items()
            },
        )
