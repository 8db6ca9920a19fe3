"""Maximum-likelihood Plackett-Luce ratings of games of any number of seats, on the Elo scale.

The model (Luce 1959, Plackett 1975): each bot has a strength ``exp(r)``, and a game's
finishing order is drawn place by place, each place going to one of the seats not yet placed
with probability its bot's strength over the sum of theirs. With two seats this is the
Bradley-Terry model (1952) of the ``elo`` scorer, and with the same prior (below), so on
two-player games the two scorers give the same ratings. Unlike ``openskill`` (the same model
updated online, game after game), this is one fit of all games at once: the ratings do not
depend on the order of the games, and their error bars are the likelihood's own.

Ties. A tied group of ``m`` seats counts as each of its ``m!`` orders with weight ``1/m!``
in the log-likelihood: the tied bots are taken to have finished ahead of one another
equally often. With two seats this is the ``elo`` scorer's draw, half a win and half a loss
for each side. A tie is thus evidence that the tied bots are alike: it pulls their ratings
together and favours none of them; and the log-likelihood stays concave, so the fit is as
easy as without ties. (The alternative, reading a tie as an order the referee did not tell,
would make a draw carry no information at all, and the two-player case disagree with
``elo``.) So a game in which every seat ties says nothing about which bot is stronger, but
it is not ignored: it counts as a draw among its bots. A game without two different bots
(one seat, or one bot in every seat) carries no information whatever, and is skipped with a
note. A bot seated twice in a game stands for two entries of its strength.

Prior. Shared with ``elo`` (:mod:`arena_kernel.scoring.fit`): each bot also plays
:data:`~arena_kernel.scoring.fit.PRIOR_DRAWS` virtual two-player draw against an opponent
fixed in the middle of the scale, so that a bot that won (or lost) every game has a finite
rating; a single draw hardly moves a rating that has a few dozen real games behind it.

The fit. Newton steps on the log-likelihood, concave in the ``r`` (Hunter 2004, "MM
algorithms for generalized Bradley-Terry models", fits the same likelihood with an MM
algorithm; Newton's method needs the Hessian anyway, for the error bars, and converges in a
handful of steps). The likelihood is a sum over the *choices* a finishing order is made of
(this bot took the next place among those bots), so every distinct finishing order is
expanded once (:func:`~arena_kernel.scoring.base.tallied` first counts each distinct result
once) and every distinct set of bots chosen among enters each step once, whatever the number
of games. Ratings are shifted to average 1500 and reported with 95 % intervals from the
inverse observed Fisher information at the maximum, projected onto that constraint, as for
``elo``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from arena_kernel.model import Standings
from arena_kernel.scoring.base import GameResult, Scorer, plural, tallied
from arena_kernel.scoring.fit import (
    Rating,
    centred_ratings,
    maximise,
    prior_derivatives,
    prior_log_likelihood,
    rating_estimates,
    rating_rows,
)


@dataclass
class _Choices:
    """The log-likelihood's sufficient statistics: how often (weighted by ties) each bot was
    chosen (``chosen[bot]``), and how often a next place was chosen among each multiset of
    bots (``among``, a sorted tuple of bot numbers; a bot seated twice appears twice).

    The log-likelihood is ``sum(chosen[i] * r[i]) - sum(w * log(sum(exp(r[j]) for j in S))
    for S, w in among)``, plus the prior.
    """

    chosen: list[float] = field(default_factory=list)
    among: dict[tuple[int, ...], float] = field(default_factory=dict)

    def add(self, order: Sequence[Sequence[int]], count: float) -> None:
        """Add ``count`` games that finished in ``order``: groups of bot numbers, best
        first, the bots of a group tied; every order of a tied group counts alike.

        In a random order of a tied group of ``m`` seats, the first ``t`` places go to a
        given ``t`` of them with probability ``1 / comb(m, t)``, and the next to each of the
        ``m - t`` others alike: so each such remainder (with every seat ranked behind the
        group) is chosen from ``count / comb(m, t)`` times, each of its group members
        ``1 / (m - t)`` of those. Without ties (``m = 1``) it is the plain order.
        """
        behind = [bot for group in order for bot in group]
        for group in order:
            m = len(group)
            del behind[:m]
            if m == 1 and not behind:
                break  # the last place: nothing to choose
            for t in range(m):
                weight = count / math.comb(m, t)
                for taken in combinations(range(m), t):
                    left = [bot for k, bot in enumerate(group) if k not in taken]
                    among = tuple(sorted(left + behind))
                    if among[0] == among[-1]:
                        continue  # one bot to choose from: no information
                    self.among[among] = self.among.get(among, 0.0) + weight
                    for bot in left:
                        self.chosen[bot] += weight / (m - t)

    def log_likelihood(self, r: Sequence[float]) -> float:
        """The log-likelihood at ``r`` (what the Newton steps must raise), each log of a sum
        taken with its largest term factored out so that no strength overflows."""
        total = prior_log_likelihood(r)
        total += sum(c * x for c, x in zip(self.chosen, r, strict=True))
        for among, weight in self.among.items():
            top = max(r[i] for i in among)
            total -= weight * (top + math.log(sum(math.exp(r[i] - top) for i in among)))
        return total

    def derivatives(self, r: Sequence[float]) -> tuple[list[float], list[list[float]]]:
        """The gradient and the information: a choice among ``S`` contributes ``p_i =
        exp(r_i) / sum(exp(r_j) for j in S)`` to the expected choices of each bot ``i`` in
        ``S`` and ``diag(p) - p pᵀ`` to the information, times its weight."""
        gradient, information = prior_derivatives(r)
        for i, c in enumerate(self.chosen):
            gradient[i] += c
        top = max(r)
        strength = [math.exp(x - top) for x in r]
        for among, weight in self.among.items():
            total = sum(strength[i] for i in among)
            share: dict[int, float] = {}
            for i in among:
                share[i] = share.get(i, 0.0) + strength[i] / total
            for i, p in share.items():
                gradient[i] -= weight * p
                row = information[i]
                row[i] += weight * p
                for j, q in share.items():
                    row[j] -= weight * p * q
        return gradient, information


Placing = tuple[tuple[int, str], ...]
"""A game's ``(rank, bot)`` pairs, sorted: its result without the seats, which do not
matter to the model."""


def placings(results: Iterable[tuple[Sequence[str], Sequence[int], int]]) -> dict[Placing, int]:
    """How many games had each placing, of ``(seating, ranks, count)`` results: a long run
    has many more distinct results than placings (the same finish from other seats)."""
    counts: dict[Placing, int] = {}
    for seating, ranks, count in results:
        key = tuple(sorted(zip(ranks, seating, strict=True)))
        counts[key] = counts.get(key, 0) + count
    return counts


def fit_plackett_luce(
    results: Iterable[tuple[tuple[Sequence[str], Sequence[int]], int]],
) -> dict[str, Rating]:
    """Fit ratings to distinct ``((seating, ranks), count)`` results: ``seating[k]`` is the
    bot in seat ``k``, ``ranks[k]`` its place (1 first, equal ranks tie), ``count`` how many
    games had that result. Bots of results without two different bots get no rating."""
    return fit_placings(placings((seating, ranks, count) for (seating, ranks), count in results))


def fit_placings(counts: Mapping[Placing, int]) -> dict[str, Rating]:
    """Fit ratings to games counted by :func:`placings`."""
    fit = fit_strengths(counts)
    if not fit.index:
        return {}
    return centred_ratings(fit.index, fit.r, fit.information)


@dataclass(frozen=True)
class StrengthFit:
    """The maximum of the likelihood: each bot's log-strength ``r[index[bot]]`` (0 is the
    prior's opponent) and the Fisher information there, whose inverse is the covariance
    of the ``r``: what the ratings and their error bars are made of, and what a league's
    matchmaking weighs its next games by."""

    index: Mapping[str, int]
    r: Sequence[float]
    information: Sequence[Sequence[float]]


def fit_strengths(counts: Mapping[Placing, int], bots: Iterable[str] = ()) -> StrengthFit:
    """Fit log-strengths to games counted by :func:`placings`, for the bots of those
    games and ``bots`` (a bot without a game has the prior's strength, 0, and its
    spread).

    Only the finishing order matters, not the values of the ranks, so the placings are
    merged by order first, and sorted, so that the fit does the same arithmetic whatever
    order the games come in.
    """
    orders: dict[tuple[tuple[str, ...], ...], int] = {}
    for key, count in counts.items():
        if len({bot for _, bot in key}) < 2:
            continue
        groups: dict[int, list[str]] = {}
        for rank, bot in key:
            groups.setdefault(rank, []).append(bot)
        order = tuple(tuple(group) for group in groups.values())
        orders[order] = orders.get(order, 0) + count
    names = sorted({bot for order in orders for group in order for bot in group}.union(bots))
    index = {bot: i for i, bot in enumerate(names)}
    choices = _Choices(chosen=[0.0] * len(index))
    for order, count in sorted(orders.items()):
        choices.add([[index[bot] for bot in group] for group in order], count)
    if not index:
        return StrengthFit({}, [], [])
    r, information = maximise([0.0] * len(index), choices.log_likelihood, choices.derivatives)
    return StrengthFit(index, r, information)


class PlackettLuceScorer(Scorer):
    """Maximum-likelihood Plackett-Luce ratings (Bradley-Terry with two seats) on the Elo
    scale, with 95 % error bars, for games of any number of seats: see the module.

    Rows show the rating, its error bar, the games rated and the mean rank in them (a bot
    seated twice in a game counts once per seat). Bots without a rated game have no rating.
    """

    name = "plackett-luce"
    summary = (
        "maximum-likelihood Plackett-Luce ratings on the Elo scale for any number of seats, "
        "with 95% error bars (ties count as every order alike)"
    )
    order_free = True

    def score(self, games: Sequence[GameResult], bots: Sequence[str]) -> Standings:
        counts = placings((game.seating, game.ranks, count) for game, count in tallied(games))
        played = dict.fromkeys(bots, 0)
        rank_sum = dict.fromkeys(bots, 0)
        lonely = 0
        for key, count in counts.items():
            if len({bot for _, bot in key}) < 2:
                lonely += count
                continue
            for rank, bot in key:
                played[bot] += count
                rank_sum[bot] += rank * count
        ratings = fit_placings(counts)
        rows = rating_rows(
            bots,
            ratings,
            lambda bot: (
                played[bot],
                round(rank_sum[bot] / played[bot], 2) if played[bot] else None,
            ),
        )
        notes = []
        if lonely:
            notes.append(f"{plural(lonely, 'game')} without two different bots skipped")
        return Standings(
            title="Plackett-Luce",
            columns=("bot", "rating", "±95%", "games", "mean rank"),
            rows=rows,
            notes=notes,
            estimate="Plackett-Luce rating (Elo scale), 95% interval",
            estimates=rating_estimates(ratings),
        )
