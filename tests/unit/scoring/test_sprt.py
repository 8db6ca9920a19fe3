"""The pentanomial SPRT: published reference values, independent references, and the
properties any SPRT must have (bounds, symmetry, decisions, the Elo estimate).

Published values used (each test names its source):

- fastchess, https://github.com/Disservin/fastchess, ``app/tests/sprt_test.cpp`` (commit
  0cbac4988fbac5bbe90716a4c36737c00c238bc5): pentanomial LLRs to two decimals. Its
  ``Stats(ll, ld, wl, dd, wd, ww)`` counts pair outcomes; WL and DD both total 1 point,
  so the pentanomial is ``(ll, ld, wl + dd, wd, ww)`` (app/src/matchmaking/stats.hpp).
- fastchess, ``app/tests/elo_test.cpp`` (commit 2f5e88819ee01f879ed3078208092099f04cfba3):
  pentanomial logistic Elo and the half-width of its 95 % interval, to two decimals.
- A fishtest instance's raw statistics page (fishtest's own code computes it),
  https://montytest.muzhen.org/tests/stats/69d3c8dc7c5b3724e29d2712: pentanomial
  [13, 37, 50, 25, 3], normalized bounds [0, 4], "Normalized (exact)" LLR -0.54912,
  "Logistic (exact)" LLR -0.53772 (for the bounds converted to logistic Elo), Elo -43.6578.

Where no published number exists the test computes a reference itself, by a method other
than the module's: the module solves the Lagrange conditions of the constrained maximum
likelihood for their multiplier; the references below maximise the concave dual function
by golden-section search (mean constraint), or profile the likelihood over the standard
deviation with a two-constraint dual solved by Newton's method (t-value constraint).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import get_args

import pytest

from arena_kernel.scoring import sprt as sprt_module
from arena_kernel.scoring.sprt import (
    NELO_PER_T,
    PAIR_SCORES,
    REGULARISATION,
    Model,
    SprtResult,
    SprtSettings,
    bounds,
    elo_to_score,
    llr,
    pentanomial,
    pentanomial_column,
    score_to_elo,
    sprt,
)

LN19 = math.log(19)


def fastchess(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> tuple[int, ...]:
    """fastchess's six pair outcomes as a pentanomial (WL and DD both score 1 of 2)."""
    return (ll, ld, wl + dd, wd, ww)


def regularised(counts: Sequence[int]) -> tuple[float, list[float]]:
    """Pairs and empirical distribution with empty bins given a thousandth of a pair, as
    fishtest's LLRcalc.regularize does."""
    filled = [float(n) if n else 1e-3 for n in counts]
    total = sum(filled)
    return total, [n / total for n in filled]


def moments(p: Sequence[float]) -> tuple[float, float]:
    mu = sum(q * a for q, a in zip(p, PAIR_SCORES, strict=True))
    return mu, sum(q * (a - mu) ** 2 for q, a in zip(p, PAIR_SCORES, strict=True))


# --- Independent references -------------------------------------------------------------


def golden_max(f: Callable[[float], float], lo: float, hi: float, steps: int = 300) -> float:
    """The maximum of a unimodal function on [lo, hi] by golden-section search."""
    ratio = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    f1, f2 = f(x1), f(x2)
    for _ in range(steps):
        if f1 < f2:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + ratio * (hi - lo)
            f2 = f(x2)
        else:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - ratio * (hi - lo)
            f1 = f(x1)
    return max(f1, f2)


def reference_mean_fit(phat: Sequence[float], target: float) -> float:
    """max over p with mean ``target`` of sum p̂ ln(p / p̂), by convex duality: it equals
    ``-max_θ sum p̂ ln(1 + θ (a - target))`` (Owen's empirical likelihood), the dual being
    concave on the θ where every term is defined. Maximised by golden section, no root."""
    shifts = [a - target for a in PAIR_SCORES]
    lo, hi = -1 / max(shifts), -1 / min(shifts)
    span = hi - lo

    def dual(theta: float) -> float:
        terms = [1 + theta * s for s in shifts]
        if min(terms) <= 0:
            return -math.inf
        return sum(p * math.log(t) for p, t in zip(phat, terms, strict=True))

    return -golden_max(dual, lo + 1e-15 * span, hi - 1e-15 * span)


def reference_logistic_llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    total, phat = regularised(counts)
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return total * (reference_mean_fit(phat, s1) - reference_mean_fit(phat, s0))


def two_moment_fit(phat: Sequence[float], mean: float, var: float) -> float:
    """max over p with the given (attainable) mean and variance of sum p̂ ln(p / p̂):
    ``-max_λ sum p̂ ln(1 + λ·g)`` with ``g = (a - mean, (a - mean)² - var)``, the dual
    being concave; maximised by damped Newton steps."""
    g = [(a - mean, (a - mean) ** 2 - var) for a in PAIR_SCORES]

    def value(lam: tuple[float, float]) -> float:
        terms = [1 + lam[0] * g1 + lam[1] * g2 for g1, g2 in g]
        if min(terms) <= 0:
            return -math.inf
        return sum(p * math.log(t) for p, t in zip(phat, terms, strict=True))

    lam = (0.0, 0.0)
    current = 0.0
    for _ in range(60):
        grad = [0.0, 0.0]
        hess = [[0.0, 0.0], [0.0, 0.0]]
        for p, (g1, g2) in zip(phat, g, strict=True):
            t = 1 + lam[0] * g1 + lam[1] * g2
            grad[0] += p * g1 / t
            grad[1] += p * g2 / t
            for i, gi in enumerate((g1, g2)):
                for j, gj in enumerate((g1, g2)):
                    hess[i][j] -= p * gi * gj / t**2
        det = hess[0][0] * hess[1][1] - hess[0][1] * hess[1][0]
        if not det > 0:  # flat to rounding: as good as it gets
            break
        step = (
            -(hess[1][1] * grad[0] - hess[0][1] * grad[1]) / det,
            -(-hess[1][0] * grad[0] + hess[0][0] * grad[1]) / det,
        )
        # Newton's decrement: how much a full step would still gain, about.
        if grad[0] * step[0] + grad[1] * step[1] < 1e-20:
            break
        scale = 1.0
        while scale > 1e-12:
            trial = (lam[0] + scale * step[0], lam[1] + scale * step[1])
            trial_value = value(trial)
            if trial_value >= current:
                break
            scale /= 2
        else:
            break
        lam, current = trial, trial_value
    return -current


def attainable(mean: float, var: float) -> bool:
    """Whether a distribution with every pair score's probability positive has this mean
    and variance: whether (mean, mean² + var) lies strictly inside the convex hull of the
    points (a, a²), which is bounded above by the chord y = x and below by the broken
    line through the points."""
    if not 0 < mean < 1:
        return False
    second = mean * mean + var
    k = min(int(mean * 4), 3)
    a, b = PAIR_SCORES[k], PAIR_SCORES[k + 1]
    floor = a * a + (b * b - a * a) * (mean - a) / (b - a)
    return floor < second < mean


def reference_t_fit(phat: Sequence[float], t: float) -> float:
    """max over p with ``(mean - 1/2) / sd == t`` of sum p̂ ln(p / p̂): for each sd the
    constraint fixes the mean (1/2 + t sd) and the variance, a convex two-moment problem;
    the profile over the sd is scanned on a grid and its best point refined by golden
    section."""

    def profile(sigma: float) -> float:
        mean = 0.5 + t * sigma
        if not attainable(mean, sigma * sigma):
            return -math.inf
        return two_moment_fit(phat, mean, sigma * sigma)

    grid = [0.5 * k / 100 for k in range(1, 100)]
    values = [profile(s) for s in grid]
    best = max(range(len(grid)), key=values.__getitem__)
    lo = grid[best - 1] if best > 0 else 1e-9
    hi = grid[best + 1] if best + 1 < len(grid) else 0.5
    return golden_max(profile, lo, hi, steps=80)


def reference_normalized_llr(counts: Sequence[int], nelo0: float, nelo1: float) -> float:
    total, phat = regularised(counts)
    t0, t1 = (math.sqrt(2) * nelo / (800 / math.log(10)) for nelo in (nelo0, nelo1))
    return total * (reference_t_fit(phat, t1) - reference_t_fit(phat, t0))


# --- Settings, bounds, counting ------------------------------------------------------------


def test_bounds_for_five_percent_errors_are_ln_19() -> None:
    lower, upper = bounds(SprtSettings(0, 5))
    assert lower == pytest.approx(-LN19, abs=1e-12)
    assert upper == pytest.approx(LN19, abs=1e-12)
    assert round(upper, 3) == 2.944


def test_bounds_follow_wald() -> None:
    lower, upper = bounds(SprtSettings(0, 5, alpha=0.01, beta=0.2))
    assert lower == pytest.approx(math.log(0.2 / 0.99))
    assert upper == pytest.approx(math.log(0.8 / 0.01))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"elo0": 5, "elo1": 0}, "elo0 must be less than elo1"),
        ({"elo0": 2, "elo1": 2}, "elo0 must be less than elo1"),
        ({"elo0": 0, "elo1": 5, "alpha": 0}, "alpha must be between 0 and 0.5"),
        ({"elo0": 0, "elo1": 5, "alpha": 0.5}, "alpha must be between 0 and 0.5"),
        ({"elo0": 0, "elo1": 5, "beta": -0.1}, "beta must be between 0 and 0.5"),
        ({"elo0": 0, "elo1": 5, "beta": 0.7}, "beta must be between 0 and 0.5"),
        ({"elo0": 0, "elo1": math.inf}, "elo1 must be finite"),
        ({"elo0": math.nan, "elo1": 5}, "elo0 must be finite"),
        ({"elo0": 0, "elo1": 5, "model": "bayesian"}, "model must be 'logistic' or"),
        ({"elo0": 0, "elo1": 100_000}, "too far from 0 for logistic Elo"),
        ({"elo0": "0", "elo1": 5}, "elo0 must be a number"),
    ],
)
def test_settings_are_validated(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SprtSettings(**kwargs)  # type: ignore[arg-type]


def test_settings_defaults() -> None:
    settings = SprtSettings(0, 2)
    assert (settings.alpha, settings.beta, settings.model) == (0.05, 0.05, "logistic")


def test_pentanomial_counts_pair_totals() -> None:
    assert pentanomial([0, 0.5, 1, 1.5, 2, 2, 1, 1.0]) == (1, 1, 3, 1, 2)
    assert pentanomial([]) == (0, 0, 0, 0, 0)
    assert pentanomial(iter([2.0, 2.0])) == (0, 0, 0, 0, 2)


def test_a_pair_total_has_its_pentanomial_column() -> None:
    totals = [0, 0.5, 1, 1.5, 2, 2.0, 1.0]
    assert [pentanomial_column(total) for total in totals] == [0, 1, 2, 3, 4, 4, 2]


@pytest.mark.parametrize("bad", [0.25, 3, -0.5, 2.5, math.nan, math.inf])
def test_an_impossible_pair_total_has_no_column(bad: float) -> None:
    with pytest.raises(ValueError, match=r"0, 0\.5, 1, 1\.5 or 2"):
        pentanomial_column(bad)
    with pytest.raises(ValueError, match=r"0, 0\.5, 1, 1\.5 or 2"):
        pentanomial([1, bad])


@pytest.mark.parametrize(
    "counts",
    [(1, 2, 3), (1, 2, 3, 4, 5, 6), (1, -1, 0, 0, 0), (1.5, 2, 3, 4, 5), (True, 0, 0, 0, 1)],
)
def test_llr_rejects_malformed_counts(counts: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="pentanomial"):
        llr(counts, SprtSettings(0, 5))


# --- Published reference values -------------------------------------------------------------

# fastchess app/tests/sprt_test.cpp, "logistic pentanomial 1" and "2" and "normalized
# pentanomial 1" and "2" (Stats in fastchess's six-outcome order; LLR to two decimals).
FASTCHESS_LLR = [
    (fastchess(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    (fastchess(871, 26175, 55003, 980, 26678, 821), 0.0, 2.0, "logistic", -4.98),
    (fastchess(365, 16618, 36029, 200, 16974, 390), 0.0, 2.0, "normalized", 2.25),
    (fastchess(127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "model", "published"), FASTCHESS_LLR)
def test_llr_matches_fastchess(
    counts: tuple[int, ...], elo0: float, elo1: float, model: Model, published: float
) -> None:
    settings = SprtSettings(elo0, elo1, model=model)
    # Published to two decimals: within rounding (0.005) plus a hair.
    assert llr(counts, settings) == pytest.approx(published, abs=0.006)


MONTY = (13, 37, 50, 25, 3)
"""The pentanomial of https://montytest.muzhen.org/tests/stats/69d3c8dc7c5b3724e29d2712."""


def test_normalized_llr_matches_fishtest_stats_page() -> None:
    # "Normalized (exact)" -0.54912 for normalized bounds [0, 4] on the page above.
    assert llr(MONTY, SprtSettings(0, 4, model="normalized")) == pytest.approx(-0.54912, abs=6e-6)


def test_logistic_llr_matches_fishtest_stats_page() -> None:
    # The page converts the normalized bounds [0, 4] to logistic Elo through the
    # per-game standard deviation, sqrt(2 * variance of the pair scores): 0 and 2.716
    # (shown rounded; the page's "Logistic (exact)" LLR -0.53772 uses the unrounded one).
    _, phat = regularised(MONTY)
    mu, var = moments(phat)
    assert mu == pytest.approx(0.4375)
    assert var == pytest.approx(0.05762, abs=1e-5)
    elo1 = score_to_elo(4 / NELO_PER_T * math.sqrt(2 * var) + 0.5)
    assert elo1 == pytest.approx(2.716, abs=5e-4)
    assert llr(MONTY, SprtSettings(0, elo1)) == pytest.approx(-0.53772, abs=6e-6)
    # The same page's Elo (-43.6578) is the logistic Elo of the mean score 0.4375.
    assert sprt(MONTY, SprtSettings(0, elo1)).elo == pytest.approx(-43.6578, abs=1e-4)


# fastchess app/tests/elo_test.cpp, "EloPentanomial 1" to "3": logistic Elo and the
# half-width of its 95 % interval (fastchess prints the interval as elo ± error).
FASTCHESS_ELO = [
    (fastchess(34, 54, 31, 32, 64, 75), 55.58, 27.65),
    (fastchess(332, 433, 457, 41, 333, 334), -8.64, 10.33),
    (fastchess(7895, 8757, 5485, 200, 568, 9999), -21.04, 2.95),
]


@pytest.mark.parametrize(("counts", "elo", "error"), FASTCHESS_ELO)
def test_elo_estimate_matches_fastchess(counts: tuple[int, ...], elo: float, error: float) -> None:
    result = sprt(counts, SprtSettings(0, 5))
    assert result.elo == pytest.approx(elo, abs=0.006)
    assert (result.elo_high - result.elo_low) / 2 == pytest.approx(error, abs=0.006)
    assert result.elo_low < result.elo < result.elo_high


# --- Independent references -----------------------------------------------------------------

CASES = [
    MONTY,
    fastchess(223, 9863, 20279, 1000, 10037, 246),
    fastchess(127, 4883, 10311, 401, 5150, 104),
    (0, 3, 10, 4, 1),
    (5, 0, 7, 0, 2),  # empty bins: regularised
    (0, 0, 3, 0, 0),  # every pair drawn
    (1, 0, 0, 0, 0),  # a single pair
    (40, 120, 300, 180, 60),
]


def random_cases(count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    cases: list[tuple[int, ...]] = []
    for _ in range(count):
        weights = [rng.random() ** 2 for _ in range(5)]
        pairs = rng.choice([10, 100, 1000, 20000])
        cases.append(tuple(round(pairs * w / sum(weights)) for w in weights))
    return cases


@pytest.mark.parametrize("counts", CASES + random_cases(8, seed=1))
@pytest.mark.parametrize(("elo0", "elo1"), [(0.0, 5.0), (-3.0, 1.0), (-20.0, 40.0)])
def test_logistic_llr_matches_dual_golden_section(
    counts: tuple[int, ...], elo0: float, elo1: float
) -> None:
    expected = reference_logistic_llr(counts, elo0, elo1)
    assert llr(counts, SprtSettings(elo0, elo1)) == pytest.approx(expected, rel=1e-7, abs=1e-7)


@pytest.mark.parametrize("counts", CASES + random_cases(2, seed=2))
@pytest.mark.parametrize(("nelo0", "nelo1"), [(0.0, 5.0), (-1.75, 0.25), (-20.0, 24.0)])
def test_normalized_llr_matches_profile_likelihood(
    counts: tuple[int, ...], nelo0: float, nelo1: float
) -> None:
    expected = reference_normalized_llr(counts, nelo0, nelo1)
    settings = SprtSettings(nelo0, nelo1, model="normalized")
    assert llr(counts, settings) == pytest.approx(expected, rel=1e-6, abs=1e-6)


def test_every_pair_won_has_the_analytic_llr() -> None:
    # With every pair WW, the best distribution of mean s puts s on WW and the rest on LL,
    # so the logistic LLR is N ln(s1 / s0); with t-value t it puts (1 + t / sqrt(1 + t²))
    # / 2 on WW. (Up to the regularisation's thousandths of a pair in the empty bins.)
    # fastchess's sprt_test.cpp "normalized pentanomial 3" publishes 2.94 for 104 such
    # pairs and bounds [0, 5]; the constrained maximum likelihood cannot exceed the
    # 2.0958 below, so that value is not used here.
    n = 104
    s0, s1 = elo_to_score(0), elo_to_score(5)
    logistic = llr((0, 0, 0, 0, n), SprtSettings(0, 5))
    assert logistic == pytest.approx(n * math.log(s1 / s0), rel=1e-3)
    t1 = math.sqrt(2) * 5 / NELO_PER_T
    normalized = llr((0, 0, 0, 0, n), SprtSettings(0, 5, model="normalized"))
    assert normalized == pytest.approx(n * math.log(1 + t1 / math.sqrt(1 + t1 * t1)), rel=1e-3)
    assert normalized == pytest.approx(reference_normalized_llr((0, 0, 0, 0, n), 0, 5), rel=1e-6)


@pytest.mark.parametrize(
    "counts", [(21, 70, 160, 80, 19), (100, 450, 900, 470, 110), (1000, 4000, 10000, 4100, 1050)]
)
def test_logistic_llr_is_close_to_the_normal_approximation(counts: tuple[int, ...]) -> None:
    # For small Elo bounds and a score near them, LLR ≈ N (s1 - s0) (2 mu - s0 - s1) /
    # (2 var) (Van den Bergh, https://www.cantate.be/Fishtest/GSPRT_approximation.pdf;
    # fishtest's LLR_alt2): mu and var of the pair scores on the per-game scale.
    pairs, phat = regularised(counts)
    mu, var = moments(phat)
    s0, s1 = elo_to_score(-1), elo_to_score(3)
    approximation = pairs * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)
    assert llr(counts, SprtSettings(-1, 3)) == pytest.approx(approximation, rel=0.01, abs=0.01)


# --- Properties -----------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["logistic", "normalized"])
@pytest.mark.parametrize("counts", CASES + random_cases(4, seed=3))
def test_swapping_the_bots_negates_the_llr(counts: tuple[int, ...], model: Model) -> None:
    # Bot B's pentanomial is A's reversed; "A is elo stronger" is "B is -elo stronger",
    # so H0 and H1 trade places and the LLR changes sign.
    forward = llr(counts, SprtSettings(-1, 4, model=model))
    backward = llr(counts[::-1], SprtSettings(-4, 1, model=model))
    assert backward == pytest.approx(-forward, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("model", ["logistic", "normalized"])
@pytest.mark.parametrize("counts", [(3, 10, 20, 10, 3), (0, 7, 1, 7, 0), (1, 0, 0, 0, 1)])
def test_symmetric_counts_and_bounds_give_zero(counts: tuple[int, ...], model: Model) -> None:
    assert llr(counts, SprtSettings(-5, 5, model=model)) == pytest.approx(0, abs=1e-9)


def test_elo_of_swapped_bots_is_mirrored() -> None:
    counts = (4, 11, 30, 16, 2)
    forward, backward = sprt(counts, SprtSettings(0, 5)), sprt(counts[::-1], SprtSettings(0, 5))
    assert backward.elo == pytest.approx(-forward.elo)
    assert backward.elo_low == pytest.approx(-forward.elo_high)
    assert backward.elo_high == pytest.approx(-forward.elo_low)


@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_llr_scales_with_the_number_of_pairs(model: Model) -> None:
    # Same distribution, k times the pairs: k times the evidence (no empty bins, so the
    # regularisation plays no part).
    counts = (21, 70, 160, 80, 19)
    settings = SprtSettings(0, 5, model=model)
    base = llr(counts, settings)
    assert llr(tuple(7 * n for n in counts), settings) == pytest.approx(7 * base, rel=1e-9)


@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_strongly_favourable_counts_accept_h1(model: Model) -> None:
    result = sprt((10, 60, 250, 400, 180), SprtSettings(0, 5, model=model))
    assert result.llr >= result.upper
    assert result.decision == "H1"
    assert result.elo > 100


@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_unfavourable_counts_accept_h0(model: Model) -> None:
    result = sprt((180, 400, 250, 60, 10), SprtSettings(0, 5, model=model))
    assert result.llr <= result.lower
    assert result.decision == "H0"
    assert result.elo < -100


def test_even_counts_accept_h0_of_no_gain_only_after_many_pairs() -> None:
    settings = SprtSettings(0, 5)
    assert sprt((10, 40, 100, 40, 10), settings).decision is None
    assert sprt((1000, 4000, 10000, 4000, 1000), settings).decision == "H0"


def test_llr_at_the_upper_bound_decides_h1() -> None:
    # The decision is inclusive at the bounds: find counts with an LLR past the bound
    # and check the result agrees with the comparison.
    settings = SprtSettings(0, 10)
    for wins in range(0, 400):
        result = sprt((0, 100, 200, 100 + wins, 0), settings)
        assert result.decision == ("H1" if result.llr >= result.upper else None)
        if result.decision:
            break
    else:
        pytest.fail("no decision reached")


@pytest.mark.parametrize("counts", [(5, 20, 50, 20, 5), (3, 0, 0, 0, 3), (0, 0, 9, 0, 0)])
def test_elo_of_equal_wins_and_losses_is_zero(counts: tuple[int, ...]) -> None:
    result = sprt(counts, SprtSettings(0, 5))
    assert result.elo == pytest.approx(0, abs=1e-9)
    assert result.elo_low <= 0 <= result.elo_high
    assert result.elo_low == pytest.approx(-result.elo_high)


def test_interval_shrinks_with_more_pairs() -> None:
    counts = (12, 45, 110, 50, 14)
    widths = []
    for k in (1, 10, 100):
        result = sprt(tuple(k * n for n in counts), SprtSettings(0, 5))
        assert result.elo == pytest.approx(sprt(counts, SprtSettings(0, 5)).elo)
        widths.append(result.elo_high - result.elo_low)
    assert widths[0] > widths[1] > widths[2] > 0
    # The score's interval narrows as 1/sqrt(pairs); Elo is nearly linear in score here.
    assert widths[1] / widths[0] == pytest.approx(1 / math.sqrt(10), rel=0.02)
    assert widths[2] / widths[1] == pytest.approx(1 / math.sqrt(10), rel=0.02)


def test_no_pairs_decide_nothing() -> None:
    assert llr((0, 0, 0, 0, 0), SprtSettings(0, 5)) == 0
    assert sprt((0, 0, 0, 0, 0), SprtSettings(0, 5, model="normalized")) == SprtResult(
        llr=0.0,
        lower=-LN19,
        upper=LN19,
        decision=None,
        pairs=0,
        elo=0.0,
        elo_low=-math.inf,
        elo_high=math.inf,
    )


def test_one_pair_is_finite_and_undecided() -> None:
    for model in get_args(Model):
        for counts in [(0, 0, 0, 0, 1), (1, 0, 0, 0, 0), (0, 0, 1, 0, 0)]:
            result = sprt(counts, SprtSettings(0, 5, model=model))
            assert math.isfinite(result.llr)
            assert result.decision is None
            assert result.pairs == 1


def test_elo_is_infinite_when_every_pair_is_won_or_lost() -> None:
    won = sprt((0, 0, 0, 0, 7), SprtSettings(0, 5))
    assert (won.elo, won.elo_low, won.elo_high) == (math.inf, math.inf, math.inf)
    lost = sprt((7, 0, 0, 0, 0), SprtSettings(0, 5))
    assert (lost.elo, lost.elo_low, lost.elo_high) == (-math.inf, -math.inf, -math.inf)


def test_regularisation_is_a_thousandth_of_a_pair() -> None:
    # One empty bin changes the LLR only through a thousandth of a pair.
    assert REGULARISATION == 1e-3
    with_empty = llr((0, 30, 60, 30, 10), SprtSettings(0, 5))
    with_one = llr((1, 30, 60, 30, 10), SprtSettings(0, 5))
    assert with_empty > with_one
    assert math.isfinite(with_empty)


@pytest.mark.parametrize("counts", CASES[:3])
@pytest.mark.parametrize(("nelo0", "nelo1"), [(0.0, 5.0), (-20.0, 24.0)])
def test_global_normalized_search_agrees_with_the_fixed_point(
    counts: tuple[int, ...], nelo0: float, nelo1: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The module's second way to the normalized fit (a profile over the sd, for bounds
    # far out where the fixed-point search does not settle) gives the same LLR as the
    # first wherever that one settles.
    settings = SprtSettings(nelo0, nelo1, model="normalized")
    fixed_point = llr(counts, settings)
    monkeypatch.setattr(sprt_module, "_settle_t_value", lambda *args: None)
    assert llr(counts, settings) == pytest.approx(fixed_point, rel=1e-7, abs=1e-7)


@pytest.mark.parametrize(
    ("counts", "nelo", "fixed_point"),
    [
        ((0, 0, 1, 0, 0), 300.0, "unsettled"),
        ((266, 188, 394, 151, 0), 300.0, "unsettled"),
        ((0, 0, 62, 24, 14), 700.0, "unsettled"),
        ((0, 445, 48680, 875, 0), -150.0, "lower peak"),
    ],
)
def test_far_normalized_bounds_find_the_best_fit(
    counts: tuple[int, ...], nelo: float, fixed_point: str
) -> None:
    # Bounds of hundreds of normalized Elo, where the fixed-point search from the uniform
    # distribution does not settle, or settles on a lower peak of the likelihood. The fit
    # found must be at least as good as the reference's (a search for a maximum can only
    # fall short of it) and, where the fixed point settled, better than that.
    _, phat = regularised(counts)
    t = math.sqrt(2) * nelo / NELO_PER_T
    found = sprt_module._fit_t_value(phat, t)
    assert found is not None
    assert found >= reference_t_fit(phat, t) - 1e-9
    settled = sprt_module._settle_t_value(phat, t, [0.2] * 5)
    if fixed_point == "unsettled":
        assert settled is None
    else:
        assert settled is not None
        assert settled[0] < found - 1e-3
    nelo0, nelo1 = sorted((0.0, nelo))
    expected = reference_normalized_llr(counts, nelo0, nelo1)
    assert llr(counts, SprtSettings(nelo0, nelo1, model="normalized")) == pytest.approx(
        expected, rel=1e-6, abs=1e-6
    )


@pytest.mark.parametrize("nelo", [1500.0, 50_000.0])
def test_huge_normalized_bounds_still_give_a_finite_llr(nelo: float) -> None:
    # Bounds far outside what any test uses (at 50 000 no distribution on the search grid
    # has the t-value, and the normal approximation stands in): the LLR is finite and
    # points the right way.
    settings = SprtSettings(0, nelo, model="normalized")
    for counts in [(30, 40, 50, 40, 30), (0, 0, 5, 0, 0)]:
        result = sprt(counts, settings)
        assert math.isfinite(result.llr)
        assert result.llr < 0
        assert result.decision == "H0"


def test_score_elo_conversions_round_trip() -> None:
    for elo in (-600.0, -35.5, 0.0, 2.0, 400.0):
        assert score_to_elo(elo_to_score(elo)) == pytest.approx(elo)
    assert elo_to_score(400) == pytest.approx(10 / 11)
    assert score_to_elo(0) == -math.inf
    assert score_to_elo(1) == math.inf
