"""The built-in players and the in-process games: every move legal, the referee's resolution
order, the probability player's arithmetic, and its strength on fixed seeds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

import pytest

from arena_liarsdice.players import (
    PLAYERS,
    BasicPlayer,
    Move,
    Player,
    ProbPlayer,
    RandomPlayer,
    View,
    bid_probability,
    binomial_tail,
    cheapest_raises,
    is_raise,
    make_player,
)
from arena_liarsdice.rules import State, Variant
from arena_liarsdice.simulate import (
    SPOT_ON,
    NoMove,
    Resolution,
    Response,
    Violation,
    apply,
    play_game,
    relative,
    resolve,
    view_for,
)


class Recorder(Player):
    """Wraps a player and keeps every view, move and ``round_over`` it saw."""

    def __init__(self, inner: Player) -> None:
        super().__init__(0)
        self.inner = inner
        self.moves: list[tuple[View, Move]] = []
        self.rounds: list[tuple[tuple[tuple[int, int], ...], int, int, int]] = []

    def move(self, view: View) -> Move:
        move = self.inner.move(view)
        self.moves.append((view, move))
        return move

    def round_over(
        self, state: Sequence[tuple[int, int]], loser: int, challenger: int, winner: int
    ) -> None:
        self.rounds.append((tuple(state), loser, challenger, winner))


def fixed(hands: list[tuple[int, ...]], order: tuple[int, ...], **variant: bool) -> State:
    game = State(order, [len(h) for h in hands], random.Random(0), Variant(**variant))
    game.hands = [tuple(sorted(h)) for h in hands]
    game.mover = order[0]
    return game


HANDS = [(2, 2, 3), (1, 4, 6), (5, 5, 6), (3, 4, 4)]


# -- legality over many games -------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_every_player_moves_legally(n: int) -> None:
    rng = random.Random(n)
    names = sorted(PLAYERS)
    for g in range(30):
        recorders = [
            Recorder(make_player(rng.choice(names), rng.getrandbits(32))) for _ in range(n)
        ]
        variant = Variant(wild_ones=g % 3 == 1, spot_on=g % 3 == 2)
        result = play_game(recorders, rng, dice=1 + g % 6, variant=variant)  # Violation if not
        assert sorted([*result.eliminated, result.winner]) == list(range(n))
        for recorder in recorders:
            for view, move in recorder.moves:
                if view.my_turn:
                    assert move == "challenge" or (
                        isinstance(move, tuple) and is_raise(move, view.last_bid, view.on_table)
                    )
                else:
                    assert move in ("pass", "challenge")
                if view.first_move:
                    assert move != "challenge", "a built-in player challenged an empty bid"


def test_prob_never_challenges_its_own_bid() -> None:
    rng = random.Random(3)
    for _ in range(20):
        players = [Recorder(ProbPlayer(rng.getrandbits(32))) for _ in range(3)]
        play_game(players, rng)
        for player in players:
            assert all(move == "pass" for view, move in player.moves if view.my_bid)


def test_views_and_round_over_use_relative_ids() -> None:
    rng = random.Random(11)
    players = [Recorder(BasicPlayer(i)) for i in range(4)]
    result = play_game(players, rng, dice=2)
    for me, player in enumerate(players):
        for view, _ in player.moves:
            ids = [pid for pid, _ in view.others]
            assert 0 in ids
            assert sorted(ids) == sorted({pid for pid in ids})
            assert all(pid == 0 or 1 <= pid <= 4 for pid in ids)
            assert me + 1 not in ids
            assert len(view.hand) == dict(view.others)[0]
        assert len(player.rounds) == result.rounds
        state, loser, _, winner = player.rounds[-1]
        assert sorted(pid for pid, _ in state) == sorted({0} | {p + 1 for p in range(4)} - {me + 1})
        assert winner == relative(result.winner, me)
        assert [s for s in player.rounds if s[3] != -1] == [player.rounds[-1]]
        assert loser == relative(result.eliminated[-1], me)


def test_view_for_starts_with_the_mover_and_ends_with_the_bidder() -> None:
    game = fixed(HANDS, order=(2, 0, 3, 1))
    game.bid(2, (4, 2))
    view = view_for(game, 3, game_number=5)
    assert view.others == ((1, 3), (0, 3), (2, 3), (3, 3))
    assert view.hand == (3, 4, 4)
    assert (view.last_bid, view.game_number, view.round_number, view.move_number) == (
        (4, 2),
        5,
        1,
        2,
    )
    assert not view.my_turn
    assert view.on_table == 12
    assert view_for(game, 0).my_turn
    assert view_for(game, 2).my_bid
    assert (relative(None, 1), relative(1, 1), relative(2, 1)) == (-1, 0, 3)


def test_an_illegal_move_raises_naming_the_player() -> None:
    class Passer(BasicPlayer):
        def move(self, view: View) -> Move:
            return "pass"

    with pytest.raises(Violation, match=r"player 1 \(Passer\): passed on its own turn"):
        play_game([BasicPlayer(0), Passer(1)], random.Random(0))


# -- resolution ---------------------------------------------------------------------------


def test_faults_come_before_challenges_and_bids() -> None:
    game = fixed(HANDS, order=(0, 1, 2, 3))
    replies: dict[int, Response] = {0: (3, 1), 1: "challenge", 2: "pass", 3: (7, 0)}
    assert resolve(game, replies) == Resolution("challenge", 1), "a bid out of turn is a pass"
    strict = fixed(HANDS, order=(0, 1, 2, 3), strict_turn=True)
    assert resolve(strict, replies) == Resolution("fault", 3, "bid [7, 0] out of turn")


def test_a_bid_out_of_turn_is_a_pass_unless_strict_turn() -> None:
    replies: dict[int, Response] = {0: (3, 1), 1: [4, 2], 2: "pass", 3: (5, 9)}
    game = fixed(HANDS, order=(0, 1, 2, 3))
    resolution = resolve(game, replies)
    assert resolution == Resolution("bid", 0, bid=(3, 1))
    apply(game, resolution)
    assert (game.last_bid, game.last_bidder, game.mover) == ((3, 1), 0, 1)
    strict = fixed(HANDS, order=(0, 1, 2, 3), strict_turn=True)
    assert resolve(strict, replies) == Resolution("fault", 1, "bid [4, 2] out of turn")


def test_an_overbid_stands_unless_strict_count() -> None:
    replies: dict[int, Response] = {0: (6, 13), 1: "pass", 2: "pass", 3: "pass"}  # 12 dice
    game = fixed(HANDS, order=(0, 1, 2, 3))
    assert resolve(game, replies) == Resolution("bid", 0, bid=(6, 13))
    strict = fixed(HANDS, order=(0, 1, 2, 3), strict_count=True)
    reason = "count 13 is not 1 to 12 (the dice on the table)"
    assert resolve(strict, replies) == Resolution("fault", 0, reason)


def test_challenges_come_before_the_bid_even_out_of_turn() -> None:
    game = fixed(HANDS, order=(0, 1, 2, 3))
    replies: dict[int, Response] = {0: (3, 1), 1: "pass", 2: "pass", 3: "challenge"}
    assert resolve(game, replies) == Resolution("challenge", 3)
    result = apply(game, resolve(game, replies))
    assert result is not None
    assert (result.loser, result.challenger) == (3, 3)  # no bid yet: the challenger loses


def test_the_bid_stands_when_everyone_else_passes() -> None:
    game = fixed(HANDS, order=(0, 1, 2, 3))
    replies: dict[int, Response] = {0: [3, 1], 1: "pass", 2: "pass", 3: "pass"}  # as JSON has it
    resolution = resolve(game, replies)
    assert resolution == Resolution("bid", 0, bid=(3, 1))
    assert apply(game, resolution) is None
    assert (game.last_bid, game.mover) == ((3, 1), 1)


def test_ties_go_to_the_earliest_in_playing_order_from_the_mover() -> None:
    game = fixed(HANDS, order=(3, 1, 0, 2))
    game.bid(3, (4, 2))  # player 1 moves: the order is 1, 0, 2, 3
    calls: dict[int, Response] = {1: (4, 3), 0: "pass", 2: "challenge", 3: "challenge"}
    assert resolve(game, calls) == Resolution("challenge", 2)
    calls[1] = "challenge"
    assert resolve(game, calls) == Resolution("challenge", 1)
    faults: dict[int, Response] = {1: "pass", 0: NoMove("late"), 2: (5, 5), 3: "pass"}
    assert resolve(game, faults) == Resolution("fault", 1, "passed on its own turn")
    faults[1] = (4, 3)
    assert resolve(game, faults) == Resolution("fault", 0, "late")


@pytest.mark.parametrize(
    ("mover_reply", "reason"),
    [
        ("pass", "passed on its own turn"),
        ((4, 2), "[4, 2] does not raise [4, 2]"),
        ((7, 3), "face 7 is not 1 to 6"),
        ((4, 0), "count 0 is not 1 or more"),
        ("raise", "'raise' is not a move"),
        (None, "None is not a move"),
        (SPOT_ON, "variant off"),
        (NoMove("no message_id in {}"), "no message_id in {}"),
    ],
)
def test_illegal_replies_of_the_mover_are_faults(mover_reply: object, reason: str) -> None:
    game = fixed(HANDS, order=(0, 1, 2, 3))
    game.bid(0, (4, 2))
    replies = {1: mover_reply, 0: "challenge", 2: "pass", 3: "pass"}
    resolution = resolve(game, replies)  # type: ignore[arg-type]
    assert (resolution.kind, resolution.player) == ("fault", 1)
    assert reason in resolution.reason
    result = apply(game, resolution)
    assert result is not None
    assert (result.loser, result.challenger) == (1, None)


def test_a_missing_reply_is_a_fault_and_strangers_are_a_bug() -> None:
    game = fixed([(1, 2), (3, 4), (), (5,)], order=(0, 1, 2, 3))
    assert resolve(game, {0: (1, 1), 1: "pass"}) == Resolution("fault", 3, "no reply")
    with pytest.raises(ValueError, match=r"\[2\]"):
        resolve(game, {0: (1, 1), 1: "pass", 2: "pass", 3: "pass"})


def test_resolve_does_not_change_the_game() -> None:
    game = fixed(HANDS, order=(0, 1, 2, 3))
    before = (list(game.dice), game.last_bid, game.mover, game.move_number)
    resolve(game, {0: (3, 1), 1: "challenge", 2: "pass", 3: "pass"})
    resolve(game, {0: (3, 1), 1: "pass", 2: "pass", 3: "pass"})
    assert (list(game.dice), game.last_bid, game.mover, game.move_number) == before


def test_spot_on_is_a_call_with_the_variant() -> None:
    game = fixed(HANDS, order=(0, 1, 2, 3), spot_on=True)
    game.bid(0, (6, 2))  # exactly two 6s
    replies: dict[int, Response] = {1: (6, 3), 2: SPOT_ON, 3: "challenge", 0: "pass"}
    resolution = resolve(game, replies)
    assert resolution == Resolution("spot_on", 2)
    result = apply(game, resolution)
    assert result is not None
    assert (result.loser, result.challenger, result.counted) == (0, 2, 2)


# -- the players' own logic ---------------------------------------------------------------


def test_binomial_tail_matches_hand_computed_values() -> None:
    assert binomial_tail(3, 0) == 1.0
    assert binomial_tail(3, 4) == 0.0
    assert binomial_tail(3, 1) == pytest.approx(float(1 - Fraction(5, 6) ** 3))  # 91/216
    assert binomial_tail(3, 2) == pytest.approx(16 / 216)  # 3 * 5/216 + 1/216
    assert binomial_tail(10, 2) == pytest.approx(
        1 - float(Fraction(5, 6) ** 10 + 10 * Fraction(1, 6) * Fraction(5, 6) ** 9)
    )


def test_prob_player_judges_a_bid_by_its_own_dice() -> None:
    hand = (3, 3, 5)
    assert bid_probability((3, 2), hand, 6) == 1.0
    assert bid_probability((3, 3), hand, 6) == pytest.approx(91 / 216)
    assert bid_probability((3, 4), hand, 6) == pytest.approx(16 / 216)
    assert bid_probability((2, 2), hand, 6) == pytest.approx(16 / 216)
    assert bid_probability((5, 5), hand, 6) == 0.0
    view = View(hand, ((0, 3), (1, 3)), (3, 4))
    assert ProbPlayer(0).probability(view, (3, 4)) == pytest.approx(16 / 216)


def test_prob_player_challenges_unlikely_bids_and_raises_likely_ones() -> None:
    prob = ProbPlayer(0, threshold=0.25, call_out=0.1)
    hand = (3, 3, 5)
    two = ((0, 3), (1, 3))
    assert prob.move(View(hand, two, (2, 2))) == "challenge"  # 16/216 < 0.25
    # (2, 1) is 91/216 likely: raise to a sure (3, 1) rather than (5, 1), we hold more 3s.
    assert prob.move(View(hand, two, (2, 1))) == (3, 1)
    assert prob.move(View(hand, two, (6, 6))) == "challenge"  # no raise left
    three = ((1, 3), (0, 3), (2, 3))  # out of turn; player 2 made the last bid
    assert prob.move(View(hand, three, (2, 3))) == "challenge"  # P(X >= 3 of 6) = 0.06
    assert prob.move(View(hand, three, (2, 2))) == "pass"  # P(X >= 2 of 6) = 0.26
    assert prob.move(View(hand, three, (0, 0))) == "pass"
    ours = ((1, 3), (2, 3), (0, 3))
    assert prob.move(View(hand, ours, (6, 6))) == "pass"  # our own bid, however unlikely


def test_prob_player_opens_with_its_commonest_face() -> None:
    prob = ProbPlayer(0, opening=0.8)
    move = prob.move(View((1, 4, 4, 4, 6), ((0, 5), (1, 5)), (0, 0)))
    assert isinstance(move, tuple)
    face, count = move
    assert face == 4
    assert count >= 3
    assert bid_probability((4, count), (1, 4, 4, 4, 6), 10) >= 0.8


def test_cheapest_raises_are_one_per_face() -> None:
    assert cheapest_raises((0, 0), 4) == [(f, 1) for f in range(1, 7)]
    assert cheapest_raises((4, 3), 9) == [(1, 4), (2, 4), (3, 4), (4, 4), (5, 3), (6, 3)]
    assert cheapest_raises((4, 3), 3) == [(5, 3), (6, 3)]
    assert cheapest_raises((6, 3), 3) == []


def test_basic_player_plays_like_the_contest_sample() -> None:
    mine = View((2, 5), ((0, 2), (1, 3)), (4, 2))
    moves = [BasicPlayer(seed).move(mine) for seed in range(200)]
    assert set(moves) == {(4, 3), "challenge"}
    assert 20 <= moves.count("challenge") <= 60, "one time in five"
    theirs = View((2, 5), ((1, 3), (0, 2)), (4, 2))
    out_of_turn = [BasicPlayer(seed).move(theirs) for seed in range(200)]
    assert set(out_of_turn) == {"pass", "challenge"}, "it challenges out of turn too"
    for seed in range(20):
        assert BasicPlayer(seed).move(View((2, 5), ((0, 2), (1, 3)), (4, 5))) == "challenge"
        assert BasicPlayer(seed).move(View((2, 5), ((0, 2), (1, 3)), (0, 0))) == (1, 1)
        assert BasicPlayer(seed).move(View((2, 5), ((1, 3), (0, 2)), (0, 0))) == "pass"


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_player_challenges_a_bid_above_the_table(name: str) -> None:
    # Legal by default (the contest's sample makes such bids); it can only be false.
    for seed in range(20):
        mine = View((2, 5), ((0, 2), (1, 3)), (4, 6))
        assert make_player(name, seed).move(mine) == "challenge"
        theirs = View((2, 5), ((1, 3), (0, 2)), (4, 6))
        assert make_player(name, seed).move(theirs) in ("pass", "challenge")


def test_random_player_stays_near_the_last_bid() -> None:
    for seed in range(100):
        move = RandomPlayer(seed).move(View((2, 5), ((0, 2), (1, 8)), (4, 3)))
        if move != "challenge":
            assert isinstance(move, tuple)
            assert is_raise(move, (4, 3), 10)
            assert move[1] <= 5


def test_make_player_knows_the_built_in_names() -> None:
    assert isinstance(make_player("prob", 1), ProbPlayer)
    assert isinstance(make_player("basic", None), BasicPlayer)
    assert isinstance(make_player("random", 2), RandomPlayer)
    with pytest.raises(ValueError, match="no player 'clever'"):
        make_player("clever", 1)


# -- strength -----------------------------------------------------------------------------


def test_prob_beats_basic_on_fixed_seeds() -> None:
    wins = 0
    for seed in range(200):
        rng = random.Random(seed)
        seat = seed % 2
        players: list[Player] = [BasicPlayer(seed), BasicPlayer(seed + 1000)]
        players[seat] = ProbPlayer(seed)
        wins += play_game(players, rng).winner == seat
    assert wins >= 120


def test_a_view_built_from_json_lists_behaves_like_tuples() -> None:
    view = View([2, 5], [[0, 2], [3, 4]], [0, 0])  # type: ignore[arg-type]
    assert view.first_move
    assert (view.hand, view.others, view.on_table) == ((2, 5), ((0, 2), (3, 4)), 6)
    assert BasicPlayer(1).move(view) == (1, 1)
