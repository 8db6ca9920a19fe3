"""What the maximum-likelihood rating scorers share: the Elo scale, the prior, Newton's
method and the error bars.

The ``elo`` (Bradley-Terry) and ``plackett-luce`` scorers fit one log-strength ``r`` per bot
(a logit: ``exp(r)`` is the bot's strength) by maximising a concave log-likelihood. They
differ only in the likelihood, so the scale, the prior that keeps a perfect score finite,
the optimiser and the interval are here once, and the two scorers agree exactly where
their models do (games of two seats).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arena_kernel.model import Estimate
from arena_kernel.model.values import FrozenValue, set_fields

ELO_PER_LOGIT = 400 / math.log(10)
"""The Elo scale: a 400-point gap means 10:1 odds."""

BASE_RATING = 1500.0
"""The ratings' average."""

PRIOR_DRAWS = 1.0
"""Virtual draws each bot plays against a fixed 1500-rated opponent before its real games.

Without them a bot that won (or lost) every game would have an infinite rating. One draw is
weak: after a few dozen real games it moves a rating by a few points at most."""

Z95 = 1.96

Derivatives = Callable[[Sequence[float]], tuple[list[float], list[list[float]]]]
"""A function of ``r`` giving the log-likelihood's gradient and its negated Hessian."""


class Rating(FrozenValue):
    """One bot's fitted rating and the half-width of its 95 % confidence interval."""

    __slots__ = ("elo", "error")

    elo: float
    error: float

    def __init__(self, elo: float, error: float) -> None:
        set_fields(self, elo=elo, error=error)


def log_sigmoid(x: float) -> float:
    """``log(1 / (1 + exp(-x)))`` without overflow for large ``|x|``."""
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def prior_log_likelihood(r: Sequence[float]) -> float:
    """The prior's share of the log-likelihood: :data:`PRIOR_DRAWS` draws (half a win, half
    a loss) of each bot against an opponent fixed at ``r = 0``."""
    return sum(PRIOR_DRAWS / 2 * (log_sigmoid(x) + log_sigmoid(-x)) for x in r)


def prior_derivatives(r: Sequence[float]) -> tuple[list[float], list[list[float]]]:
    """The prior's gradient and information (see :func:`prior_log_likelihood`), in fresh
    lists for a likelihood to add its games to."""
    n = len(r)
    gradient = [0.0] * n
    information = [[0.0] * n for _ in range(n)]
    for i, x in enumerate(r):
        p = 1 / (1 + math.exp(-x))
        gradient[i] += PRIOR_DRAWS * (0.5 - p)
        information[i][i] += PRIOR_DRAWS * p * (1 - p)
    return gradient, information


def maximise(
    r: list[float], log_likelihood: Callable[[Sequence[float]], float], derivatives: Derivatives
) -> tuple[list[float], list[list[float]]]:
    """Newton's method from ``r`` on a concave ``log_likelihood``: the maximum and the
    Fisher information there (the negated Hessian, which the error bars come from).

    Each step solves ``information * step = gradient``; a step that would lower the
    likelihood is halved until it does not, which, the function being concave, converges
    from any start. The prior makes the information positive definite, so the steps exist.
    """
    for _ in range(100):
        gradient, information = derivatives(r)
        step = [row[0] for row in solve(information, [[g] for g in gradient])]
        # The log-likelihood is concave, so halving the step until it goes up converges.
        current, t = log_likelihood(r), 1.0
        while t > 1e-6:
            trial = [x + t * dx for x, dx in zip(r, step, strict=True)]
            if log_likelihood(trial) >= current - 1e-12:
                break
            t /= 2
        r = trial
        if max(abs(t * dx) for dx in step) < 1e-10:
            break
    _, information = derivatives(r)
    return r, information


def centred_ratings(
    index: Mapping[str, int], r: Sequence[float], information: Sequence[Sequence[float]]
) -> dict[str, Rating]:
    """Each bot's rating (``r[index[bot]]``) on the Elo scale, shifted so that the ratings
    average :data:`BASE_RATING`, with the half-width of its 95 % interval.

    Only differences of ratings are measured, so the error bar is that of a rating relative
    to the average: ``1.96 * sd`` from the inverse of ``information`` (the covariance of
    ``r``) projected onto the constraint that the ratings' mean is fixed.
    """
    n = len(r)
    covariance = solve(information, [[float(i == j) for j in range(n)] for i in range(n)])
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


def solve(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> list[list[float]]:
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


def rating_rows(
    bots: Sequence[str], ratings: Mapping[str, Rating], rest: Callable[[str], tuple[Any, ...]]
) -> list[tuple[Any, ...]]:
    """A rating table's rows, best rating first (bots without one last, by name): each
    ``(bot, rating, ±95 %, *rest(bot))``, the figures rounded as both scorers show them."""

    def key(bot: str) -> tuple[float, str]:
        return (-ratings[bot].elo, bot) if bot in ratings else (math.inf, bot)

    return [
        (
            bot,
            round(ratings[bot].elo, 1) if bot in ratings else None,
            round(ratings[bot].error, 1) if bot in ratings else None,
            *rest(bot),
        )
        for bot in sorted(bots, key=key)
    ]


def rating_estimates(ratings: Mapping[str, Rating]) -> dict[str, Estimate]:
    """Each rated bot's rating with its 95 % interval, for the report's plots."""
    return {bot: Estimate(r.elo, r.elo - r.error, r.elo + r.error) for bot, r in ratings.items()}
