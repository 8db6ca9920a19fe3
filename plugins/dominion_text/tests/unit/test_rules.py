"""The Dominion rules engine: every card with its edge cases, drawing and shuffling, buying,
clean-up, the attack flow, the end of the game and its ranking, and that every illegal
operation is refused with the state untouched; the shuffle (the standard library's deals,
card for card); the ranks when the referee put players out."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena_dominion_text.cards import (
    CARDS,
    CELLAR,
    COPPER,
    COST,
    CURSE,
    DUCHY,
    ESTATE,
    GOLD,
    KINGDOM,
    MARKET,
    MILITIA,
    MINE,
    MOAT,
    NAMES,
    PROVINCE,
    REMODEL,
    SILVER,
    SMITHY,
    VILLAGE,
    WOODCUTTER,
    WORKSHOP,
    card,
)
from arena_dominion_text.rules import (
    ACTION,
    ATTACK,
    BUY,
    COURSE,
    EV_BUY,
    EV_DISCARD,
    EV_GAIN,
    EV_PLAY,
    EV_REVEAL,
    EV_SHUFFLE,
    EV_TRASH,
    EV_TURN,
    OVER,
    TO_DISCARD,
    TO_HAND,
    Dominion,
    Event,
    IllegalMove,
    gainable,
    ranks_without,
    shuffle,
    supply_sizes,
)


def setup(
    players: int = 2,
    hand: Sequence[int] = (),
    deck: Sequence[int] = (),
    discard: Sequence[int] = (),
    others: Sequence[Sequence[int]] | None = None,
    seed: int = 0,
    **options,
) -> Dominion:
    """A game whose current player holds exactly ``hand``/``deck`` (top last)/``discard``,
    the other players (in turn order) the hands ``others``; ``owned`` is kept consistent."""
    game = Dominion(players, seed, **options)
    p = game.current
    game.hands[p][:] = hand
    game.decks[p][:] = deck
    game.discards[p][:] = discard
    victims = [(p + i) % players for i in range(1, players)]
    for v, other in zip(victims, others or (), strict=False):
        game.hands[v][:] = other
    for q in range(players):
        counts = Counter(game.hands[q] + game.decks[q] + game.discards[q])
        game.owned[q][:] = [counts[c] for c in CARDS]
    game.drain_events()
    return game


def snapshot(game: Dominion) -> str:
    return repr(game.state())


def refused(game: Dominion, operation: Callable[[], object], reason: str) -> None:
    """``operation`` raises IllegalMove mentioning ``reason`` and changes nothing."""
    before = snapshot(game)
    with pytest.raises(IllegalMove, match=reason):
        operation()
    assert snapshot(game) == before


def kinds(game: Dominion) -> list[str]:
    return [event.kind for event in game.drain_events()]


# -- setup --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "copper", "victory", "curses"), [(2, 46, 8, 10), (3, 39, 12, 20), (4, 32, 12, 30)]
)
def test_supply_sizes_follow_the_player_count(players, copper, victory, curses):
    game = Dominion(players, 1)
    supply = game.supply
    assert supply[COPPER] == copper
    assert (supply[SILVER], supply[GOLD]) == (40, 30)
    assert supply[ESTATE] == supply[DUCHY] == supply[PROVINCE] == victory
    assert supply[CURSE] == curses
    assert all(supply[c] == 10 for c in KINGDOM)
    assert len(game.hands) == players


def test_the_s_expression_v1_supply_has_mine_only_and_no_curses():
    supply = supply_sizes(2, (MINE,), curses=False)
    assert [NAMES[c] for c, left in enumerate(supply) if left >= 0] == [
        "copper",
        "silver",
        "gold",
        "estate",
        "duchy",
        "province",
        "mine",
    ]
    game = Dominion(2, 0, kingdom=(MINE,), curses=False)
    refused(game, lambda: game.buy(CURSE), "curse is not in the supply")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((1, KINGDOM), "2 to 4 players"),
        ((5, KINGDOM), "2 to 4 players"),
        ((2, (COPPER,)), "copper is not a kingdom card"),
        ((2, (MINE, MINE)), "mine is twice"),
    ],
)
def test_bad_setups_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        supply_sizes(*args)


def test_each_player_starts_with_seven_copper_three_estates_five_in_hand():
    game = Dominion(4, 7)
    for p in range(4):
        assert len(game.hands[p]) == 5
        assert len(game.decks[p]) == 5
        assert Counter(game.hands[p] + game.decks[p]) == {COPPER: 7, ESTATE: 3}
        assert game.vp(p) == 3
    assert game.phase == ACTION
    assert (game.actions, game.buys, game.coins) == (1, 1, 0)
    assert game.turns[game.current] == 1
    assert sum(game.turns) == 1


def test_the_seed_decides_shuffles_and_first_player():
    assert snapshot(Dominion(3, 42)) == snapshot(Dominion(3, 42))
    firsts = {Dominion(3, seed).current for seed in range(60)}
    assert firsts == {0, 1, 2}
    assert len({tuple(Dominion(2, seed).hands[0]) for seed in range(60)}) > 1


def test_the_five_two_copper_split_has_probability_one_sixth():
    deals = 60_000
    splits = sum(Dominion(2, seed).hands[0].count(COPPER) in (2, 5) for seed in range(deals))
    p = 1 / 6
    error = math.sqrt(p * (1 - p) / deals)
    assert abs(splits / deals - p) < 4 * error


def test_card_names_translate_both_ways():
    assert card("province") == PROVINCE
    assert NAMES[card("woodcutter")] == "woodcutter"
    with pytest.raises(ValueError, match="unknown card 'gardens'"):
        card("gardens")


# -- the simple actions ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "cards", "actions", "buys", "coins"),
    [
        (MARKET, 1, 1, 2, 1),
        (MOAT, 2, 0, 1, 0),
        (SMITHY, 3, 0, 1, 0),
        (VILLAGE, 1, 2, 1, 0),
        (WOODCUTTER, 0, 0, 2, 2),
    ],
)
def test_plus_effects(action, cards, actions, buys, coins):
    game = setup(hand=[action, ESTATE], deck=[GOLD, GOLD, GOLD, SILVER, SILVER, SILVER])
    game.play_action(action)
    assert game.hand() == [ESTATE, *[SILVER, SILVER, SILVER, GOLD, GOLD, GOLD][:cards]]
    assert (game.actions, game.buys, game.coins) == (actions, buys, coins)
    assert game.in_play == [action]
    assert game.drain_events() == [Event(EV_PLAY, game.current, (action,))]


def test_actions_take_no_arguments_they_do_not_use():
    game = setup(hand=[SMITHY, ESTATE], deck=[COPPER] * 5)
    refused(game, lambda: game.play_action(SMITHY, (ESTATE,)), "smithy takes no arguments")
    refused(game, lambda: game.play_action(SMITHY, gain=SILVER), "smithy takes no arguments")


def test_an_action_needs_an_action_left_and_the_card_in_hand():
    game = setup(hand=[SMITHY, SMITHY, VILLAGE], deck=[COPPER] * 10)
    refused(game, lambda: game.play_action(MARKET), "no market in the hand")
    refused(game, lambda: game.play_action(COPPER), "copper is not an action card")
    game.play_action(SMITHY)
    refused(game, lambda: game.play_action(SMITHY), "no actions left")


def test_forfeit_action_uses_the_action_and_optionally_the_card():
    game = setup(hand=[VILLAGE, MINE, COPPER])
    game.forfeit_action(MINE)
    assert game.actions == 0
    assert game.in_play == [MINE]
    assert game.hand() == [VILLAGE, COPPER]
    refused(game, lambda: game.forfeit_action(), "no actions left")
    game = setup(hand=[COPPER])
    game.forfeit_action()
    assert (game.actions, game.hand(), game.in_play) == (0, [COPPER], [])
    refused(game, lambda: game.forfeit_action(), "no actions left")


# -- cellar ---------------------------------------------------------------------------------


def test_cellar_discards_then_draws_as_many():
    game = setup(hand=[CELLAR, ESTATE, ESTATE, COPPER], deck=[GOLD, SILVER, COPPER])
    game.play_action(CELLAR, (ESTATE, ESTATE))
    assert game.hand() == [COPPER, COPPER, SILVER]
    assert game.discards[game.current] == [ESTATE, ESTATE]
    assert game.actions == 1
    events = game.drain_events()
    assert events[1] == Event(EV_DISCARD, game.current, (ESTATE, ESTATE), ESTATE)


def test_cellar_discarding_nothing_is_legal_and_draws_nothing():
    game = setup(hand=[CELLAR, ESTATE], deck=[GOLD])
    game.play_action(CELLAR)
    assert game.hand() == [ESTATE]
    assert game.decks[game.current] == [GOLD]
    assert game.actions == 1
    assert kinds(game) == [EV_PLAY]


def test_cellar_cannot_discard_itself_or_cards_not_held():
    game = setup(hand=[CELLAR, ESTATE], deck=[GOLD])
    refused(game, lambda: game.play_action(CELLAR, (CELLAR,)), "no cellar in the hand")
    refused(game, lambda: game.play_action(CELLAR, (ESTATE, ESTATE)), "no estate in the hand")
    refused(game, lambda: game.play_action(CELLAR, gain=SILVER), "cellar gains nothing")


# -- workshop -------------------------------------------------------------------------------


def test_workshop_gains_a_card_costing_up_to_four_to_the_discard_pile():
    game = setup(hand=[WORKSHOP])
    game.play_action(WORKSHOP, gain=SMITHY)
    p = game.current
    assert game.discards[p] == [SMITHY]
    assert game.owned[p][SMITHY] == 1
    assert game.supply[SMITHY] == 9
    assert game.drain_events()[-1] == Event(EV_GAIN, p, (SMITHY,), TO_DISCARD)


def test_workshop_refuses_what_costs_more_than_four_or_is_gone():
    game = setup(hand=[WORKSHOP])
    refused(game, lambda: game.play_action(WORKSHOP, gain=MINE), "mine costs 5, more than 4")
    game.supply[SILVER] = 0
    refused(game, lambda: game.play_action(WORKSHOP, gain=SILVER), "the silver pile is empty")
    refused(game, lambda: game.play_action(WORKSHOP), "a card to gain is required")
    refused(game, lambda: game.play_action(WORKSHOP, (WORKSHOP,)), "takes no cards")


def test_workshop_with_nothing_to_gain_gains_nothing():
    game = setup(hand=[WORKSHOP])
    for c in CARDS:
        if COST[c] <= 4:
            game.supply[c] = 0
    game.play_action(WORKSHOP)
    assert game.discards[game.current] == []


# -- remodel --------------------------------------------------------------------------------


def test_remodel_trashes_and_gains_up_to_two_more():
    game = setup(hand=[REMODEL, ESTATE, COPPER])
    game.play_action(REMODEL, (ESTATE,), SILVER)
    p = game.current
    assert game.hand() == [COPPER]
    assert game.trash == [ESTATE]
    assert game.discards[p] == [SILVER]
    assert game.owned[p][ESTATE] == 0
    assert game.owned[p][SILVER] == 1
    assert kinds(game) == [EV_PLAY, EV_TRASH, EV_GAIN]


def test_remodel_limits_by_cost():
    game = setup(hand=[REMODEL, ESTATE, GOLD])
    refused(
        game,
        lambda: game.play_action(REMODEL, (ESTATE,), GOLD),
        "remodel: gold costs 6, more than estate's cost 2 \\+ 2",
    )
    game.play_action(REMODEL, (GOLD,), PROVINCE)
    assert game.discards[game.current] == [PROVINCE]


def test_remodel_cannot_trash_itself_or_absent_cards():
    game = setup(hand=[REMODEL, ESTATE])
    refused(game, lambda: game.play_action(REMODEL, (REMODEL,), SILVER), "no remodel in the")
    refused(game, lambda: game.play_action(REMODEL, (GOLD,), SILVER), "no gold in the hand")
    refused(game, lambda: game.play_action(REMODEL, (), None), "a card to trash is required")
    refused(game, lambda: game.play_action(REMODEL, (ESTATE, ESTATE), None), "trashes one")


def test_remodel_with_nothing_legal_to_gain_still_trashes():
    game = setup(hand=[REMODEL, COPPER])
    refused(game, lambda: game.play_action(REMODEL, (COPPER,)), "a card to gain is required")
    for c in CARDS:
        if COST[c] <= 2:
            game.supply[c] = 0
    refused(game, lambda: game.play_action(REMODEL, (COPPER,), CURSE), "the curse pile is empty")
    game.play_action(REMODEL, (COPPER,))
    assert game.trash == [COPPER]
    assert game.discards[game.current] == []


def test_remodel_with_an_empty_hand_does_nothing():
    game = setup(hand=[REMODEL])
    refused(game, lambda: game.play_action(REMODEL, (), SILVER), "nothing trashed")
    game.play_action(REMODEL)
    assert game.trash == []
    assert game.in_play == [REMODEL]


# -- mine -----------------------------------------------------------------------------------


def test_mine_gains_a_treasure_into_the_hand_which_can_then_be_played():
    game = setup(hand=[MINE, COPPER, ESTATE])
    game.play_action(MINE, (COPPER,), SILVER)
    p = game.current
    assert game.hand() == [ESTATE, SILVER]
    assert game.trash == [COPPER]
    assert game.discards[p] == []
    assert game.drain_events()[-2:] == [
        Event(EV_TRASH, p, (COPPER,)),
        Event(EV_GAIN, p, (SILVER,), TO_HAND),
    ]
    game.play_treasure(SILVER)
    assert game.coins == 2


def test_mine_limits_by_cost_and_to_treasures():
    game = setup(hand=[MINE, COPPER, SILVER, ESTATE])
    refused(
        game,
        lambda: game.play_action(MINE, (COPPER,), GOLD),
        "mine: gold costs 6, more than copper's cost 0 \\+ 3",
    )
    refused(game, lambda: game.play_action(MINE, (SILVER,), SMITHY), "smithy is not a treasure")
    refused(game, lambda: game.play_action(MINE, (ESTATE,), SILVER), "estate is not a treasure")
    refused(game, lambda: game.play_action(MINE, (GOLD,), GOLD), "no gold in the hand")
    refused(game, lambda: game.play_action(MINE, (), None), "a card to trash is required")
    game.play_action(MINE, (SILVER,), GOLD)
    assert sorted(game.hand()) == sorted([COPPER, ESTATE, GOLD])


def test_mine_with_nothing_legal_to_gain_still_trashes():
    game = setup(hand=[MINE, COPPER])
    refused(game, lambda: game.play_action(MINE, (COPPER,)), "a card to gain is required")
    game.supply[COPPER] = game.supply[SILVER] = 0
    game.play_action(MINE, (COPPER,))
    assert game.trash == [COPPER]
    assert game.hand() == []


def test_mine_without_a_treasure_in_hand_does_nothing():
    game = setup(hand=[MINE, ESTATE])
    game.play_action(MINE)
    assert game.hand() == [ESTATE]
    assert game.trash == []


# -- militia and moat -----------------------------------------------------------------------


def test_militia_waits_for_every_victim_in_turn_order():
    big = [COPPER, COPPER, ESTATE, ESTATE, SILVER]
    game = setup(4, hand=[MILITIA], others=[big, [COPPER] * 3, list(big)])
    p = game.current
    victims = [(p + 1) % 4, (p + 3) % 4]
    game.play_action(MILITIA)
    assert game.coins == 2
    assert game.phase == ATTACK
    assert game.pending == victims
    refused(game, lambda: game.play_treasure(COPPER), "waiting for the attacked players")
    refused(game, lambda: game.end_turn(), "waiting for the attacked players")
    refused(game, lambda: game.discard_down((p + 2) % 4, []), "is not waiting")
    refused(game, lambda: game.discard_down(p, []), "is not waiting")
    game.discard_down(victims[1], [ESTATE, ESTATE])
    assert game.hands[victims[1]] == [COPPER, COPPER, SILVER]
    assert game.pending == [victims[0]]
    game.discard_down(victims[0], [COPPER, ESTATE])
    assert game.hands[victims[0]] == [COPPER, ESTATE, SILVER]
    assert game.discards[victims[0]][-1] == ESTATE
    assert game.phase == ACTION
    assert game.pending == []
    events = game.drain_events()
    assert events[-1] == Event(EV_DISCARD, victims[0], (COPPER, ESTATE), ESTATE)


def test_militia_against_hands_of_three_or_fewer_needs_no_answer():
    game = setup(3, hand=[MILITIA, VILLAGE], others=[[COPPER] * 3, [MOAT, ESTATE]])
    game.play_action(MILITIA)
    assert game.phase == ACTION
    assert game.pending == []
    assert kinds(game) == [EV_PLAY]
    refused(game, lambda: game.reveal_moat((game.current + 2) % 3), "no attack is waiting")


def test_a_revealed_moat_stays_in_hand_and_protects():
    hand = [MOAT, COPPER, COPPER, ESTATE, ESTATE]
    game = setup(hand=[MILITIA], others=[hand])
    victim = 1 - game.current
    game.play_action(MILITIA)
    game.reveal_moat(victim)
    assert game.hands[victim] == hand
    assert game.phase == ACTION
    assert game.drain_events()[-1] == Event(EV_REVEAL, victim, (MOAT,))


def test_a_moat_need_not_be_revealed():
    game = setup(hand=[MILITIA], others=[[MOAT, COPPER, COPPER, ESTATE, ESTATE]])
    victim = 1 - game.current
    game.play_action(MILITIA)
    game.discard_down(victim, [ESTATE, ESTATE])
    assert game.hands[victim] == [MOAT, COPPER, COPPER]


def test_attack_answers_are_validated():
    game = setup(hand=[MILITIA], others=[[COPPER, COPPER, ESTATE, ESTATE, SILVER]])
    victim = 1 - game.current
    game.play_action(MILITIA)
    refused(game, lambda: game.reveal_moat(victim), "has no moat in hand")
    refused(game, lambda: game.discard_down(victim, [ESTATE]), "must discard 2 cards to keep 3")
    refused(game, lambda: game.discard_down(victim, [GOLD, ESTATE]), "has no gold in hand")
    refused(game, lambda: game.discard_down(victim, [SILVER, SILVER]), "has no silver in hand")


def test_random_discards_are_valid_and_seeded():
    hand = [COPPER, COPPER, ESTATE, ESTATE, SILVER, GOLD]
    choices = set()
    for seed in range(20):
        game = setup(hand=[MILITIA], others=[hand], seed=seed)
        victim = 1 - game.current
        game.play_action(MILITIA)
        discard = game.random_discards(victim)
        assert len(discard) == 3
        game.discard_down(victim, discard)
        choices.add(tuple(sorted(discard)))
    assert len(choices) > 1


# -- drawing --------------------------------------------------------------------------------


def test_an_empty_deck_shuffles_the_discard_pile_in_the_middle_of_a_draw():
    game = setup(hand=[SMITHY], deck=[GOLD], discard=[SILVER, SILVER, SILVER, SILVER])
    game.play_action(SMITHY)
    p = game.current
    assert game.hand()[0] == GOLD
    assert sorted(game.hand()) == [SILVER, SILVER, GOLD]
    assert game.decks[p] == [SILVER, SILVER]
    assert game.discards[p] == []
    assert kinds(game) == [EV_PLAY, EV_SHUFFLE]


def test_drawing_from_an_empty_deck_and_discard_pile_draws_fewer():
    game = setup(hand=[SMITHY], deck=[GOLD])
    game.play_action(SMITHY)
    assert game.hand() == [GOLD]
    assert kinds(game) == [EV_PLAY]
    game = setup(hand=[MOAT])
    game.play_action(MOAT)
    assert game.hand() == []


# -- treasures and buying -------------------------------------------------------------------


def test_treasures_add_coins_and_end_the_action_phase():
    game = setup(hand=[COPPER, SILVER, GOLD, VILLAGE, ESTATE])
    refused(game, lambda: game.play_treasure(ESTATE), "estate is not a treasure")
    refused(game, lambda: game.play_treasure(VILLAGE), "village is not a treasure")
    game.play_treasure(GOLD)
    assert (game.coins, game.actions, game.phase) == (3, 0, BUY)
    refused(game, lambda: game.play_action(VILLAGE), "not in the action phase")
    refused(game, lambda: game.play_treasure(GOLD), "no gold in the hand")
    game.play_all_treasures()
    assert game.coins == 6
    assert game.hand() == [VILLAGE, ESTATE]
    assert game.in_play == [GOLD, COPPER, SILVER]
    assert game.money_in_hand() == 0


def test_buying_spends_coins_and_buys_and_ends_the_action_phase():
    game = setup(hand=[WOODCUTTER, SMITHY, GOLD, GOLD])
    game.play_action(WOODCUTTER)
    game.play_all_treasures()
    game.buy(GOLD)
    assert (game.coins, game.buys, game.phase) == (2, 1, BUY)
    game.buy(ESTATE)
    p = game.current
    assert game.discards[p] == [GOLD, ESTATE]
    assert game.owned[p][GOLD] == 3
    assert game.supply[GOLD] == 29
    refused(game, lambda: game.buy(COPPER), "no buys left")
    assert [e for e in game.drain_events() if e.kind == EV_BUY] == [
        Event(EV_BUY, p, (GOLD,), TO_DISCARD),
        Event(EV_BUY, p, (ESTATE,), TO_DISCARD),
    ]


def test_buying_with_zero_coins():
    game = setup(hand=[ESTATE, SMITHY], deck=[COPPER] * 5)
    refused(game, lambda: game.buy(SILVER), "silver costs 3, only 0 coins")
    game.buy(COPPER)
    assert game.phase == BUY
    refused(game, lambda: game.play_action(SMITHY), "not in the action phase")
    game = setup(hand=[ESTATE])
    game.buy(CURSE)
    assert game.vp(game.current) == 0


def test_buying_from_an_empty_or_absent_pile_is_refused():
    game = setup(hand=[GOLD, GOLD, GOLD], kingdom=(SMITHY,))
    game.play_all_treasures()
    game.supply[GOLD] = 0
    refused(game, lambda: game.buy(GOLD), "the gold pile is empty")
    refused(game, lambda: game.buy(MARKET), "market is not in the supply")


# -- clean-up -------------------------------------------------------------------------------


def test_end_turn_discards_everything_shows_the_chosen_card_and_draws_five():
    game = setup(hand=[SILVER, ESTATE, GOLD], deck=[COPPER] * 6)
    p = game.current
    game.play_treasure(SILVER)
    refused(game, lambda: game.end_turn(PROVINCE), "no province in the hand or play area")
    game.end_turn(GOLD)
    assert game.discards[p][-1] == GOLD
    assert sorted(game.discards[p]) == sorted([SILVER, ESTATE, GOLD])
    assert game.hands[p] == [COPPER] * 5
    assert game.in_play == []
    assert game.current == 1 - p
    assert (game.actions, game.buys, game.coins, game.phase) == (1, 1, 0, ACTION)
    assert game.drain_events()[-2:] == [
        Event(EV_DISCARD, p, (SILVER, ESTATE, GOLD), GOLD),
        Event(EV_TURN, 1 - p, (), 1),
    ]


@pytest.mark.parametrize(
    ("hand", "played", "top"),
    [
        ([COPPER, ESTATE, SMITHY], [SILVER, GOLD], GOLD),
        ([SMITHY, COPPER, DUCHY], [], DUCHY),
        ([SMITHY, COPPER], [], COPPER),
        ([SMITHY, VILLAGE], [], SMITHY),
    ],
)
def test_the_default_top_card_is_the_last_played_else_victory_treasure_action(hand, played, top):
    game = setup(hand=hand + played, deck=[COPPER] * 5)
    for c in played:
        game.play_treasure(c)
    game.end_turn()
    assert game.discards[1 - game.current][-1] == top


def test_an_empty_clean_up_discards_nothing():
    game = setup(hand=[])
    game.end_turn()
    assert kinds(game) == [EV_TURN]


# -- the end --------------------------------------------------------------------------------


def test_the_game_ends_after_the_turn_that_empties_the_province_pile():
    game = setup(hand=[GOLD, GOLD, SILVER])
    p = game.current
    game.supply[PROVINCE] = 1
    game.play_all_treasures()
    game.buy(PROVINCE)
    assert game.phase == BUY
    game.end_turn()
    assert game.phase == OVER
    assert game.over
    result = game.result
    assert result.reason == "the province pile is empty"
    assert result.vp[p] == 6
    assert result.winners == (p,)
    refused(game, lambda: game.end_turn(), "the game is over")
    refused(game, lambda: game.buy(COPPER), "the game is over")


def test_three_empty_piles_end_the_game_curses_and_kingdom_piles_included():
    game = Dominion(2, 0)
    game.supply[CURSE] = game.supply[MOAT] = 0
    game.end_turn()
    assert not game.over
    game.supply[SMITHY] = 0
    game.end_turn()
    assert game.result.reason == "three supply piles are empty: curse, moat, smithy"


def test_course_rules_end_only_on_provinces():
    game = Dominion(2, 0, rules=COURSE)
    game.supply[CURSE] = game.supply[MOAT] = game.supply[SMITHY] = 0
    game.end_turn()
    assert not game.over
    game.supply[PROVINCE] = 0
    game.end_turn()
    assert game.result.reason == "the province pile is empty"


def test_equal_vp_fewer_turns_wins():
    game = Dominion(2, 0)
    p = game.current
    game.supply[PROVINCE] = 0
    game.end_turn()
    result = game.result
    assert result.vp == (3, 3)
    assert result.turns[p] == 1
    assert result.turns[1 - p] == 0
    assert result.winners == (1 - p,)
    assert result.ranks[p] == 2


def test_equal_vp_and_turns_share_the_win():
    game = Dominion(2, 0)
    game.end_turn()
    game.supply[PROVINCE] = 0
    game.end_turn()
    assert game.result.turns == (1, 1)
    assert game.result.ranks == (1, 1)
    assert game.result.winners == (0, 1)


def test_course_rules_share_the_win_on_equal_vp_whatever_the_turns():
    game = Dominion(2, 0, rules=COURSE)
    game.supply[PROVINCE] = 0
    game.end_turn()
    assert game.result.ranks == (1, 1)


def test_ranks_with_ties_skip_the_next_rank():
    game = Dominion(3, 0)
    first = game.current
    game.end_turn()
    game.end_turn()
    game.owned[first][DUCHY] = 1
    game.owned[(first + 1) % 3][DUCHY] = 1
    game.supply[PROVINCE] = 0
    game.end_turn()
    ranks = game.result.ranks
    assert game.result.turns == (1, 1, 1)
    assert ranks[first] == ranks[(first + 1) % 3] == 1
    assert ranks[(first + 2) % 3] == 3


def test_the_turn_cap_ends_the_game_when_every_player_has_had_that_many_turns():
    game = Dominion(3, 5, turn_cap=2)
    for _ in range(5):
        game.end_turn()
        assert not game.over
    game.end_turn()
    assert game.result.turns == (2, 2, 2)
    assert game.result.reason == "turn cap of 2 turns reached"
    with pytest.raises(ValueError, match="at least 1"):
        Dominion(2, turn_cap=0)


def test_vp_counts_every_card_owned():
    game = setup(hand=[PROVINCE, CURSE], deck=[DUCHY], discard=[ESTATE])
    assert game.vp(game.current) == 6 - 1 + 3 + 1


# -- any operation: legal, or refused with nothing changed ----------------------------------


def _total_cards(game: Dominion) -> Counter:
    total = Counter(game.trash + game.in_play)
    for pile in (*game.hands, *game.decks, *game.discards):
        total.update(pile)
    for c, left in enumerate(game.supply):
        total[c] += max(left, 0)
    return total


def _random_operation(game: Dominion, rng: random.Random) -> Callable[[], object]:
    some = rng.choice(CARDS)
    cards = tuple(rng.choice(CARDS) for _ in range(rng.randrange(3)))
    hand = game.hand()
    if hand and rng.random() < 0.7:
        some = rng.choice(hand)
        cards = tuple(rng.sample(hand, rng.randrange(min(3, len(hand)) + 1)))
    gain = rng.choice([None, *CARDS, *gainable(game.supply, rng.randrange(7))])
    player = rng.randrange(game.players)
    if game.pending and rng.random() < 0.8:
        player = rng.choice(game.pending)
    return rng.choice(
        [
            lambda: game.play_action(some, cards, gain),
            lambda: game.play_action(some, cards[:1], gain),
            lambda: game.play_action(some),
            lambda: game.play_treasure(some),
            lambda: game.buy(gain if gain is not None else some),
            lambda: game.end_turn(rng.choice([None, some])),
            lambda: game.forfeit_action(rng.choice([None, some])),
            lambda: game.reveal_moat(player),
            lambda: game.discard_down(player, cards),
            lambda: game.discard_down(player, game.random_discards(player)),
            lambda: game.play_all_treasures(),
        ]
    )


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_random_operations_are_applied_or_refused_untouched(seed, players):
    rng = random.Random(seed)
    game = Dominion(players, seed, turn_cap=30)
    for p in range(players):
        # Kingdom cards from the start, or random buys would seldom reach the interesting rules.
        extra = [*KINGDOM, MOAT, MOAT, MILITIA, MILITIA, VILLAGE]
        rng.shuffle(extra)
        game.hands[p] += extra[:2]
        game.decks[p] += extra[2:]
        for c in extra:
            game.owned[p][c] += 1
    total = _total_cards(game)
    for _ in range(400):
        if game.over:
            break
        before = snapshot(game)
        try:
            _random_operation(game, rng)()
        except IllegalMove:
            assert snapshot(game) == before
        assert _total_cards(game) == total
        assert all(len(game.hands[v]) > 3 for v in game.pending)
        assert (game.phase == ATTACK) == bool(game.pending)
        for p in range(players):
            mine = Counter(game.hands[p] + game.decks[p] + game.discards[p])
            if p == game.current:
                mine.update(game.in_play)
            assert [mine[c] for c in CARDS] == game.owned[p]


# -- the shuffle ----------------------------------------------------------------------------
# One seed, one game: the card a player shows on top of its discard pile (a protocol choice)
# does not change what the next shuffle deals.


def play_two_turns_each(top_choice):
    game = Dominion(2, seed=11)
    for _ in range(4):
        hand = game.hand()
        top = top_choice(hand)
        game.end_turn(top)
    return [list(d) for d in game.decks], [list(h) for h in game.hands]


def test_the_exposed_card_does_not_steer_the_shuffle():
    first = play_two_turns_each(lambda hand: ESTATE if ESTATE in hand else None)
    second = play_two_turns_each(lambda hand: COPPER if COPPER in hand else None)
    assert first == second


def test_the_shuffle_deals_what_random_shuffle_deals_and_leaves_the_same_rng_state():
    """So every seed plays the game it always played (golden transcripts, figures)."""
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (*range(12), 17, 23, 31, 46, 64, 130):
            mine = list(range(size))
            reference = list(range(size))
            shuffle(ours, mine)
            theirs.shuffle(reference)
            assert mine == reference
        assert ours.getstate() == theirs.getstate()


def test_every_order_of_four_cards_is_equally_likely():
    """Chi-square over the 24 orders; the bound is the 99.99th percentile for 23 degrees of
    freedom, so a fair shuffle fails it once in ten thousand seeds (and never with this one)."""
    rng = random.Random(2024)
    deals = 48_000
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(deals):
        cards = [0, 1, 2, 3]
        shuffle(rng, cards)
        seen[tuple(cards)] += 1
    assert set(seen) == set(permutations(range(4)))
    expected = deals / 24
    chi_square = sum((count - expected) ** 2 / expected for count in seen.values())
    assert chi_square < 57.3


def test_each_card_of_a_deck_lands_in_each_position_alike():
    """Position counts of 20 cards: each within 5 standard deviations of 1/20."""
    rng = random.Random(7)
    deals, size = 10_000, 20
    at = [[0] * size for _ in range(size)]
    for _ in range(deals):
        cards = list(range(size))
        shuffle(rng, cards)
        for position, dealt in enumerate(cards):
            at[dealt][position] += 1
    p = 1 / size
    bound = 5 * math.sqrt(deals * p * (1 - p))
    assert all(abs(count - deals * p) < bound for row in at for count in row)


# -- ranks when the referee put players out of the game -------------------------------------


def test_players_out_rank_below_everyone_and_the_rest_are_reranked():
    assert ranks_without([1, 2, 3, 4], {0}) == [4, 1, 2, 3]
    assert ranks_without([1, 1, 3, 4], {3}) == [1, 1, 3, 4]
    assert ranks_without([2, 1, 3], {1, 2}) == [1, 2, 2]
    assert ranks_without([1, 2], set()) == [1, 2]
