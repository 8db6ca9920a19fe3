"""The schedule: seeds, seatings, rounds or game counts, and sessions."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from match_fakes import make_spec

from arena_kernel.match.schedule import assign_sessions, derive_seed, schedule, seatings
from arena_kernel.model import ScheduledGame


def test_seeds_are_deterministic_distinct_and_63_bit() -> None:
    seeds = [derive_seed(7, i) for i in range(5000)]
    assert seeds == [derive_seed(7, i) for i in range(5000)]
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s < 2**63 for s in seeds)
    assert max(seeds) >= 2**62  # well mixed: the top bit is used
    # Unrelated across match seeds: no shift between neighbouring seeds and indices.
    assert not set(seeds) & {derive_seed(8, i) for i in range(5000)}
    assert derive_seed(-1, 0) != derive_seed(1, 0)


def test_schedule_seeds_come_from_the_match_seed() -> None:
    games = schedule(make_spec(3, 2, seed=11))
    assert [g.index for g in games] == list(range(6))
    assert [g.seed for g in games] == [derive_seed(11, i) for i in range(6)]
    assert [g.seed for g in schedule(make_spec(3, 2, seed=12))] != [g.seed for g in games]


def test_round_robin_rotations_in_bot_order() -> None:
    assert seatings(make_spec(3, 2)) == [
        ("b0", "b1"),
        ("b1", "b0"),
        ("b0", "b2"),
        ("b2", "b0"),
        ("b1", "b2"),
        ("b2", "b1"),
    ]
    assert seatings(make_spec(3, 3)) == [("b0", "b1", "b2"), ("b1", "b2", "b0"), ("b2", "b0", "b1")]


def test_permutations() -> None:
    orders = seatings(make_spec(4, 3, seatings="permutations"))
    assert len(orders) == 4 * 6
    assert len(set(orders)) == len(orders)
    assert set(orders) == set(itertools.permutations([f"b{n}" for n in range(4)], 3))


@settings(max_examples=60, deadline=None)
@given(
    bots=st.integers(2, 6),
    seats=st.integers(2, 4),
    permutations=st.booleans(),
    gauntlet=st.booleans(),
)
def test_every_bot_plays_every_seat_equally_often(
    bots: int, seats: int, permutations: bool, gauntlet: bool
) -> None:
    seats = min(seats, bots)
    spec = make_spec(
        bots,
        seats,
        seatings="permutations" if permutations else "rotations",
        format="gauntlet" if gauntlet else "round-robin",
        challenger="b1" if gauntlet else None,
    )
    counts = {f"b{n}": Counter[int]() for n in range(bots)}
    for order in seatings(spec):
        assert len(set(order)) == seats
        for seat, name in enumerate(order):
            counts[name][seat] += 1
    for name, seat_counts in counts.items():
        played = [seat_counts[seat] for seat in range(seats)]
        assert len(set(played)) == 1, (name, played)
        assert played[0] > 0


def test_gauntlet_games_all_include_the_challenger() -> None:
    orders = seatings(make_spec(5, 3, format="gauntlet", challenger="b3"))
    assert len(orders) == 6 * 3  # C(4, 2) groups with b3, 3 rotations each
    assert all("b3" in order for order in orders)
    default = seatings(make_spec(4, 2, format="gauntlet"))
    assert all("b0" in order for order in default) and len(default) == 6


def test_rounds_repeat_the_whole_round() -> None:
    games = schedule(make_spec(3, 2, rounds=3))
    assert len(games) == 18
    assert [g.seating for g in games[6:12]] == seatings(make_spec(3, 2))


@pytest.mark.parametrize("count", [1, 4, 6, 13])
def test_games_count_cycles_through_the_seatings(count: int) -> None:
    order = seatings(make_spec(3, 2))
    games = schedule(make_spec(3, 2, games=count, rounds=5))
    assert len(games) == count
    assert [g.seating for g in games] == [order[i % len(order)] for i in range(count)]


def _games(n: int) -> list[ScheduledGame]:
    return [ScheduledGame(i, derive_seed(0, i), ("a", "b")) for i in range(n)]


def test_game_lifetime_is_one_session_per_game() -> None:
    sessions = assign_sessions(_games(5), "game", concurrency=2)
    assert [[g.index for g in s] for s in sessions] == [[0], [1], [2], [3], [4]]
    assert [s[0].session for s in sessions] == [0, 1, 2, 3, 4]


def test_session_lifetime_deals_games_into_concurrency_sessions() -> None:
    sessions = assign_sessions(_games(7), "session", concurrency=3)
    assert [[g.index for g in s] for s in sessions] == [[0, 3, 6], [1, 4], [2, 5]]
    assert [{g.session for g in s} for s in sessions] == [{0}, {1}, {2}]
    assert [g.seed for s in sessions for g in s] == [
        derive_seed(0, i) for i in (0, 3, 6, 1, 4, 2, 5)
    ]


def test_session_lifetime_with_fewer_games_than_concurrency() -> None:
    assert [len(s) for s in assign_sessions(_games(2), "session", concurrency=8)] == [1, 1]
    assert assign_sessions([], "session", concurrency=8) == []


def test_assign_sessions_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="concurrency"):
        assign_sessions(_games(2), "session", concurrency=0)
    with pytest.raises(ValueError, match="lifetime"):
        assign_sessions(_games(2), "match", concurrency=1)  # type: ignore[arg-type]
