"""The plackett-luce scorer: maximum-likelihood Plackett-Luce ratings of games of any number
of seats, checked against the elo scorer, against simulated games of known strengths, and
against a log-likelihood written out here independently of the scorer."""

from __future__ import annotations

import itertools
import math
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import NormalDist

import pytest

from arena_kernel.model import Standings, cell
from arena_kernel.runner.api import prepare, run_match
from arena_kernel.scoring.builtin import arena_register_scorers
from arena_kernel.scoring.elo import EloScorer
from arena_kernel.scoring.plackett_luce import PlackettLuceScorer, fit_plackett_luce
from arena_kernel.store import StoredGame

Result = tuple[Sequence[str], Sequence[int]]
ELO_PER_LOGIT = 400 / math.log(10)  # written out again: the tests do not borrow the scale


def stored(results: Sequence[Result], *, void: bool = False, start: int = 0) -> list[StoredGame]:
    """One stored game per ``(seating, ranks)``, indexed in order from ``start``."""
    return [
        StoredGame(start + n + 1, start + n, tuple(s), tuple(r), None, void, frozenset(), "t")
        for n, (s, r) in enumerate(results)
    ]


def rate(results: Sequence[Result], bots: Sequence[str]) -> Standings:
    return PlackettLuceScorer().standings(stored(results), bots)


def ratings(results: Sequence[Result]) -> dict[str, float]:
    return {bot: r.elo for bot, r in fit_plackett_luce([(result, 1) for result in results]).items()}


def place(rng: random.Random, elo: dict[str, float], seating: Sequence[str]) -> list[int]:
    """The ranks of one Plackett-Luce game: each place drawn among the seats not yet placed,
    in proportion to ``10 ** (elo / 400)``."""
    left, ranks = list(range(len(seating))), [0] * len(seating)
    for rank in range(1, len(seating) + 1):
        weights = [10 ** (elo[seating[k]] / 400) for k in left]
        seat = rng.choices(left, weights)[0]
        ranks[seat] = rank
        left.remove(seat)
    return ranks


def simulate(rng: random.Random, elo: dict[str, float], games: int) -> list[Result]:
    """``games`` games of 3 to 6 seats, each among bots drawn at random."""
    bots = sorted(elo)
    results: list[Result] = []
    for _ in range(games):
        seating = rng.sample(bots, rng.randint(3, 6))
        results.append((seating, place(rng, elo, seating)))
    return results


def test_registered_as_a_builtin_scorer() -> None:
    registered: list[type] = []
    arena_register_scorers(register=registered.append)
    assert PlackettLuceScorer in registered
    assert PlackettLuceScorer.name == "plackett-luce" and PlackettLuceScorer.summary


def test_the_table() -> None:
    table = rate(
        [(("a", "b", "c"), (1, 2, 3)), (("c", "a"), (2, 1)), (("b", "c", "a"), (1, 2, 2))],
        ["a", "b", "c", "idle"],
    )
    assert table.title == "Plackett-Luce"
    assert table.columns == ("bot", "rating", "±95%", "games", "mean rank")
    assert table.estimate == "Plackett-Luce rating (Elo scale), 95% interval"
    # a and b beat each other once and c twice each, but a also tied with c once.
    assert [row[0] for row in table.rows] == ["b", "a", "c", "idle"]
    assert [row[3:] for row in table.rows] == [(2, 1.5), (3, 1.33), (3, 2.33), (0, None)]
    assert table.rows[-1] == ("idle", None, None, 0, None) and "idle" not in table.estimates
    for bot, rating, error, *_ in table.rows[:3]:
        estimate = table.estimates[bot]
        assert estimate.low is not None and estimate.high is not None
        assert estimate.value == pytest.approx(rating, abs=0.05)
        assert estimate.high - estimate.value == pytest.approx(error, abs=0.05)
        assert estimate.value - estimate.low == pytest.approx(error, abs=0.05)
    assert sum(table.estimates[bot].value for bot in "abc") / 3 == pytest.approx(1500)
    assert table.notes == []


# -- (a) two seats: the elo scorer's model and prior ---------------------------------------


def test_two_player_games_get_the_elo_scorers_ratings_and_error_bars() -> None:
    rng = random.Random(7)
    bots = ["ann", "ben", "cat", "dan", "eve"]
    results: list[Result] = []
    for _ in range(300):
        a, b = rng.sample(bots[:4], 2)
        results.append(((a, b), rng.choice([(1, 2), (1, 2), (2, 1), (1, 1)])))
    results += [(("eve", "ann"), (1, 2))] * 5  # eve won every game: the prior holds her
    games = stored(results)
    elo, luce = EloScorer().standings(games, bots), PlackettLuceScorer().standings(games, bots)
    assert [row[0] for row in luce.rows] == [row[0] for row in elo.rows]
    assert luce.estimates.keys() == elo.estimates.keys() == set(bots)
    for bot, estimate in luce.estimates.items():
        assert estimate.value == pytest.approx(elo.estimates[bot].value, abs=1e-6)
        assert estimate.low == pytest.approx(elo.estimates[bot].low, abs=1e-6)
        assert estimate.high == pytest.approx(elo.estimates[bot].high, abs=1e-6)
    assert luce.rows[0][0] == "eve" and luce.rows[0][1] < 2500


# -- (b) known strengths, from simulated games of 3 to 6 seats ------------------------------

TRUE = {"a": 1200.0, "b": 1350.0, "c": 1450.0, "d": 1550.0, "e": 1650.0, "f": 1800.0}
"""Known strengths on the Elo scale, averaging 1500 as the fit's do."""


def test_known_strengths_are_recovered_within_the_error_bars() -> None:
    table = rate(simulate(random.Random(2024), TRUE, 3000), sorted(TRUE))
    assert [row[0] for row in table.rows] == ["f", "e", "d", "c", "b", "a"]
    for bot, elo in TRUE.items():
        estimate = table.estimates[bot]
        assert estimate.low is not None and estimate.high is not None
        assert estimate.low <= elo <= estimate.high, (bot, elo, estimate)
        assert estimate.high - estimate.low < 60, "3000 games pin a rating to a few dozen points"


def test_the_error_bars_are_honest() -> None:
    """Over many simulated runs, about 95 % of the intervals hold the true strength, and
    the bars' width matches the spread of the estimates from run to run."""
    rng = random.Random(99)
    runs, covered, errors = 60, 0, []
    spread: dict[str, list[float]] = {bot: [] for bot in TRUE}
    for _ in range(runs):
        fitted = fit_plackett_luce([(result, 1) for result in simulate(rng, TRUE, 200)])
        for bot, rating in fitted.items():
            covered += abs(rating.elo - TRUE[bot]) <= rating.error
            errors.append(rating.error)
            spread[bot].append(rating.elo)
    coverage = covered / (runs * len(TRUE))
    assert 0.9 <= coverage <= 0.99, coverage
    sd = math.sqrt(
        sum((x - TRUE[bot]) ** 2 for bot, xs in spread.items() for x in xs) / (runs * len(TRUE))
    )
    z95 = NormalDist().inv_cdf(0.975)
    assert sum(errors) / len(errors) / z95 == pytest.approx(sd, rel=0.12)


# -- (c) the fit maximises the likelihood, written out here by brute force -----------------

HAND_MADE: list[Result] = [
    (("a", "b", "c"), (1, 2, 3)),
    (("b", "c", "d", "a"), (1, 1, 3, 4)),
    (("c", "a", "d"), (1, 2, 2)),
    (("d", "b", "a", "c"), (2, 1, 4, 3)),
    (("a", "c", "b", "d"), (1, 3, 2, 2)),
    (("b", "d", "c"), (1, 2, 3)),
    (("d", "a", "b", "c"), (1, 2, 3, 4)),
    (("c", "d", "b"), (1, 1, 1)),
    (("a", "a", "d"), (2, 1, 3)),
]
"""3 and 4 seats with ties at the top, the bottom and throughout, and a bot seated twice."""


def log_likelihood(logits: dict[str, float], results: Sequence[Result]) -> float:
    """Every order of the seats that the ranks allow, alike, each scored place by place by
    the Plackett-Luce formula; plus one draw per bot against a fixed opponent at 0."""
    total = 0.0
    for seating, ranks in results:
        orders = [
            order
            for order in itertools.permutations(range(len(seating)))
            if all(ranks[x] <= ranks[y] for x, y in itertools.pairwise(order))
        ]
        for order in orders:
            strengths = [math.exp(logits[seating[seat]]) for seat in order]
            total += sum(
                math.log(strengths[k] / sum(strengths[k:])) for k in range(len(order))
            ) / len(orders)
    for x in logits.values():
        total += 0.5 * math.log(1 / (1 + math.exp(-x))) + 0.5 * math.log(1 / (1 + math.exp(x)))
    return total


def golden_max(f: Callable[[float], float], low: float, high: float) -> float:
    """The argmax of a unimodal ``f`` on [low, high]."""
    ratio = (math.sqrt(5) - 1) / 2
    while high - low > 1e-10:
        x, y = high - ratio * (high - low), low + ratio * (high - low)
        if f(x) < f(y):
            low = x
        else:
            high = y
    return (low + high) / 2


def test_the_fit_maximises_the_likelihood() -> None:
    fitted = ratings(HAND_MADE)
    assert set(fitted) == set("abcd")
    # The ratings average 1500: the shift back to logits is where the prior is highest.
    centred = {bot: (elo - 1500) / ELO_PER_LOGIT for bot, elo in fitted.items()}

    def shifted(c: float) -> dict[str, float]:
        return {bot: x + c for bot, x in centred.items()}

    best = shifted(golden_max(lambda c: log_likelihood(shifted(c), HAND_MADE), -5, 5))
    top = log_likelihood(best, HAND_MADE)
    rng = random.Random(5)
    directions = [{bot: float(bot == one) for bot in best} for one in best]
    directions += [{bot: rng.gauss(0, 1) for bot in best} for _ in range(20)]
    for direction in directions:
        for step in (0.02, -0.02):
            moved = {bot: x + step * direction[bot] for bot, x in best.items()}
            assert log_likelihood(moved, HAND_MADE) < top - 1e-7, (direction, step)
    # Not a property of any ratings: the same check fails a few points away from the fit.
    off = {bot: x + (0.05 if bot == "a" else 0.0) for bot, x in best.items()}
    plus = {bot: x + (0.07 if bot == "a" else 0.0) for bot, x in best.items()}
    assert log_likelihood(plus, HAND_MADE) < log_likelihood(off, HAND_MADE)
    assert log_likelihood(off, HAND_MADE) < top


def test_the_error_bars_are_the_inverse_information() -> None:
    """With two bots the interval has a closed form: the centred rating is half the
    difference ``d``, whose variance is one over the curvature of the log-likelihood in
    ``d``, here measured by finite differences of the brute-force log-likelihood."""
    results: list[Result] = [(("a", "b", "a"), (1, 2, 3)), (("b", "a", "a"), (2, 1, 1))] * 3
    results += [(("b", "a", "a"), (1, 2, 3))] * 2
    fitted = fit_plackett_luce([(result, 1) for result in results])
    d = (fitted["a"].elo - fitted["b"].elo) / ELO_PER_LOGIT

    def profile(diff: float) -> float:
        def at(c: float) -> float:
            return log_likelihood({"a": c + diff / 2, "b": c - diff / 2}, results)

        return at(golden_max(at, -5, 5))

    h = 1e-3
    curvature = -(profile(d + h) - 2 * profile(d) + profile(d - h)) / h**2
    assert profile(d) > profile(d + 0.01) and profile(d) > profile(d - 0.01)
    z95 = NormalDist().inv_cdf(0.975)
    expected = z95 * ELO_PER_LOGIT * math.sqrt(1 / curvature) / 2
    assert fitted["a"].error == pytest.approx(expected, rel=1e-3)
    assert fitted["b"].error == pytest.approx(expected, rel=1e-3)


# -- (d) a perfect score, and ties -----------------------------------------------------------


def test_a_bot_that_won_every_game_has_a_finite_rating() -> None:
    rng = random.Random(3)
    results: list[Result] = []
    for _ in range(40):
        seating = ["ace", *rng.sample(["b", "c", "d", "e"], rng.randint(2, 4))]
        rng.shuffle(seating)
        rest = rng.sample(range(2, len(seating) + 1), len(seating) - 1)
        ranks = [1 if bot == "ace" else rest.pop() for bot in seating]
        results.append((seating, ranks))
    table = rate(results, ["ace", "b", "c", "d", "e"])
    ace = table.rows[0]
    assert ace[0] == "ace" and ace[4] == 1.0
    assert math.isfinite(ace[1]) and 1700 < ace[1] < 2600
    assert math.isfinite(ace[2]) and 0 < ace[2] < 600
    # The last bot of a game loses to every other: finite too.
    loser = ratings([(("x", "y", "z"), (1, 2, 3))] * 20)
    assert all(math.isfinite(elo) for elo in loser.values())
    assert loser["x"] > loser["y"] > loser["z"]


def test_a_tie_counts_as_each_order_of_the_tied_bots_alike() -> None:
    tied_last = ratings([(("a", "b", "c"), (1, 2, 2))] * 2)
    broken = ratings([(("a", "b", "c"), (1, 2, 3)), (("a", "b", "c"), (1, 3, 2))])
    assert tied_last == pytest.approx(broken, abs=1e-9)
    assert tied_last["b"] == pytest.approx(tied_last["c"], abs=1e-9)

    three = ("a", "b", "c")
    tied_first = ratings([(("a", "b", "c", "d"), (1, 1, 1, 4))] * 6)
    orders = ratings(
        [
            (("a", "b", "c", "d"), (*(order.index(bot) + 1 for bot in three), 4))
            for order in itertools.permutations(three)
        ]
    )
    assert tied_first == pytest.approx(orders, abs=1e-9)
    assert tied_first["a"] == pytest.approx(tied_first["c"]) and tied_first["d"] < 1400


def test_a_two_player_draw_is_half_a_win_each() -> None:
    assert ratings([(("a", "b"), (1, 1))] * 2 + [(("a", "b"), (1, 2))]) == pytest.approx(
        ratings([(("a", "b"), (1, 2))] * 2 + [(("a", "b"), (2, 1))]), abs=1e-9
    )


def test_a_game_where_every_seat_ties_favours_no_one_but_pulls_together() -> None:
    alone = ratings([(("a", "b", "c"), (1, 1, 1))] * 5)
    assert alone == pytest.approx({"a": 1500.0, "b": 1500.0, "c": 1500.0})
    decisive: list[Result] = [(("a", "b", "c"), (1, 2, 3))] * 4
    before = ratings(decisive)
    after = ratings(decisive + [(("c", "b", "a"), (1, 1, 1))] * 4)
    assert before["a"] > after["a"] > after["b"] > after["c"] > before["c"]


def test_games_without_two_different_bots_are_skipped_with_a_note() -> None:
    real: list[Result] = [(("a", "b", "c"), (1, 2, 3)), (("b", "c"), (1, 2))]
    lonely: list[Result] = [(("a", "a"), (1, 2)), (("a",), (1,)), (("c", "c", "c"), (1, 2, 3))]
    plain, mixed = rate(real, ["a", "b", "c"]), rate(real + lonely, ["a", "b", "c"])
    assert mixed.rows == plain.rows and mixed.estimates == plain.estimates
    assert mixed.notes == ["3 games without two different bots skipped"]
    only = rate(lonely[:1], ["a"])
    assert only.rows == [("a", None, None, 0, None)] and only.estimates == {}


# -- (e) the order of the games, void games --------------------------------------------------


def test_the_order_of_the_games_does_not_matter() -> None:
    results = simulate(random.Random(11), TRUE, 300) + HAND_MADE
    shuffled = results[:]
    random.Random(12).shuffle(shuffled)
    bots = sorted(TRUE)
    assert rate(shuffled, bots) == rate(results, bots)
    # Stored in another order than scheduled: the same again.
    assert PlackettLuceScorer().standings(stored(results)[::-1], bots) == rate(results, bots)


def test_void_games_are_not_counted() -> None:
    real = stored(HAND_MADE)
    void = stored([(("d", "c", "b", "a"), (1, 2, 3, 4))] * 4, void=True, start=len(real))
    plain = PlackettLuceScorer().standings(real, list("abcd"))
    mixed = PlackettLuceScorer().standings(real + void, list("abcd"))
    assert mixed.rows == plain.rows and mixed.estimates == plain.estimates
    assert mixed.notes == [*plain.notes, "4 void games not counted"]


# -- (f) a match file that ranks by it --------------------------------------------------------


def test_a_match_of_three_seats_ranked_by_plackett_luce(write_match: Callable[..., Path]) -> None:
    path = write_match(
        """
        game = "nim"
        seats = 3
        rounds = 2
        concurrency = 2
        scorers = ["wins", "plackett-luce"]
        ranking = "plackett-luce"
        [[bots]]
        name = "optimal"
        builtin = "optimal"
        inproc = true
        [[bots]]
        name = "random"
        builtin = "random"
        inproc = true
        [[bots]]
        name = "random2"
        builtin = "random"
        inproc = true
        [[bots]]
        name = "random3"
        builtin = "random"
        inproc = true
        """
    )
    spec = prepare(path).spec
    assert spec.scorers == ("wins", "plackett-luce") and spec.ranking == "plackett-luce"

    summary = run_match(path)
    assert summary.played == 24 and not summary.errors
    wins, luce = summary.standings
    assert luce.title == "Plackett-Luce"
    assert luce.columns == ("bot", "rating", "±95%", "games", "mean rank")
    bots = {"optimal", "random", "random2", "random3"}
    assert {row[0] for row in luce.rows} == bots == set(luce.estimates)
    assert all(row[1] is not None and row[2] > 0 and row[3] == 18 for row in luce.rows)
    assert sum(row[1] for row in luce.rows) / 4 == pytest.approx(1500, abs=0.1)

    shown = subprocess.run(
        [sys.executable, "-m", "arena_kernel", "standings", str(summary.run.database)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    title = lines.index("Plackett-Luce")
    assert lines[title + 1].split() == ["bot", "rating", "±95%", "games", "mean", "rank"]
    printed = [line.split() for line in lines[title + 3 : title + 7]]
    assert printed == [[cell(value) for value in row] for row in luce.rows]
    assert wins.title == "Wins"
