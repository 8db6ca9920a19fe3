"""One seed, one game: the card a player shows on top of its discard pile (a protocol
choice) does not change what the next shuffle deals."""

from arena_dominion.cards import COPPER, ESTATE
from arena_dominion.engine import Dominion


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
