"""The schedule: seeds, seatings, rounds or game counts, resuming and sessions; and that
computing it game by game gives exactly the schedule arena always built whole."""

from __future__ import annotations

import itertools
import math
import tracemalloc
from collections import Counter
from typing import Literal

import eager_schedule as eager
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from match_fakes import make_spec

from arena_kernel.match.schedule import Pending, Round, Schedule, Sessions, derive_seed
from arena_kernel.match.spec import MatchSpec
from arena_kernel.model import ScheduledGame

Lifetime = Literal["game", "session"]


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
    games = list(Schedule(make_spec(3, 2, seed=11)))
    assert [g.index for g in games] == list(range(6))
    assert [g.seed for g in games] == [derive_seed(11, i) for i in range(6)]
    assert [g.seed for g in Schedule(make_spec(3, 2, seed=12))] != [g.seed for g in games]


def test_round_robin_rotations_in_bot_order() -> None:
    assert list(Round(make_spec(3, 2))) == [
        ("b0", "b1"),
        ("b1", "b0"),
        ("b0", "b2"),
        ("b2", "b0"),
        ("b1", "b2"),
        ("b2", "b1"),
    ]
    assert list(Round(make_spec(3, 3))) == [
        ("b0", "b1", "b2"),
        ("b1", "b2", "b0"),
        ("b2", "b0", "b1"),
    ]


def test_permutations() -> None:
    orders = list(Round(make_spec(4, 3, seatings="permutations")))
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
    for order in Round(spec):
        assert len(set(order)) == seats
        for seat, name in enumerate(order):
            counts[name][seat] += 1
    for name, seat_counts in counts.items():
        played = [seat_counts[seat] for seat in range(seats)]
        assert len(set(played)) == 1, (name, played)
        assert played[0] > 0


def test_gauntlet_games_all_include_the_challenger() -> None:
    orders = list(Round(make_spec(5, 3, format="gauntlet", challenger="b3")))
    assert len(orders) == 6 * 3  # C(4, 2) groups with b3, 3 rotations each
    assert all("b3" in order for order in orders)
    default = list(Round(make_spec(4, 2, format="gauntlet")))
    assert all("b0" in order for order in default) and len(default) == 6


def test_rounds_repeat_the_whole_round() -> None:
    games = list(Schedule(make_spec(3, 2, rounds=3)))
    assert len(games) == 18
    assert [g.seating for g in games[6:12]] == list(Round(make_spec(3, 2)))


@pytest.mark.parametrize("count", [1, 4, 6, 13])
def test_games_count_cycles_through_the_seatings(count: int) -> None:
    order = Round(make_spec(3, 2))
    games = list(Schedule(make_spec(3, 2, games=count, rounds=5)))
    assert len(games) == count
    assert [g.seating for g in games] == [order[i % len(order)] for i in range(count)]


def test_a_game_out_of_the_schedule_is_an_index_error() -> None:
    schedule = Schedule(make_spec(3, 2))
    with pytest.raises(IndexError):
        schedule.game(6)
    with pytest.raises(IndexError):
        Round(make_spec(3, 2))[-1]


def test_a_huge_round_is_computed_seating_by_seating() -> None:
    """14 bots in every seat order of 3 to 6: 2.4 million seatings, none listed (memory
    is the witness: listing them takes hundreds of megabytes)."""
    spec = make_spec(14, (3, 4, 5, 6), seatings="permutations", games=1_000_000)
    tracemalloc.start()
    try:
        seatings = Round(spec)
        schedule = Schedule(spec)
        assert len(seatings) == sum(math.comb(14, k) * math.factorial(k) for k in (3, 4, 5, 6))
        assert seatings[len(seatings) - 1] == ("b13", "b12", "b11", "b10", "b9", "b8")
        assert schedule.game(999_999).seed == derive_seed(0, 999_999)
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100_000  # bytes


def _sessions(games: int, lifetime: Lifetime, concurrency: int) -> list[list[ScheduledGame]]:
    schedule = Schedule(make_spec(2, 2, games=games))
    return [list(s) for s in Sessions(Pending(schedule, []), lifetime, concurrency)]


def test_game_lifetime_is_one_session_per_game() -> None:
    sessions = _sessions(5, "game", concurrency=2)
    assert [[g.index for g in s] for s in sessions] == [[0], [1], [2], [3], [4]]
    assert [s[0].session for s in sessions] == [0, 1, 2, 3, 4]


def test_session_lifetime_deals_games_into_concurrency_sessions() -> None:
    sessions = _sessions(7, "session", concurrency=3)
    assert [[g.index for g in s] for s in sessions] == [[0, 3, 6], [1, 4], [2, 5]]
    assert [{g.session for g in s} for s in sessions] == [{0}, {1}, {2}]
    assert [g.seed for s in sessions for g in s] == [
        derive_seed(0, i) for i in (0, 3, 6, 1, 4, 2, 5)
    ]


def test_session_lifetime_with_fewer_games_than_concurrency() -> None:
    assert [len(s) for s in _sessions(2, "session", concurrency=8)] == [1, 1]
    schedule = Schedule(make_spec(2, 2, games=2))
    assert len(Sessions(Pending(schedule, [range(0, 2)]), "session", concurrency=8)) == 0


def test_sessions_reject_bad_arguments() -> None:
    pending = Pending(Schedule(make_spec(2, 2)), [])
    with pytest.raises(ValueError, match="concurrency"):
        Sessions(pending, "session", concurrency=0)
    with pytest.raises(ValueError, match="lifetime"):
        Sessions(pending, "match", concurrency=1)  # type: ignore[arg-type]


def test_pending_games_are_those_outside_the_stored_ranges() -> None:
    schedule = Schedule(make_spec(3, 2, games=10))
    pending = Pending(schedule, [range(0, 2), range(4, 5), range(8, 12)])
    assert pending.ranges == [range(2, 4), range(5, 8)]
    assert [pending.index(p) for p in range(len(pending))] == [2, 3, 5, 6, 7]
    with pytest.raises(IndexError):
        pending.index(5)
    assert len(Pending(schedule, [range(0, 10)])) == 0


def test_a_session_stops_looking_for_its_bots_once_it_saw_them_all() -> None:
    schedule = Schedule(make_spec(3, 2, games=10**9))
    (session,) = Sessions(Pending(schedule, []), "session", concurrency=1)
    assert session.entrants() == ["b0", "b1", "b2"]  # not a billion games later


def test_a_session_that_never_meets_a_bot_looks_at_a_round_of_games_at_most() -> None:
    """Six sessions of three bots' six seatings, games 3 to 9 and 11 on pending: past
    game 11 each session plays one seating over and over, never meeting a third bot,
    which is seen without walking through its games (a billion of them). The entrants are
    those of the same sessions made whole from the first 5000 games."""
    stored = [range(0, 3), range(10, 11)]
    sessions = Sessions(Pending(Schedule(make_spec(3, 2, games=10**9)), stored), "session", 6)
    whole = [game for game in eager.schedule(make_spec(3, 2, games=5000)) if game.index > 10]
    whole[0:0] = eager.schedule(make_spec(3, 2, games=10))[3:10]
    expected = [
        list(dict.fromkeys(name for game in session for name in game.seating))
        for session in eager.assign_sessions(whole, "session", 6)
    ]
    assert [session.entrants() for session in sessions] == expected
    assert [len(bots) for bots in expected] == [3, 2, 3, 2, 3, 2]
    assert sessions.most_entrants() == 3


def _as_ranges(indexes: list[int]) -> list[range]:
    """Ascending indexes as ranges of consecutive ones (what the store reads)."""
    runs = itertools.groupby(enumerate(indexes), key=lambda pair: pair[1] - pair[0])
    return [range(run[0][1], run[-1][1] + 1) for run in (list(r) for _key, r in runs)]


@st.composite
def match_shapes(draw: st.DrawFn) -> MatchSpec:
    bots = draw(st.integers(1, 7))
    seats = draw(st.lists(st.integers(1, bots), min_size=1, max_size=3, unique=True))
    gauntlet = draw(st.booleans())
    count = draw(st.one_of(st.none(), st.integers(1, 150)))
    return make_spec(
        bots,
        tuple(sorted(seats)),
        seed=draw(st.integers(-3, 3)),
        seatings=draw(st.sampled_from(["rotations", "permutations"])),
        format="gauntlet" if gauntlet else "round-robin",
        challenger=draw(st.sampled_from([None, *(f"b{n}" for n in range(bots))]))
        if gauntlet
        else None,
        games=count,
        rounds=1 if count is not None else draw(st.integers(1, 3)),
    )


@settings(max_examples=300, deadline=None)
@given(spec=match_shapes(), data=st.data())
def test_the_schedule_game_by_game_is_the_schedule_built_whole(
    spec: MatchSpec, data: st.DataObject
) -> None:
    """Same games, seeds, seatings and order; the same games pending after any stored
    ones; the same sessions, numbered alike, with the same bots."""
    assert list(Round(spec)) == eager.seatings(spec)
    if not eager.seatings(spec):
        return
    games = eager.schedule(spec)
    schedule = Schedule(spec)
    assert len(schedule) == len(games) and list(schedule) == games
    stored = sorted(data.draw(st.sets(st.integers(0, len(games) - 1))))
    pending = Pending(schedule, _as_ranges(stored))
    left = [game for game in games if game.index not in set(stored)]
    assert [pending.index(p) for p in range(len(pending))] == [g.index for g in left]
    assert pending.seat_counts() == {len(g.seating) for g in left}
    lifetime: Lifetime = data.draw(st.sampled_from(["game", "session"]))
    concurrency = data.draw(st.integers(1, 5))
    sessions = Sessions(pending, lifetime, concurrency)
    expected = eager.assign_sessions(left, lifetime, concurrency)
    assert len(sessions) == len(expected)
    assert [list(session) for session in sessions] == expected
    bots = [list(dict.fromkeys(n for game in s for n in game.seating)) for s in expected]
    assert [session.entrants() for session in sessions] == bots
    assert sessions.most_entrants() == max(map(len, bots), default=0)
