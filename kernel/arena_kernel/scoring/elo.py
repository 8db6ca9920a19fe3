"""Elo ratings with error bars: a maximum-likelihood Bradley-Terry fit of two-player games.

A fit of all games at once, not the incremental Elo update: the result does not depend on
the order the games were played in, and it comes with honest error bars. The fit is small
enough (one row per bot) for plain Newton steps and Gaussian elimination (in
:mod:`arena_kernel.scoring.fit`, shared with the ``plackett-luce`` scorer).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

from arena_kernel.model import Standings
from arena_kernel.scoring.base import GameResult, Scorer, plural, tallied
from arena_kernel.scoring.fit import BASE_RATING as BASE_RATING
from arena_kernel.scoring.fit import ELO_PER_LOGIT as ELO_PER_LOGIT
from arena_kernel.scoring.fit import PRIOR_DRAWS as PRIOR_DRAWS
from arena_kernel.scoring.fit import Z95 as Z95
from arena_kernel.scoring.fit import Rating as Rating
from arena_kernel.scoring.fit import (
    centred_ratings,
    log_sigmoid,
    maximise,
    prior_derivatives,
    prior_log_likelihood,
    rating_estimates,
    rating_rows,
)


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
    r, information = maximise(
        [0.0] * n, lambda x: _log_likelihood(x, pairs), lambda x: _derivatives(x, pairs)
    )
    return centred_ratings(index, r, information)


def _log_likelihood(r: Sequence[float], pairs: dict[tuple[int, int], list[float]]) -> float:
    total = prior_log_likelihood(r)
    for (i, j), (games, score) in pairs.items():
        d = r[i] - r[j]
        total += score * log_sigmoid(d) + (games - score) * log_sigmoid(-d)
    return total


def _derivatives(
    r: Sequence[float], pairs: dict[tuple[int, int], list[float]]
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and its negated Hessian (the Fisher information)."""
    gradient, information = prior_derivatives(r)
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
    order_free = True

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
        rows = rating_rows(
            bots,
            ratings,
            lambda bot: (
                played[bot],
                round(100 * points[bot] / played[bot], 1) if played[bot] else None,
            ),
        )
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
            estimates=rating_estimates(ratings),
        )
