"""Several seat counts in one run (``seats = [3, 4, 5, 6]``): loading, schedule, run key,
default scorers; a single count must behave exactly as before lists were allowed."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import pytest
from match_fakes import FakeGame, make_registries, make_spec

from arena_kernel.match.loader import default_scorers, load_match
from arena_kernel.match.schedule import Round, Schedule
from arena_kernel.match.spec import MatchSpec
from arena_kernel.match.starter import starter_file

Fails = Callable[[str], str]
Load = Callable[[str], MatchSpec]


def bots(count: int) -> str:
    return "".join(f'\n[[bots]]\nname = "b{n}"\nbuiltin = "random"\n' for n in range(count))


# Loading


def test_seats_as_an_integer(load: Load) -> None:
    assert load(f'game = "stones"\nseats = 3\n{bots(3)}').seats == (3,)


def test_seats_as_a_list_is_stored_ascending(load: Load) -> None:
    assert load(f'game = "stones"\nseats = [4, 2, 3]\n{bots(4)}').seats == (2, 3, 4)


def test_a_list_of_one_count_is_that_count(load: Load) -> None:
    listed = load(f'game = "stones"\nseats = [3]\n{bots(3)}')
    plain = load(f'game = "stones"\nseats = 3\n{bots(3)}')
    assert listed.seats == plain.seats == (3,)
    assert listed.key() == plain.key()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("[]", "seats must not be empty"),
        ('[2, "3"]', 'seats: item 2 must be an integer, not a string ("3")'),
        ("[2, 3.0]", "seats: item 2 must be an integer, not a float (3.0)"),
        ("[true]", "seats: item 1 must be an integer, not a boolean (true)"),
        ("[[2, 3]]", "seats: item 1 must be an integer, not an array"),
        ("[2, 3, 2]", "seats lists 2 twice"),
        ("[2, 5]", 'seats = 5 is not supported by game "stones"; it supports 2, 3, 4'),
        ("[0, 2]", 'seats = 0 is not supported by game "stones"; it supports 2, 3, 4'),
        ('"3"', 'seats must be an integer or an array of integers, not a string ("3")'),
        ("2.5", "seats must be an integer or an array of integers, not a float (2.5)"),
        ("0", "seats must be at least 1, not 0"),
    ],
)
def test_seats_errors_name_the_line(fails: Fails, value: str, expected: str) -> None:
    text = f'game = "stones"\nseats = {value}\n{bots(4)}'
    assert fails(text) == f"match.toml, line 2: {expected}"


def test_a_list_written_over_several_lines_is_reported_at_its_key(fails: Fails) -> None:
    text = f'game = "stones"\nseed = 1\nseats = [\n  2,\n  "x",\n]\n{bots(4)}'
    assert fails(text) == 'match.toml, line 3: seats: item 2 must be an integer, not a string ("x")'


def test_the_bots_must_fill_the_largest_count(fails: Fails) -> None:
    # Line 4: the first [[bots]], as for a single count.
    assert fails(f'game = "stones"\nseats = [2, 4]\n{bots(3)}') == (
        "match.toml, line 4: 4 seats (the largest count in seats = [2, 4]) need at least "
        "4 bots, but there are 3"
    )


def test_no_bots_asks_for_the_largest_count(fails: Fails) -> None:
    assert "no bots: add at least 4 [[bots]] tables" in fails('game = "stones"\nseats = [4, 2]\n')


# Schedule


def test_two_counts_with_permutations_in_order() -> None:
    orders = list(Round(make_spec(3, (2, 3), seatings="permutations")))
    assert len(orders) == math.comb(3, 2) * 2 + 1 * 6 == 12
    assert orders == [
        ("b0", "b1"),
        ("b1", "b0"),
        ("b0", "b2"),
        ("b2", "b0"),
        ("b1", "b2"),
        ("b2", "b1"),
        ("b0", "b1", "b2"),
        ("b0", "b2", "b1"),
        ("b1", "b0", "b2"),
        ("b1", "b2", "b0"),
        ("b2", "b0", "b1"),
        ("b2", "b1", "b0"),
    ]
    assert all(isinstance(order, tuple) for order in orders)


def test_a_single_count_schedule_is_unchanged() -> None:
    # Written out by hand: stored runs resume only if this order never changes.
    assert list(Round(make_spec(4, (3,)))) == [
        ("b0", "b1", "b2"),
        ("b1", "b2", "b0"),
        ("b2", "b0", "b1"),
        ("b0", "b1", "b3"),
        ("b1", "b3", "b0"),
        ("b3", "b0", "b1"),
        ("b0", "b2", "b3"),
        ("b2", "b3", "b0"),
        ("b3", "b0", "b2"),
        ("b1", "b2", "b3"),
        ("b2", "b3", "b1"),
        ("b3", "b1", "b2"),
    ]
    assert list(Round(make_spec(3, (2,), seatings="permutations"))) == [
        ("b0", "b1"),
        ("b1", "b0"),
        ("b0", "b2"),
        ("b2", "b0"),
        ("b1", "b2"),
        ("b2", "b1"),
    ]


def test_the_speed_clue_contest_format() -> None:
    """Every k-subset for k = 3..6 in every seat order, G = 2 games each."""
    spec = make_spec(7, (3, 4, 5, 6), seatings="permutations", rounds=2)
    games = list(Schedule(spec))
    per_round = sum(math.comb(7, k) * math.factorial(k) for k in (3, 4, 5, 6))
    assert len(games) == 2 * per_round
    first = [game.seating for game in games[:per_round]]
    assert [len(order) for order in first] == sorted(len(order) for order in first)
    names = [f"b{n}" for n in range(7)]
    expected = {order for k in (3, 4, 5, 6) for order in itertools.permutations(names, k)}
    assert len(set(first)) == len(first) and set(first) == expected
    assert [game.seating for game in games[per_round:]] == first


def test_gauntlet_keeps_the_challengers_groups_of_every_size() -> None:
    orders = list(Round(make_spec(4, (2, 3), format="gauntlet", challenger="b1")))
    assert len(orders) == math.comb(3, 1) * 2 + math.comb(3, 2) * 3
    assert all("b1" in order for order in orders)
    assert {len(order) for order in orders} == {2, 3}


def test_games_cycle_through_every_size() -> None:
    order = list(Round(make_spec(3, (2, 3))))
    assert len(order) == 6 + 3
    games = list(Schedule(make_spec(3, (2, 3), games=11)))
    assert [g.seating for g in games] == [order[i % len(order)] for i in range(11)]


# Run key


def test_a_single_count_keeps_the_key_it_had() -> None:
    # Computed before seats could be a list ("seats": 2 in the key's payload): existing
    # stored runs are found again, so they resume.
    assert make_spec(3, (2,)).key() == "e43217c63af8499a"
    spec = make_spec(3, (3,), seatings="permutations", rounds=2)
    assert spec.key() == "d1c25850242ba73e"


def test_several_counts_have_their_own_key() -> None:
    keys = {make_spec(3, seats).key() for seats in [(2,), (3,), (2, 3)]}
    assert len(keys) == 3
    assert make_spec(3, (2, 3)).key() == make_spec(3, (2, 3)).key()


# Default scorers


@pytest.mark.parametrize(
    ("seats", "expected"),
    [
        ((1,), ("wins",)),
        ((2,), ("wins", "elo")),
        ((3,), ("wins", "openskill")),
        ((2, 3), ("wins", "openskill")),
        ((3, 4, 5, 6), ("wins", "openskill")),
        ((1, 2), ("wins",)),
    ],
)
def test_default_scorers_for_several_counts(seats: tuple[int, ...], expected: tuple[str, ...]):
    assert default_scorers(seats, make_registries()) == expected


def test_a_file_with_two_and_three_seats_gets_openskill(write) -> None:
    class Two3(FakeGame):
        name = "two3"
        seats = (2, 3)

    registries = make_registries(Two3)
    text = 'game = "two3"\nseats = [2, 3]\n' + bots(3).replace('builtin = "random"', 'cmd = ["x"]')
    assert load_match(write(text), lambda plugins: registries).scorers == ("wins", "openskill")
    text = text.replace("seats = [2, 3]", "seats = [2]")
    assert load_match(write(text), lambda plugins: registries).scorers == ("wins", "elo")


def test_the_starter_file_writes_one_count_and_mentions_lists() -> None:
    class Trio(FakeGame):
        name = "trio"
        seats = (3, 4)

    text = starter_file("trio", make_registries(Trio))
    assert "\nseats = 3\n" in text
    assert "or a list of them" in text
    assert "trio supports 3, 4)\nseats = 3\n" in text
