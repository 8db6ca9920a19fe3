"""The rules: cards, dealing sizes, turn order, disprover search, auto-show, repeats,
elimination, last player standing and the contest's two accusation rules."""

from __future__ import annotations

import random

import pytest

from arena_speedclue.cards import CARDS, CardError, parse_card, parse_triple
from arena_speedclue.rules import (
    Phase,
    RuleError,
    State,
    deal,
    hand_size,
    missed_accusation,
    suicidal_accusation,
)

SOLUTION = ("Gr", "Ca", "Ba")
HANDS3 = (
    ("Mu", "Kn", "Bi", "Co", "Di", "Ha"),
    ("Pe", "Pi", "Ki", "Li", "Lo", "St"),
    ("Pl", "Sc", "Wh", "Re", "Ro", "Wr"),
)
HANDS4 = (
    ("Mu", "Kn", "Bi", "Co", "Di"),
    ("Pe", "Pi", "Ki", "Li", "Lo"),
    ("Pl", "Sc", "Wh", "St"),
    ("Re", "Ro", "Wr", "Ha"),
)


def test_cards_are_the_contest_abbreviations_and_parse_in_any_case() -> None:
    assert len(CARDS) == 21 and len(set(CARDS)) == 21
    assert parse_card("pL") == "Pl" and parse_card("ST") == "St"
    assert parse_triple(["wh", "PI", "bi"]) == ("Wh", "Pi", "Bi")
    with pytest.raises(CardError, match="not a card"):
        parse_card("Xx")
    with pytest.raises(CardError, match="is a room, not a suspect"):
        parse_triple(["Ba", "Ca", "Gr"])
    with pytest.raises(CardError, match="2 token"):
        parse_triple(["Gr", "Ca"])


@pytest.mark.parametrize(
    ("n", "sizes"),
    [(3, [6, 6, 6]), (4, [5, 5, 4, 4]), (5, [4, 4, 4, 3, 3]), (6, [3] * 6)],
)
def test_dealing_sizes_by_seat(n: int, sizes: list[int]) -> None:
    assert [hand_size(seat, n) for seat in range(n)] == sizes
    for seed in range(20):
        dealt = deal(n, random.Random(seed))
        assert [len(hand) for hand in dealt.hands] == sizes
        everything = [card for hand in dealt.hands for card in hand] + list(dealt.solution)
        assert sorted(everything) == sorted(CARDS)
        assert parse_triple(dealt.solution) == dealt.solution


def test_deal_is_seeded_and_refuses_bad_player_counts() -> None:
    assert deal(4, random.Random(7)) == deal(4, random.Random(7))
    for n in (2, 7):
        with pytest.raises(RuleError, match="3 to 6 players"):
            deal(n, random.Random(0))


def test_turn_order_skips_eliminated_players() -> None:
    game = State(SOLUTION, HANDS4)
    game.suggest(0, "Gr", "Ca", "Ba")
    game.decline(0)
    assert game.active == 1
    game.suggest(1, "Gr", "Ca", "Ba")
    assert not game.accuse(1, "Mu", "Ca", "Ba")
    assert game.active == 2 and game.eliminated == {1}
    game.suggest(2, "Gr", "Ca", "Ba")
    game.decline(2)
    game.suggest(3, "Gr", "Ca", "Ba")
    game.decline(3)
    assert game.active == 0
    game.suggest(0, "Gr", "Kn", "Ba")
    game.decline(0)
    assert game.active == 2


def test_disprover_order_wraps_and_includes_eliminated_players() -> None:
    game = State(SOLUTION, HANDS4)
    game.eliminated.add(0)
    game.active = 2
    # Seat 3 holds nothing of this; seat 0 (eliminated) holds Mu and is asked before seat 1.
    disproof = game.suggest(2, "Mu", "Pi", "Ba")
    assert disproof.disprover == 0 and disproof.card == "Mu" and not disproof.needs_choice


def test_disprover_search_stops_before_the_suggester() -> None:
    game = State(SOLUTION, HANDS3)
    disproof = game.suggest(0, "Mu", "Kn", "Ba")  # only the suggester holds any of these
    assert disproof.disprover is None and disproof.card is None
    assert game.phase is Phase.ACCUSE


def test_single_match_is_shown_automatically_and_seen() -> None:
    game = State(SOLUTION, HANDS3)
    disproof = game.suggest(0, "Gr", "Pi", "Ba")
    assert (disproof.disprover, disproof.card, disproof.needs_choice) == (1, "Pi", False)
    assert "Pi" in game.seen[0]
    with pytest.raises(RuleError, match="expected accuse, not show"):
        game.show(1, "Pi")


def test_two_or_three_matches_need_a_valid_show() -> None:
    game = State(SOLUTION, HANDS3)
    disproof = game.suggest(0, "Pe", "Pi", "Ki")
    assert disproof.needs_choice and disproof.card is None
    assert disproof.choices == ("Pe", "Pi", "Ki")
    with pytest.raises(RuleError, match="player 1 disproves, not player 2"):
        game.show(2, "Pe")
    with pytest.raises(RuleError, match="Pl is not one of the suggested cards"):
        game.show(1, "Pl")
    with pytest.raises(RuleError, match="not a card"):
        game.show(1, "Zz")
    with pytest.raises(RuleError, match="expected show, not accuse"):
        game.decline(0)
    assert game.show(1, "ki") == "Ki"
    assert game.seen[0] == {"Ki"} and game.phase is Phase.ACCUSE


def test_a_repeated_own_suggestion_is_refused_but_others_may_repeat_it() -> None:
    game = State(SOLUTION, HANDS3)
    game.suggest(0, "Gr", "Ca", "Ba")
    game.decline(0)
    game.suggest(1, "Gr", "Ca", "Ba")
    game.decline(1)
    game.suggest(2, "Gr", "Ca", "Ba")
    game.decline(2)
    with pytest.raises(RuleError, match="player 0 already suggested Gr Ca Ba"):
        game.suggest(0, "gr", "CA", "ba")


def test_moves_out_of_turn_and_bad_cards_are_refused() -> None:
    game = State(SOLUTION, HANDS3)
    with pytest.raises(RuleError, match="it is player 0's turn, not player 1's"):
        game.suggest(1, "Gr", "Ca", "Ba")
    with pytest.raises(RuleError, match="is a weapon, not a suspect"):
        game.suggest(0, "Ca", "Ca", "Ba")
    with pytest.raises(RuleError, match="expected suggest, not accuse"):
        game.accuse(0, *SOLUTION)


def test_correct_accusation_wins() -> None:
    game = State(SOLUTION, HANDS3)
    game.suggest(0, "Gr", "Kn", "Ba")
    assert game.accuse(0, "gr", "ca", "ba")
    assert game.over and game.winner == 0
    with pytest.raises(RuleError, match="the game is over"):
        game.suggest(1, "Gr", "Ca", "Ba")


def test_elimination_and_last_player_standing_wins() -> None:
    game = State(SOLUTION, HANDS3)
    game.suggest(0, "Gr", "Kn", "Ba")
    assert not game.accuse(0, "Pl", "Ca", "Ba")
    assert game.eliminated == {0} and not game.over and game.active == 1
    game.suggest(1, "Gr", "Kn", "Ba")
    # The eliminated seat 0 still disproves.
    assert game.last_disproof is not None and game.last_disproof.disprover == 0
    assert not game.accuse(1, "Pl", "Ca", "Ba")
    assert game.over and game.winner == 2


def test_forfeit_elimination_passes_the_turn_or_ends_the_game() -> None:
    game = State(SOLUTION, HANDS3)
    game.eliminate(0)
    assert game.active == 1 and game.phase is Phase.SUGGEST
    game.eliminate(2)
    assert game.over and game.winner == 1


def test_suicidal_accusation_rule() -> None:
    game = State(SOLUTION, HANDS3)
    game.suggest(0, "Gr", "Pi", "Ba")  # player 1 shows Pi automatically
    assert suicidal_accusation(game, 0, ("Gr", "Ca", "Ba")) is None
    assert suicidal_accusation(game, 0, ("Gr", "Kn", "Ba")) == (
        "suicidal accusation: player 0 holds Kn"
    )
    assert suicidal_accusation(game, 0, ("Gr", "Pi", "Ba")) == (
        "suicidal accusation: player 0 was shown Pi"
    )


def test_missed_accusation_rule() -> None:
    game = State(SOLUTION, HANDS3)
    game.suggest(0, "Gr", "Ca", "Ba")  # the solution: nobody disproves
    assert missed_accusation(game, 0) == (
        "missed accusation: nobody disproved Gr Ca Ba and player 0 neither holds nor has seen"
        " any of it"
    )
    game.decline(0)
    game.suggest(1, "Gr", "Ca", "Ki")  # undisproved, but player 1 holds Ki
    assert missed_accusation(game, 1) is None
    game.decline(1)
    game.suggest(2, "Mu", "Ca", "Ba")  # disproved by player 0
    assert missed_accusation(game, 2) is None
