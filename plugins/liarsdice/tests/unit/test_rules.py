"""The rules engine: what a raise is, how dice are counted, who loses a round, who starts the
next one, and that seeded games replay exactly."""

from __future__ import annotations

import random

import pytest

from arena_liarsdice.rules import NO_BID, RuleError, State, Variant, standing


def fixed(
    hands: list[tuple[int, ...]],
    order: tuple[int, ...] | None = None,
    variant: Variant | None = None,
) -> State:
    """A game with known dice; later rounds roll from a seeded generator."""
    order = order if order is not None else tuple(range(len(hands)))
    game = State(order, [len(h) for h in hands], random.Random(0), variant or Variant())
    game.hands = [tuple(sorted(h)) for h in hands]
    game.mover = order[0]
    return game


HANDS = [(2, 2, 3, 5, 6), (1, 1, 2, 4, 6), (1, 3, 5, 5, 6)]
"""15 dice: three 2s, three 1s, three 6s, three 5s, two 3s, one 4."""


# -- raises -------------------------------------------------------------------------------


def test_any_first_bid_in_range_is_a_raise() -> None:
    game = fixed(HANDS)
    assert game.last_bid == NO_BID
    for face in range(1, 7):
        assert game.bid_error((face, 1)) is None
        assert game.bid_error((face, 15)) is None


def test_a_higher_count_of_any_face_raises() -> None:
    game = fixed(HANDS)
    game.bid(0, (6, 3))
    assert game.bid_error((1, 4)) is None
    assert game.bid_error((6, 4)) is None
    assert game.bid_error((3, 9)) is None


def test_the_same_count_of_a_higher_face_raises() -> None:
    game = fixed(HANDS)
    game.bid(0, (3, 4))
    assert game.bid_error((4, 4)) is None
    assert game.bid_error((6, 4)) is None


@pytest.mark.parametrize("bid", [(3, 4), (2, 4), (1, 4), (6, 3), (4, 2)])
def test_a_lower_or_equal_bid_is_refused_with_the_reason(bid: tuple[int, int]) -> None:
    game = fixed(HANDS)
    game.bid(0, (3, 4))
    reason = game.bid_error(bid)
    assert reason is not None
    assert "does not raise [3, 4]" in reason
    with pytest.raises(RuleError, match="does not raise"):
        game.bid(1, bid)
    assert game.last_bid == (3, 4)
    assert game.mover == 1


@pytest.mark.parametrize(
    ("bid", "words"),
    [
        ((0, 2), "face 0 is not 1 to 6"),
        ((7, 2), "face 7 is not 1 to 6"),
        ((3, 0), "count 0 is not 1 to 15"),
        ((3, 16), "count 16 is not 1 to 15"),
        ((3, -1), "count -1"),
        ((True, 2), "two integers"),
        (("3", 2), "two integers"),
        ((3, 2, 1), "two integers"),
        ((3.0, 2), "two integers"),
    ],
)
def test_out_of_range_bids_are_refused(bid: tuple[object, ...], words: str) -> None:
    game = fixed(HANDS, variant=Variant(strict_count=True))
    reason = game.bid_error(bid)
    assert reason is not None
    assert words in reason


def test_the_strict_count_limit_follows_the_dice_on_the_table() -> None:
    game = fixed([(1, 2), (3,)], variant=Variant(strict_count=True))
    assert game.bid_error((6, 3)) is None
    assert game.bid_error((6, 4)) == "count 4 is not 1 to 3 (the dice on the table)"


def test_by_default_a_bid_may_name_more_dice_than_the_table_holds() -> None:
    game = fixed([(1, 2), (3,)])
    assert game.bid_error((6, 4)) is None
    assert game.bid_error((6, 0)) == "count 0 is not 1 or more"
    assert game.bid_error((6, -2)) == "count -2 is not 1 or more"
    game.bid(0, (2, 4))  # as the contest's server: legal, and it can only lose a challenge
    assert game.bid_error((1, 5)) is None and game.bid_error((1, 4)) is not None
    result = game.challenge(1)
    assert (result.loser, result.counted) == (0, 1)


def test_only_the_mover_bids() -> None:
    game = fixed(HANDS)
    with pytest.raises(RuleError, match="out of turn"):
        game.bid(1, (2, 2))
    game.bid(0, (2, 2))
    assert (game.last_bid, game.last_bidder, game.mover, game.move_number) == ((2, 2), 0, 1, 2)


# -- counting -----------------------------------------------------------------------------


def test_counts_exact_faces_without_wild_ones() -> None:
    game = fixed(HANDS)
    assert [game.count(face) for face in range(1, 7)] == [3, 3, 2, 1, 3, 3]


def test_wild_ones_count_for_other_faces_but_not_for_ones() -> None:
    game = fixed(HANDS, variant=Variant(wild_ones=True))
    assert [game.count(face) for face in range(1, 7)] == [3, 6, 5, 4, 6, 6]


# -- ending a round -----------------------------------------------------------------------


def test_a_challenge_of_a_true_bid_loses() -> None:
    game = fixed(HANDS)
    game.bid(0, (2, 3))
    result = game.challenge(1)
    assert (result.loser, result.challenger, result.bid, result.counted) == (1, 1, (2, 3), 3)
    assert result.hands == tuple(tuple(sorted(h)) for h in HANDS)
    assert game.dice == [5, 4, 5]


def test_a_challenge_of_a_false_bid_wins() -> None:
    game = fixed(HANDS)
    game.bid(0, (2, 3))
    game.bid(1, (4, 3))
    result = game.challenge(0)  # out of turn: player 2 moves
    assert (result.loser, result.challenger, result.counted) == (1, 0, 1)
    assert game.dice == [5, 4, 5]


def test_a_challenge_with_no_bid_always_loses() -> None:
    game = fixed(HANDS)
    result = game.challenge(2)
    assert (result.loser, result.challenger, result.bid) == (2, 2, NO_BID)
    assert game.dice == [5, 5, 4]


def test_a_player_without_dice_cannot_challenge() -> None:
    game = fixed([(1, 2), (3, 4), ()])
    with pytest.raises(RuleError, match="no dice"):
        game.challenge(2)


@pytest.mark.parametrize(("count", "loser"), [(3, 0), (2, 1), (4, 1)])
def test_spot_on_right_loses_the_bidder_wrong_the_caller(count: int, loser: int) -> None:
    game = fixed(HANDS, variant=Variant(spot_on=True))
    game.bid(0, (6, count))
    result = game.spot_on(1)
    assert (result.loser, result.challenger, result.counted) == (loser, 1, 3)


def test_spot_on_is_refused_when_the_variant_is_off() -> None:
    game = fixed(HANDS)
    game.bid(0, (6, 3))
    with pytest.raises(RuleError, match="variant off"):
        game.spot_on(1)
    assert game.dice == [5, 5, 5]


def test_a_fault_loses_a_die_with_nobody_challenging() -> None:
    game = fixed(HANDS)
    game.bid(0, (6, 3))
    result = game.fault(2)
    assert (result.loser, result.challenger, result.counted) == (2, None, 0)
    assert game.dice == [5, 5, 4]
    assert (game.last_bid, game.last_bidder, game.round_number, game.move_number) == (
        NO_BID,
        None,
        2,
        1,
    )


# -- turns, elimination, the winner -------------------------------------------------------


def test_turns_follow_the_playing_order() -> None:
    game = fixed([(1,), (2,), (3,), (4,)], order=(2, 0, 3, 1))
    assert game.active() == [2, 0, 3, 1]
    game.bid(2, (1, 1))
    assert game.active() == [0, 3, 1, 2]
    game.bid(0, (1, 2))
    assert game.mover == 3


def test_the_loser_starts_the_next_round() -> None:
    game = fixed(HANDS, order=(1, 2, 0))
    game.bid(1, (4, 2))  # one 4 on the table: false
    game.challenge(2)
    assert game.mover == 1
    assert game.active() == [1, 2, 0]


def test_an_eliminated_player_is_out_and_skipped() -> None:
    game = fixed([(5,), (1, 2), (3, 4)], order=(0, 1, 2))
    game.bid(0, (6, 1))
    result = game.challenge(1)
    assert result.loser == 0
    assert game.dice == [0, 2, 2]
    assert game.active() == [1, 2]
    assert game.mover == 1  # the loser is out: the next player in playing order starts
    assert game.hands[0] == ()
    game.bid(1, (1, 1))
    assert game.mover == 2
    game.bid(2, (1, 2))
    assert game.mover == 1
    assert not game.over


def test_the_next_active_player_starts_after_an_elimination_mid_order() -> None:
    game = fixed([(5, 5), (6,), (1, 1), (2, 2)], order=(3, 1, 0, 2))
    game.bid(3, (6, 2))  # one 6: false
    result = game.challenge(1)
    assert result.loser == 3
    game.fault(1)  # player 1 loses its only die; player 0 comes next in the order
    assert game.dice == [2, 0, 2, 1]
    assert game.mover == 0
    assert game.active() == [0, 2, 3]


def test_the_last_player_with_dice_wins() -> None:
    game = fixed([(2,), (3,), (4, 4)], order=(0, 1, 2))
    game.fault(0)
    assert game.winner is None
    assert game.active() == [1, 2]
    game.fault(1)
    assert game.over
    assert game.winner == 2
    assert game.dice == [0, 0, 2]


def test_a_new_game_needs_two_players_and_a_die_each() -> None:
    with pytest.raises(RuleError):
        State.new(1, 5, random.Random(0))
    with pytest.raises(RuleError):
        State.new(3, 0, random.Random(0))


# -- dice and seeds -----------------------------------------------------------------------


def test_seeded_games_draw_the_same_order_and_dice() -> None:
    first = State.new(5, 6, random.Random(42))
    second = State.new(5, 6, random.Random(42))
    assert first.order == second.order
    assert first.hands == second.hands
    assert sorted(first.order) == [0, 1, 2, 3, 4]
    assert first.mover == first.order[0]
    orders = {State.new(5, 6, random.Random(seed)).order for seed in range(20)}
    assert len(orders) > 1


def test_hands_are_sorted_and_rerolled_every_round() -> None:
    game = State.new(3, 6, random.Random(7))
    for _ in range(5):
        for hand, dice in zip(game.hands, game.dice, strict=True):
            assert len(hand) == dice
            assert list(hand) == sorted(hand)
            assert all(1 <= d <= 6 for d in hand)
        before = list(game.hands)
        loser = game.mover
        game.fault(loser)
        kept = [p for p in range(3) if p != loser]
        assert any(game.hands[p] != before[p] for p in kept)  # same size, new dice


def test_the_standing_ranks_the_winner_then_those_out_the_last_out_first() -> None:
    assert standing([0, 3, 0, 0], out=[2, 0, 3]) == [3, 1, 4, 2]


def test_a_game_stopped_early_ranks_the_players_in_by_the_dice_they_hold() -> None:
    """Ties share a rank; the next rank counts everyone above."""
    assert standing([2, 0, 4, 2, 0], out=[4, 1]) == [2, 4, 1, 2, 5]
