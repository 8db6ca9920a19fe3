"""A league's matchmaking: the value of a game, fair shares, new bots first, close pairs
preferred, even seats for two and more seats, the same plan for the same state, and
fewer games than uniform random tables to rank bots of known strength."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from arena_kernel.match.matchmaking import (
    Field,
    Pairing,
    game_value,
    next_block,
    plan_block,
    shares,
    table_information,
    uniform_block,
)
from arena_kernel.scoring.league_ratings import LeagueTally
from arena_kernel.testing.league_simulation import SimulatedLeague, Timeline, evenly_spaced


def diagonal(values: list[float]) -> list[list[float]]:
    return [[v if i == j else 0.0 for j in range(len(values))] for i, v in enumerate(values)]


def test_a_game_is_worth_most_between_close_bots_of_wide_spread() -> None:
    close = game_value(0.0, 0.5, 0.25)
    assert close > game_value(0.5, 0.5, 0.25) > game_value(2.0, 0.5, 0.25) > 0
    assert game_value(0.0, 2.0, 0.25) > close > game_value(0.0, 0.05, 0.25)
    assert game_value(0.0, 0.5, 0.0) == game_value(0.0, 0.0, 0.25) == 0.0
    assert table_information(2) == 1.0 and 0 < table_information(4) < table_information(3) < 1


def test_shares_are_parts_of_the_fair_share() -> None:
    assert shares(10, 2, 8, 0.5, 2.0) == (1, 5)
    assert shares(8, 2, 8, 0.5, 2.0) == (1, 4)
    assert shares(6, 3, 9, 0.0, 1.0) == (0, 2)
    assert shares(1, 2, 40, 0.5, 1.0) == (0, 1)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_bot_gets_its_share_of_each_block(seats: int) -> None:
    rng = random.Random(seats)
    for _ in range(20):
        bots = tuple(f"b{i}" for i in range(rng.randint(seats, 11)))
        n = len(bots)
        r = [rng.gauss(0, 1) for _ in bots]
        covariance = diagonal([rng.choice((0.01, 0.2, 4.0)) for _ in bots])
        games = rng.randint(1, 2 * n)
        least, most = shares(games, seats, n, 0.5, 2.0)
        plan = plan_block(Field(bots, r, covariance, {}), games, seats, least, most, rng)
        assert len(plan) == games
        assert all(len(set(table)) == seats and set(table) <= set(bots) for table in plan)
        played = Counter(bot for table in plan for bot in table)
        assert all(least <= played[bot] <= most for bot in bots), (played, least, most)


def test_a_new_bot_plays_first_and_a_close_pair_more_than_a_plain_one() -> None:
    bots = ("top", "near", "nearer", "bottom", "new")
    r = [3.0, 0.05, 0.0, -3.0, 0.0]
    covariance = diagonal([0.02, 0.02, 0.02, 0.02, 4.0])
    plan = plan_block(Field(bots, r, covariance, {}), 10, 2, 1, 8, random.Random(1))
    played = Counter(bot for table in plan for bot in table)
    assert played["new"] == max(played.values()) and played["new"] >= 5
    assert all(played[bot] >= 1 for bot in bots)
    pairs = Counter(frozenset(table) for table in plan if "new" not in table)
    assert pairs.most_common(1)[0][0] == {"near", "nearer"}
    assert pairs[frozenset(("top", "bottom"))] == 0


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_seats_stay_even(seats: int) -> None:
    """Every bot's games per seat stay within two of each other."""
    for seed in range(3):
        league = SimulatedLeague(
            evenly_spaced(9, 80),
            pairing=Pairing(seats),
            seed=seed,
            timeline=Timeline(joins={"b03": 5}, retires={"b07": 20}),
        )
        for _ in range(30):
            league.play_block()
        for counts in league.tally.seat_games.values():
            counts = counts + [0] * (seats - len(counts))
            assert max(counts) - min(counts) <= 2, counts


def test_the_same_games_give_the_same_plan() -> None:
    league = SimulatedLeague(evenly_spaced(6, 100), seed=3)
    for _ in range(4):
        league.play_block()
    again = LeagueTally()
    again.add(reversed(league.games))
    bots = list(league.strengths)
    plan = next_block(league.tally, bots, Pairing(2), 3, 4)
    assert next_block(again, bots, Pairing(2), 3, 4) == plan
    assert next_block(league.tally, bots, Pairing(2), 4, 4) != plan


def test_uniform_tables_are_uniform() -> None:
    plan = uniform_block([f"b{i}" for i in range(6)], 3000, 2, random.Random(0))
    assert all(len(set(table)) == 2 for table in plan)
    pairs = Counter(frozenset(table) for table in plan)
    assert len(pairs) == 15 and max(pairs.values()) < 1.4 * min(pairs.values())
    with pytest.raises(ValueError, match="3 seats need 3 bots"):
        uniform_block(["a", "b"], 1, 3, random.Random(0))


def test_the_true_order_in_fewer_games_than_uniform_tables() -> None:
    def misordered(pairing: str) -> list[int]:
        found = []
        for seed in range(4):
            league = SimulatedLeague(
                evenly_spaced(8, 100), pairing=Pairing(2, pairing=pairing), seed=seed
            )
            for _ in range(15):
                league.play_block()
            found.append(league.misordered())
        return found

    adaptive, uniform = misordered("adaptive"), misordered("uniform")
    assert statistics.mean(adaptive) < statistics.mean(uniform), (adaptive, uniform)
