"""A pentanomial SPRT for two-player A/B tests: is bot A stronger than bot B by elo1 rather
than by elo0?

Games are played in pairs: the same opening (or seed) twice, each bot once in each seat, so
that an unbalanced opening favours both bots equally. A pair's total score for bot A is 0,
0.5, 1, 1.5 or 2, and the five counts of those totals (the *pentanomial*) are the data. A
pair is one sample; treating its two games as independent (the trinomial model) gets the
variance wrong (as a rule too large), because the two games of a pair share their opening.

Wald's sequential probability ratio test stops as soon as the log-likelihood ratio (LLR) of
H1 (elo = elo1) against H0 (elo = elo0) leaves the interval of :func:`bounds`. Elo alone
does not fix a distribution over five outcomes, so the LLR here is the *generalized* one
(GSPRT): under each hypothesis, the likelihood is maximised over every distribution of pair
scores that satisfies it, and the LLR is the log-ratio of the two maxima. Such a maximum has
a closed form up to one Lagrange multiplier, found by a one-dimensional root search (for
normalized Elo the form also holds the fitted distribution's own mean and sd, so the search
is repeated until they settle). This is what fishtest and fastchess compute, so a run here
stops where theirs would.

Two Elo models (``SprtSettings.model``):

- ``"logistic"``: ordinary Elo; elo means an expected score per game of
  ``1 / (1 + 10 ** (-elo / 400))``. fishtest's classic bounds and fastchess's
  ``-sprt model=logistic`` use it.
- ``"normalized"``: normalized Elo, fastchess's default: the expected score's distance from
  1/2 in units of the per-game standard deviation, ``nelo = (800 / ln 10) * (mu - 1/2) /
  sigma_game``. Unlike logistic Elo it does not depend on the draw rate, so the same bounds
  cost about the same number of games whatever the draw rate. With pairs, ``sigma_game =
  sqrt(2) * sigma_pair`` (the sd of a pair's mean score), so the hypothesis is a fixed
  t-value ``(mu - 1/2) / sigma_pair = sqrt(2) * nelo / (800 / ln 10)``.

The Elo estimate :func:`sprt` reports is logistic Elo whatever the model.

Sources (read for the mathematics; the code is written afresh):

- A. Wald, "Sequential Tests of Statistical Hypotheses", Annals of Mathematical
  Statistics 16 (1945): the test and its stopping bounds.
- Michel Van den Bergh, "Comments on normalized Elo"
  (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf) and "A note on the
  maximum likelihood estimate of a multinomial distribution with a given expectation value"
  (https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf): the constrained maximum
  likelihood estimates behind the GSPRT, for a fixed expected score (Proposition 1.1) and
  for a fixed t-value (Section 4.1), and the normal approximation of Section 4.2.
- fishtest, https://github.com/official-stockfish/fishtest, ``server/fishtest/stats/``
  (``LLRcalc.py``: ``LLR_logistic``, ``LLR_normalized``, ``regularize``; ``stat_util.py``:
  the Elo estimate and its interval).
- fastchess, https://github.com/Disservin/fastchess, ``app/src/matchmaking/sprt/sprt.cpp``
  and ``app/src/matchmaking/elo/elo_pentanomial.cpp``.
- The Chessprogramming wiki, "Sequential Probability Ratio Test",
  https://www.chessprogramming.org/Sequential_Probability_Ratio_Test.

See docs/sprt.md for the formulas in one place.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

Model = Literal["logistic", "normalized"]
"""How elo0 and elo1 are measured: see the module docstring."""

Decision = Literal["H0", "H1"]

Pentanomial = tuple[int, int, int, int, int]
"""How many pairs bot A scored 0, 0.5, 1, 1.5 and 2 points in, in that order."""

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Each pentanomial bin's score per game: the pair's total over two games."""

REGULARISATION = 1e-3
"""The count given to a pentanomial bin that has none, in the LLR alone (as fishtest and
fastchess do). Without it, an outcome not seen yet would be impossible under both fitted
distributions: one such outcome, later, would swing the LLR without bound, and a run whose
pairs all had one score would have no spread at all. A thousandth of a pair is too small to
move the LLR of a real run."""

ELO_PER_LOGIT = 400 / math.log(10)
"""Logistic Elo per natural-log unit of odds (400 Elo: 10:1 odds)."""

NELO_PER_T = 800 / math.log(10)
"""Normalized Elo per unit of per-game t-value ((score - 1/2) / per-game sd)."""

Z95 = NormalDist().inv_cdf(0.975)
"""The normal quantile of a two-sided 95 % interval (1.95996...)."""

_MAX_FIXED_POINT_STEPS = 100
"""At most this many steps of the normalized fit's fixed-point search (a handful as a
rule)."""

_FIXED_POINT_TOLERANCE = 1e-10
"""The fixed-point search stops when no probability moves by more."""

_LOCAL_SEARCH_T = 0.1
"""Up to this t-value (about 25 normalized Elo, far beyond the bounds of real tests) the
normalized fit trusts its fixed-point search alone; beyond, it also searches globally."""

_PROFILE_GRID = 512
"""Grid steps over the sd range (0, 1/2) of the normalized fit's global search."""


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses and error rates of one test.

    H0 is ``elo == elo0`` and H1 is ``elo == elo1``, elo being bot A's strength over bot
    B's in the unit ``model`` names. ``alpha`` is the chance of accepting H1 when H0 holds
    (a false positive), ``beta`` of accepting H0 when H1 holds. Both stay below 1/2: at
    1/2 the test could decide on a coin toss.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: Model = "logistic"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"SPRT {name} must be a number, not {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"SPRT {name} must be finite, not {value!r}")
        if not self.elo0 < self.elo1:
            raise ValueError(
                f"SPRT elo0 must be less than elo1 (got elo0={self.elo0}, elo1={self.elo1}):"
                " H1 is the claim of the larger gain"
            )
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"SPRT {name} must be between 0 and 0.5 (exclusive), not {value}")
        if self.model not in ("logistic", "normalized"):
            raise ValueError(f"SPRT model must be 'logistic' or 'normalized', not {self.model!r}")
        if self.model == "logistic":
            s0, s1 = elo_to_score(self.elo0), elo_to_score(self.elo1)
            if not 0 < s0 < s1 < 1:
                raise ValueError(
                    f"SPRT elo0={self.elo0} and elo1={self.elo1} are too far from 0 for"
                    " logistic Elo: their expected scores are not distinct numbers strictly"
                    " between 0 and 1"
                )


@dataclass(frozen=True)
class SprtResult:
    """Where a test stands.

    ``decision`` is ``"H1"`` once ``llr >= upper``, ``"H0"`` once ``llr <= lower``, else
    ``None`` (play on). ``elo`` is bot A's logistic Elo over bot B estimated from the mean
    pair score, and ``[elo_low, elo_high]`` its 95 % confidence interval; both are
    infinite where the score (or an end of its interval) is 0 or 1, and with no pairs
    ``elo`` is 0 and the interval is unbounded.
    """

    llr: float
    lower: float
    upper: float
    decision: Decision | None
    pairs: int
    elo: float
    elo_low: float
    elo_high: float


def elo_to_score(elo: float) -> float:
    """The expected score per game of a bot ``elo`` logistic Elo stronger:
    ``1 / (1 + 10 ** (-elo / 400))``, written so that no Elo overflows."""
    x = elo / ELO_PER_LOGIT
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    odds = math.exp(x)
    return odds / (1 + odds)


def score_to_elo(score: float) -> float:
    """The logistic Elo difference of an expected score per game (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return ELO_PER_LOGIT * math.log(score / (1 - score))


def pentanomial(pair_scores: Iterable[float]) -> Pentanomial:
    """Count pairs by bot A's total over the pair's two games: 0, 0.5, 1, 1.5 or 2.

    Raises ValueError for any other total (see :func:`pentanomial_column`).
    """
    counts = [0] * 5
    for total in pair_scores:
        counts[pentanomial_column(total)] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def pentanomial_column(pair_total: float) -> int:
    """The column (0 to 4) of the pentanomial a pair whose total for bot A is
    ``pair_total`` counts in: 0, 0.5, 1, 1.5 or 2.

    Raises ValueError for any other total (a pair is two games, each worth 1, 0.5 or 0).
    """
    twice = 2 * float(pair_total)
    column = round(twice) if math.isfinite(twice) else -1
    if not 0 <= column <= 4 or abs(twice - column) > 1e-9:
        raise ValueError(f"a pair's total score must be 0, 0.5, 1, 1.5 or 2, not {pair_total!r}")
    return column


def bounds(settings: SprtSettings) -> tuple[float, float]:
    """Wald's stopping bounds ``(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))``.

    Stopping when the LLR leaves them keeps the error rates at about alpha and beta (a bit
    below: the LLR overshoots a bound when it crosses it). ±2.944 (ln 19) for 0.05 each.
    """
    return (
        math.log(settings.beta / (1 - settings.alpha)),
        math.log((1 - settings.beta) / settings.alpha),
    )


def llr(counts: Sequence[int], settings: SprtSettings) -> float:
    """The generalized log-likelihood ratio of H1 against H0 for a pentanomial.

    With ``N`` pairs, ``p̂`` the pair scores' empirical distribution (after
    :data:`REGULARISATION`) and ``p0``, ``p1`` the distributions of highest likelihood that
    satisfy H0 and H1 (see :func:`_fit_mean` and :func:`_fit_t_value`), the LLR is
    ``N * sum_i p̂_i * ln(p1_i / p0_i)``.

    0 when there are no pairs: nothing is known yet. With at least one pair the
    regularisation leaves no bin empty, so the fits exist even when every pair had the
    same score (a degenerate distribution the raw counts could not be fitted to). The one
    exception: normalized bounds of thousands of Elo, t-values so large that no
    distribution on the search grid has them; the LLR is then Van den Bergh's normal
    approximation (:func:`_normalized_approximation`), which is defined for any data.
    """
    raw = _checked(counts)
    pairs = sum(raw)
    if pairs == 0:
        return 0.0
    regularised = [float(n) if n else REGULARISATION for n in raw]
    total = sum(regularised)
    phat = [n / total for n in regularised]
    if settings.model == "logistic":
        s0, s1 = elo_to_score(settings.elo0), elo_to_score(settings.elo1)
        return total * (_fit_mean(phat, s1) - _fit_mean(phat, s0))
    t0, t1 = (math.sqrt(2) * elo / NELO_PER_T for elo in (settings.elo0, settings.elo1))
    fit0, fit1 = _fit_t_value(phat, t0), _fit_t_value(phat, t1)
    if fit0 is not None and fit1 is not None:
        return total * (fit1 - fit0)
    return _normalized_approximation(phat, total, t0, t1)


def sprt(counts: Sequence[int], settings: SprtSettings) -> SprtResult:
    """The LLR, the bounds, the decision, and bot A's Elo over bot B with its interval.

    The Elo is logistic, from the mean score per game ``mu`` of the raw counts (no
    regularisation: an estimate should not invent games), and its interval is
    ``mu ± 1.96 * sqrt(var / N)`` mapped to Elo, ``var`` being the variance of the pair
    scores (on the per-game scale 0..1) and ``N`` the number of pairs: the variance of
    pairs, not of games, as fastchess reports it (and fishtest, after regularising).
    """
    raw = _checked(counts)
    value = llr(raw, settings)
    lower, upper = bounds(settings)
    decision: Decision | None = None
    if value >= upper:
        decision = "H1"
    elif value <= lower:
        decision = "H0"
    pairs = sum(raw)
    if pairs == 0:
        elo, elo_low, elo_high = 0.0, -math.inf, math.inf
    else:
        mu = sum(n * a for n, a in zip(raw, PAIR_SCORES, strict=True)) / pairs
        var = sum(n * (a - mu) ** 2 for n, a in zip(raw, PAIR_SCORES, strict=True)) / pairs
        margin = Z95 * math.sqrt(var / pairs)
        elo = score_to_elo(mu)
        elo_low, elo_high = score_to_elo(mu - margin), score_to_elo(mu + margin)
    return SprtResult(
        llr=value,
        lower=lower,
        upper=upper,
        decision=decision,
        pairs=pairs,
        elo=elo,
        elo_low=elo_low,
        elo_high=elo_high,
    )


def _checked(counts: Sequence[int]) -> Pentanomial:
    """The counts as plain ints, or ValueError: five of them, none negative."""
    if len(counts) != 5:
        raise ValueError(f"a pentanomial has 5 counts, not {len(counts)}: {tuple(counts)!r}")
    checked: list[int] = []
    for n in counts:
        try:
            count = operator.index(n)
        except TypeError:
            count = -1
        if isinstance(n, bool) or count < 0:
            raise ValueError(f"pentanomial counts must be integers >= 0, not {n!r}")
        checked.append(count)
    return (checked[0], checked[1], checked[2], checked[3], checked[4])


def _fit_mean(phat: Sequence[float], target: float) -> float:
    """The highest mean log-likelihood ratio ``sum_i p̂_i ln(p_i / p̂_i)`` over
    distributions ``p`` of the pair scores whose mean is ``target`` (0 < target < 1).

    By Lagrange, the maximiser is ``p_i = p̂_i / (1 + θ d_i)`` with ``d_i = a_i - target``
    and θ the root of ``sum_i p̂_i d_i / (1 + θ d_i) = 0`` that keeps every ``p_i``
    positive (Van den Bergh, Proposition 1.1). Then ``ln(p_i / p̂_i) = -ln(1 + θ d_i)``.
    """
    shifts = [a - target for a in PAIR_SCORES]
    theta = _multiplier(phat, shifts)
    return -sum(p * math.log1p(theta * d) for p, d in zip(phat, shifts, strict=True))


def _fit_t_value(phat: Sequence[float], t: float) -> float | None:
    """As :func:`_fit_mean`, over distributions whose t-value ``(mu - 1/2) / sigma`` is
    ``t``; None if neither search below finds it.

    First the fixed-point search of :func:`_settle_t_value` from the uniform distribution,
    as Van den Bergh suggests (and fishtest and fastchess do): quick, and for the bounds
    of real tests it lands on the maximum. Far from 0 (|t| above
    :data:`_LOCAL_SEARCH_T`, some 25 normalized Elo) the likelihood under the constraint
    can have several peaks, the search may settle on a lower one or not settle at all, so
    :func:`_profile_t_value` also searches the whole range of standard deviations (slower
    but global), and the better fit is kept.
    """
    uniform = [1 / len(PAIR_SCORES)] * len(PAIR_SCORES)
    fit = _settle_t_value(phat, t, uniform)
    if fit is not None and abs(t) <= _LOCAL_SEARCH_T:
        return fit[0]
    found = [value for value in (_profile_t_value(phat, t),) if value is not None]
    if fit is not None:
        found.append(fit[0])
    return max(found) if found else None


def _settle_t_value(
    phat: Sequence[float], t: float, start: Sequence[float]
) -> tuple[float, list[float]] | None:
    """The fit of :func:`_fit_t_value` by a fixed-point search from ``start``: its mean
    log-likelihood ratio and the distribution, or None if the search does not settle on a
    distribution that meets the constraint.

    The stationary point of the likelihood under the constraint is again
    ``p_i = p̂_i / (1 + θ φ_i)``, now with ``φ_i = a_i - 1/2 - (t sigma / 2) (1 + ((a_i -
    mu) / sigma) ** 2)`` depending on p's own mean and sd (Van den Bergh, Section 4.1). So:
    compute φ from the current p, solve for θ, take the new p, and repeat until p stops
    moving; then check that p does meet the constraint.
    """
    p = list(start)
    theta, phi = 0.0, [0.0] * len(PAIR_SCORES)
    for _ in range(_MAX_FIXED_POINT_STEPS):
        mu, sigma = _mean_sd(p)
        if not sigma > 0:
            return None
        phi = [a - 0.5 - t * sigma / 2 * (1 + ((a - mu) / sigma) ** 2) for a in PAIR_SCORES]
        if not min(phi) < 0 < max(phi):
            return None
        theta = _multiplier(phat, phi)
        new = [q / (1 + theta * f) for q, f in zip(phat, phi, strict=True)]
        moved = max(abs(x - y) for x, y in zip(new, p, strict=True))
        p = new
        if moved < _FIXED_POINT_TOLERANCE:
            break
    # Where a bin's p is far above its p̂ (a regularised empty bin), 1 + θ φ is tiny and
    # rounding in θ makes p jitter by about 1e-9 from step to step: the loop may end
    # without settling below the tolerance. What matters is that p meets the constraint.
    mu, sigma = _mean_sd(p)
    if abs(sum(p) - 1) > 1e-7 or not sigma > 0 or abs((mu - 0.5) / sigma - t) > 1e-7:
        return None
    value = -sum(q * math.log1p(theta * f) for q, f in zip(phat, phi, strict=True))
    return value, p


def _profile_t_value(phat: Sequence[float], t: float) -> float | None:
    """The fit of :func:`_fit_t_value` as a profile over the standard deviation, or None
    if no distribution on the grid below meets the constraint.

    For each sd sigma the constraint fixes the mean at ``1/2 + t sigma``, so the best
    distribution with that sd is the best one with a given mean and variance (see
    :func:`_fit_moments`). That profile is scanned on a fine grid of sds; far from the
    data it can have several narrow peaks, so each local maximum of the grid is refined
    by golden-section search between its neighbours, and the best is kept.
    """

    def profile(sigma: float) -> float:
        return _fit_moments(phat, 0.5 + t * sigma, sigma * sigma)

    steps = _PROFILE_GRID
    grid = [0.5 * k / steps for k in range(steps + 1)]
    values = [-math.inf, *(profile(sigma) for sigma in grid[1:-1]), -math.inf]
    best = max(values)
    if best == -math.inf:
        return None
    ratio = (math.sqrt(5) - 1) / 2
    for k in range(1, steps):
        if values[k] == -math.inf or values[k] < values[k - 1] or values[k] < values[k + 1]:
            continue
        lo, hi = grid[k - 1], grid[k + 1]
        x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        f1, f2 = profile(x1), profile(x2)
        for _ in range(50):
            if f1 < f2:
                lo, x1, f1 = x1, x2, f2
                x2 = lo + ratio * (hi - lo)
                f2 = profile(x2)
            else:
                hi, x2, f2 = x2, x1, f1
                x1 = hi - ratio * (hi - lo)
                f1 = profile(x1)
        best = max(best, f1, f2)
    return best


def _fit_moments(phat: Sequence[float], mean: float, var: float) -> float:
    """The highest ``sum_i p̂_i ln(p_i / p̂_i)`` over distributions p of the pair scores
    with this mean and variance; -inf if no distribution with every ``p_i > 0`` has them.

    Two linear constraints, ``sum_i p_i g_i = 0`` with ``g_i = (a_i - mean, (a_i -
    mean)² - var)``: as in :func:`_fit_mean`, ``p_i = p̂_i / (1 + λ·g_i)``, λ now a pair,
    and the value is ``-max_λ sum_i p̂_i ln(1 + λ·g_i)``, a concave function of λ
    maximised here by Newton steps, halved until they gain.
    """
    second = mean * mean + var
    # Attainable iff (mean, second moment) lies strictly inside the convex hull of the
    # points (a, a²): under the chord from (0, 0) to (1, 1), above the broken line
    # through the points.
    if not 0 < mean < 1 or not second < mean:
        return -math.inf
    k = min(int(mean * 4), 3)
    a, b = PAIR_SCORES[k], PAIR_SCORES[k + 1]
    if not second > a * a + (a + b) * (mean - a):
        return -math.inf
    g = [(x - mean, (x - mean) ** 2 - var) for x in PAIR_SCORES]

    def dual(l1: float, l2: float) -> float:
        total = 0.0
        for q, (g1, g2) in zip(phat, g, strict=True):
            term = 1 + l1 * g1 + l2 * g2
            if term <= 0:
                return -math.inf
            total += q * math.log(term)
        return total

    l1 = l2 = current = 0.0
    for _ in range(100):
        d1 = d2 = h11 = h12 = h22 = 0.0
        for q, (g1, g2) in zip(phat, g, strict=True):
            w = q / (1 + l1 * g1 + l2 * g2)
            d1 += w * g1
            d2 += w * g2
            w2 = w / (1 + l1 * g1 + l2 * g2)
            h11 -= w2 * g1 * g1
            h12 -= w2 * g1 * g2
            h22 -= w2 * g2 * g2
        det = h11 * h22 - h12 * h12
        if not det > 0:
            break
        s1 = -(h22 * d1 - h12 * d2) / det
        s2 = -(h11 * d2 - h12 * d1) / det
        if d1 * s1 + d2 * s2 < 1e-20:
            break
        scale = 1.0
        while scale > 1e-12:
            trial = dual(l1 + scale * s1, l2 + scale * s2)
            if trial >= current:
                break
            scale /= 2
        else:
            break
        l1, l2, current = l1 + scale * s1, l2 + scale * s2, trial
    return -current


def _normalized_approximation(phat: Sequence[float], pairs: float, t0: float, t1: float) -> float:
    """Van den Bergh's normal approximation of the normalized LLR (Section 4.2, as
    fishtest's ``LLR_normalized_alt`` writes it for pairs), for bounds so far out that the
    exact fit is not found: with ``t̂`` the empirical t-value of the pairs,
    ``N * ln((1 + (t̂ - t0)² / 2) / (1 + (t̂ - t1)² / 2))``."""
    mu, sigma = _mean_sd(phat)
    t_hat = (mu - 0.5) / sigma
    return pairs * math.log((1 + (t_hat - t0) ** 2 / 2) / (1 + (t_hat - t1) ** 2 / 2))


def _mean_sd(p: Sequence[float]) -> tuple[float, float]:
    mu = sum(q * a for q, a in zip(p, PAIR_SCORES, strict=True))
    var = sum(q * (a - mu) ** 2 for q, a in zip(p, PAIR_SCORES, strict=True))
    return mu, math.sqrt(max(var, 0.0))


def _multiplier(phat: Sequence[float], shifts: Sequence[float]) -> float:
    """The θ with ``sum_i p̂_i s_i / (1 + θ s_i) = 0`` and every ``1 + θ s_i > 0``.

    Needs every ``p̂_i > 0`` and shifts of both signs. On the open interval where every
    ``1 + θ s_i > 0`` the sum falls strictly from +∞ to -∞, so the root exists and is
    unique; Newton's method finds it, a bisection step standing in whenever Newton would
    leave the bracket known to hold the root.
    """
    lo = -1 / max(shifts)
    hi = -1 / min(shifts)

    def sum_and_slope(theta: float) -> tuple[float, float]:
        value = slope = 0.0
        for p, s in zip(phat, shifts, strict=True):
            ratio = s / (1 + theta * s)
            value += p * ratio
            slope -= p * ratio * ratio
        return value, slope

    return _falling_root(sum_and_slope, lo, hi)


def _falling_root(f: Callable[[float], tuple[float, float]], lo: float, hi: float) -> float:
    """The root in the open interval (lo, hi), 0 included, of a strictly falling function
    given with its derivative, by safeguarded Newton steps."""
    theta = 0.0
    for _ in range(400):
        value, slope = f(theta)
        if value == 0:
            return theta
        if value > 0:
            lo = theta
        else:
            hi = theta
        step = theta - value / slope if slope < 0 else math.nan
        if not lo < step < hi:
            step = lo / 2 + hi / 2
        if abs(step - theta) <= 1e-15 * max(1.0, abs(theta)):
            return step
        theta = step
    return theta
