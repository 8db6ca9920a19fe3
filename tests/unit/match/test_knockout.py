"""The knockout bracket: seeding, byes, the index layout, tie-breaks, and that the bracket is
a pure function of the stored games (simulated tournaments, in any order)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena_kernel.match.knockout import Knockout, KnockoutGame, Tie, seed_positions

Rule = Callable[[int, tuple[str, str]], tuple[int, int]]


def names(count: int) -> list[str]:
    """Bots named after their seed, so a seating reads as seeds."""
    return [f"s{seed}" for seed in range(1, count + 1)]


def seed(name: str | None) -> int:
    assert name is not None
    return int(name[1:])


def seat0_wins(index: int, seating: tuple[str, str]) -> tuple[int, int]:
    return (1, 2)


def draw(index: int, seating: tuple[str, str]) -> tuple[int, int]:
    return (1, 1)


def random_rule(rng: random.Random) -> Rule:
    def rule(index: int, seating: tuple[str, str]) -> tuple[int, int]:
        return rng.choice([(1, 2), (2, 1), (1, 1)])

    return rule


def play(ko: Knockout, rule: Rule, rng: random.Random | None = None) -> list[KnockoutGame]:
    """Plays the tournament to its end; with ``rng``, only part of each batch at a time (as
    games finishing at different times would), and the store is shuffled before each ask."""
    stored: list[KnockoutGame] = []
    for _ in range(10_000):
        batch = ko.to_play(stored)
        if not batch:
            return stored
        if rng is not None:
            batch = rng.sample(batch, rng.randint(1, len(batch)))
        for index, seating in batch:
            stored.append(KnockoutGame(index, seating, rule(index, seating)))
        if rng is not None:
            rng.shuffle(stored)
    raise AssertionError("the tournament did not end")


def check_finished(ko: Knockout, stored: list[KnockoutGame]) -> None:
    """The invariants of a finished tournament."""
    bots = list(ko.bots)
    indexes = [game.index for game in stored]
    assert len(indexes) == len(set(indexes)), "an index used twice"
    assert all(0 <= index < ko.most_games for index in indexes)
    assert ko.to_play(stored) == []
    bracket = ko.ties(stored)
    champion = ko.champion(stored)
    assert champion in bots
    eliminated: list[str] = []
    played = 0
    for row in bracket:
        for tie in row:
            assert tie.winner is not None and tie.high is not None
            if tie.low is None:  # a bye
                assert tie.round == 0 and tie.first_index is None and tie.games == ()
                continue
            assert seed(tie.high) < seed(tie.low)
            eliminated.append(tie.low if tie.winner == tie.high else tie.high)
            # Colours alternate, high seed first, on consecutive indexes.
            assert tie.first_index is not None
            for position, (index, seating) in enumerate(tie.games):
                assert index == tie.first_index + position
                expected = (tie.high, tie.low) if position % 2 == 0 else (tie.low, tie.high)
                assert seating == expected
            played += len(tie.games)
    assert played == len(stored)
    assert len(eliminated) == len(set(eliminated)) == len(bots) - 1
    assert set(eliminated) == set(bots) - {champion}
    placings = ko.placings(stored)
    assert placings[0] == (champion, ko.rounds)
    assert sorted(name for name, _ in placings) == sorted(bots)


# --- seeding and byes ----------------------------------------------------------------------


def first_round(ko: Knockout) -> list[tuple[int, int | None]]:
    return [(seed(tie.high), None if tie.low is None else seed(tie.low)) for tie in ko.ties([])[0]]


def test_seed_positions_of_8() -> None:
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    ko = Knockout(names(8), 2, 0)
    assert first_round(ko) == [(1, 8), (4, 5), (2, 7), (3, 6)]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32])
def test_top_seeds_are_spread(size: int) -> None:
    order = seed_positions(size)
    assert sorted(order) == list(range(1, size + 1))
    # First-round pairs add up to size + 1 (1 v 16, 8 v 9, ...).
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    # The best k seeds lie in different k-ths of the bracket: 1 and 2 in opposite halves,
    # 1..4 in different quarters, ...
    k = 2
    while k <= size:
        part = size // k
        assert sorted(order.index(s) // part for s in range(1, k + 1)) == list(range(k))
        k *= 2


def test_seeding_of_16() -> None:
    ko = Knockout(names(16), 2, 0)
    pairs = first_round(ko)
    assert pairs[:4] == [(1, 16), (8, 9), (4, 13), (5, 12)]
    assert set(pairs) == {(s, 17 - s) for s in range(1, 9)}
    top = {s for pair in pairs[:4] for s in pair if s is not None}
    assert 1 in top and 2 not in top


@pytest.mark.parametrize(("count", "byes"), [(5, 3), (6, 2), (7, 1), (3, 1), (9, 7)])
def test_byes_go_to_the_top_seeds(count: int, byes: int) -> None:
    ko = Knockout(names(count), 2, 2)
    bye_ties = [tie for tie in ko.ties([])[0] if tie.low is None]
    assert sorted(seed(tie.high) for tie in bye_ties) == list(range(1, byes + 1))
    for tie in bye_ties:
        assert tie.winner == tie.high and tie.first_index is None and tie.games == ()
    # Byes take no indexes: N - 1 ties, each a block of games + tiebreak.
    assert ko.most_games == (count - 1) * 4


def test_bye_winners_are_seated_in_round_one() -> None:
    ko = Knockout(names(6), 2, 0)  # 1 and 2 get byes: 1 v (4/5), 2 v (3/6)
    second = ko.ties([])[1]
    assert [(tie.high, tie.low) for tie in second] == [(None, None), (None, None)]
    assert [tie.first_index for tie in second] == [4, 6]
    assert ko.to_play([]) == [
        (0, ("s4", "s5")),
        (1, ("s5", "s4")),
        (2, ("s3", "s6")),
        (3, ("s6", "s3")),
    ]


# --- index layout and simulated tournaments -------------------------------------------------


def test_index_layout() -> None:
    ko = Knockout(names(8), 4, 2)
    bracket = ko.ties([])
    firsts = [tie.first_index for row in bracket for tie in row]
    assert firsts == [6 * k for k in range(7)]
    assert ko.most_games == 42
    assert ko.rounds == 3


@pytest.mark.parametrize("count", [2, 3, 5, 8, 13, 16])
@pytest.mark.parametrize(("games", "tiebreak"), [(2, 0), (2, 2), (4, 4)])
def test_simulated_tournament(count: int, games: int, tiebreak: int) -> None:
    rng = random.Random(count * 100 + games * 10 + tiebreak)
    ko = Knockout(names(count), games, tiebreak)
    stored = play(ko, random_rule(rng), rng)
    check_finished(ko, stored)


def test_all_draws_the_higher_seed_wins_everything() -> None:
    ko = Knockout(names(11), 2, 4)
    stored = play(ko, draw)
    check_finished(ko, stored)
    assert ko.champion(stored) == "s1"
    # Every tie played its mini-match and all its tie-break games.
    assert len(stored) == ko.most_games
    assert [name for name, _ in ko.placings(stored)][:2] == ["s1", "s2"]


def test_seat_zero_always_wins_means_even_ties() -> None:
    # Each bot wins its seat-0 games: every mini-match ends level, every tie-break pair too.
    ko = Knockout(names(4), 4, 2)
    stored = play(ko, seat0_wins)
    check_finished(ko, stored)
    assert ko.champion(stored) == "s1"
    final = ko.ties(stored)[-1][0]
    assert final.score == (3.0, 3.0)


# --- tie-breaks -------------------------------------------------------------------------------


def game(index: int, seating: tuple[str, str], ranks: tuple[int, int]) -> KnockoutGame:
    return KnockoutGame(index, seating, ranks)


def test_no_tiebreak_when_the_mini_match_is_decided() -> None:
    ko = Knockout(["a", "b"], 2, 4)
    assert ko.to_play([]) == [(0, ("a", "b")), (1, ("b", "a"))]
    stored = [game(0, ("a", "b"), (2, 1)), game(1, ("b", "a"), (1, 1))]
    assert ko.champion(stored) == "b"
    tie = ko.ties(stored)[0][0]
    assert tie.score == (0.5, 1.5) and len(tie.games) == 2
    assert ko.to_play(stored) == []
    assert ko.placings(stored) == [("b", 1), ("a", 0)]


def test_tiebreak_only_once_the_mini_match_is_complete_and_tied() -> None:
    ko = Knockout(["a", "b"], 2, 4)
    one = [game(0, ("a", "b"), (1, 2))]
    assert ko.to_play(one) == [(1, ("b", "a"))]
    level = [*one, game(1, ("b", "a"), (1, 2))]
    assert ko.ties(level)[0][0].score == (1.0, 1.0)
    # The first pair, same alternation: the higher seed in seat 0 first.
    assert ko.to_play(level) == [(2, ("a", "b")), (3, ("b", "a"))]
    # A level pair calls for the next one.
    pair = [*level, game(2, ("a", "b"), (1, 1)), game(3, ("b", "a"), (1, 1))]
    assert ko.to_play(pair) == [(4, ("a", "b")), (5, ("b", "a"))]
    # The low seed takes the second pair and advances.
    won = [*pair, game(4, ("a", "b"), (2, 1)), game(5, ("b", "a"), (1, 1))]
    assert ko.champion(won) == "b"
    assert ko.to_play(won) == []


def test_higher_seed_advances_after_level_tiebreaks() -> None:
    for tiebreak in (0, 2):
        ko = Knockout(["a", "b"], 2, tiebreak)
        stored = [game(i, seating, (1, 1)) for i, seating in ko.to_play([])]
        if tiebreak:
            assert ko.champion(stored) is None
            stored += [game(i, seating, (1, 1)) for i, seating in ko.to_play(stored)]
        assert ko.champion(stored) == "a"
        assert len(stored) == 2 + tiebreak


def test_void_counts_as_a_draw() -> None:
    ko = Knockout(["a", "b"], 2, 0)
    stored = [
        KnockoutGame(0, ("a", "b"), (2, 1), void=True),
        game(1, ("b", "a"), (2, 1)),
    ]
    assert ko.ties(stored)[0][0].score == (1.5, 0.5)
    assert ko.champion(stored) == "a"


def test_a_higher_seed_listed_second_still_takes_seat_zero() -> None:
    # Round 1: the winner of 4 v 5 is the lower seed against... seed 1; check 5 beats 4 and
    # then meets 1 with 1 first.
    ko = Knockout(names(5), 2, 0)
    stored = [game(0, ("s4", "s5"), (2, 1)), game(1, ("s5", "s4"), (1, 2))]
    assert ko.to_play(stored) == [
        (2, ("s1", "s5")),
        (3, ("s5", "s1")),
        (4, ("s2", "s3")),
        (5, ("s3", "s2")),
    ]


# --- inconsistent stores --------------------------------------------------------------------


def test_bad_arguments() -> None:
    for bots, games, tiebreak in [
        (["a"], 2, 0),
        ([], 2, 0),
        (["a", "a"], 2, 0),
        (["a", "b"], 3, 0),
        (["a", "b"], 0, 0),
        (["a", "b"], -2, 0),
        (["a", "b"], 2, 1),
        (["a", "b"], 2, -2),
    ]:
        with pytest.raises(ValueError):
            Knockout(bots, games, tiebreak)


@pytest.mark.parametrize(
    "stored",
    [
        [game(2, ("a", "b"), (1, 2))],  # out of range
        [game(0, ("b", "a"), (1, 2))],  # wrong seating
        [game(0, ("a", "b"), (1, 2)), game(0, ("a", "b"), (2, 1))],  # one index, two games
        # A tie-break game without a tied mini-match.
        [game(0, ("a", "b"), (1, 2)), game(1, ("b", "a"), (2, 1)), game(2, ("a", "b"), (1, 1))],
    ],
)
def test_inconsistent_stores_are_refused(stored: list[KnockoutGame]) -> None:
    ko = Knockout(["a", "b"], 2, 2 if len(stored) == 3 else 0)
    with pytest.raises(ValueError):
        ko.ties(stored)


def test_a_game_of_an_unknown_tie_is_refused() -> None:
    ko = Knockout(names(4), 2, 0)
    with pytest.raises(ValueError):
        ko.ties([game(4, ("s1", "s2"), (1, 2))])


def test_the_same_game_twice_is_harmless() -> None:
    ko = Knockout(["a", "b"], 2, 0)
    stored = [game(0, ("a", "b"), (1, 2))] * 2
    assert ko.to_play(stored) == [(1, ("b", "a"))]


# --- properties -----------------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(
    count=st.integers(2, 33),
    games=st.sampled_from([2, 4]),
    tiebreak=st.sampled_from([0, 2]),
    seed_=st.integers(0, 2**32 - 1),
)
def test_any_tournament_ends_well(count: int, games: int, tiebreak: int, seed_: int) -> None:
    rng = random.Random(seed_)
    ko = Knockout(names(count), games, tiebreak)
    stored = play(ko, random_rule(rng), rng)
    check_finished(ko, stored)
    # A pure function of the results: any order, any prefix of a shuffle, the same answers.
    bracket = ko.ties(stored)
    shuffled = list(stored)
    rng.shuffle(shuffled)
    assert ko.ties(shuffled) == bracket
    assert ko.placings(shuffled) == ko.placings(stored)
    assert ko.champion(shuffled) == ko.champion(stored)


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(2, 20),
    games=st.sampled_from([2, 4]),
    tiebreak=st.sampled_from([0, 2, 4]),
    seed_=st.integers(0, 2**32 - 1),
)
def test_rebuild_in_any_order(count: int, games: int, tiebreak: int, seed_: int) -> None:
    rng = random.Random(seed_)
    ko = Knockout(names(count), games, tiebreak)
    stored = play(ko, random_rule(rng), rng)
    # Stop part way: the partial bracket too does not depend on the order of the store.
    partial = sorted(stored, key=lambda g: g.index)
    # Keep only games of decided-or-started ties in index order: a prefix of the index order
    # is always consistent, because a tie's games come after those of the ties it depends on.
    cut = rng.randint(0, len(partial))
    prefix = partial[:cut]
    expected: list[list[Tie]] = ko.ties(prefix)
    for _ in range(3):
        rng.shuffle(prefix)
        assert ko.ties(prefix) == expected
        assert ko.to_play(prefix) == ko.to_play(sorted(prefix, key=lambda g: g.index))
