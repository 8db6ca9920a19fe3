"""The line protocol's words: the lines the referee sends, the reading of a bot's replies
(what makes one invalid, and why), and the action replies the built-in bots write."""

from __future__ import annotations

import pytest

from arena_dominion_text.cards import card
from arena_dominion_text.rules import supply_sizes
from arena_dominion_text.wire import (
    Invalid,
    action_arguments,
    action_card,
    action_reply,
    attack_request,
    bought_cards,
    cellar_discards,
    extra_words,
    names,
    play_turn_request,
    seat_index,
    seat_name,
    supply_line,
)


def cards_of(text: str) -> list[int]:
    return [card(word) for word in text.split()]


def test_seats_are_player1_to_player4_both_ways():
    assert [seat_name(s) for s in range(4)] == ["player1", "player2", "player3", "player4"]
    assert [seat_index(seat_name(s)) for s in range(4)] == [0, 1, 2, 3]


def test_the_supply_line_lists_every_pile_of_the_game_empty_ones_too():
    supply = supply_sizes(2)
    supply[card("village")] = 0
    line = supply_line(supply)
    assert line.startswith("supply curse 10 copper 46 silver 40 gold 30 estate 8 duchy 8 ")
    assert " village 0 " in line and line.endswith(" workshop 10")
    assert len(line.split()) == 1 + 2 * 17
    v1 = supply_sizes(2, (card("mine"),), curses=False)
    assert supply_line(v1) == (
        "supply copper 46 silver 40 gold 30 estate 8 duchy 8 province 8 mine 10"
    )


def test_requests_name_the_counters_and_the_hand():
    hand = cards_of("copper smithy estate")
    assert play_turn_request(1, 2, 3, hand) == (
        "play-request play-turn actions 1 buys 2 extra-money 3 hand copper smithy estate"
    )
    assert play_turn_request(0, 1, 0, []) == (
        "play-request play-turn actions 0 buys 1 extra-money 0 hand"
    )
    assert attack_request(2, cards_of("copper copper estate estate gold")) == (
        "play-request attack discard 2 hand copper copper estate estate gold"
    )
    assert names(hand) == "copper smithy estate"


def test_a_buy_list_stops_at_the_first_word_that_is_no_card():
    assert bought_cards(["province", "gold"]) == cards_of("province gold")
    assert bought_cards(["silver", "banana", "gold"]) == cards_of("silver")
    assert bought_cards([]) == []


@pytest.mark.parametrize(
    ("reply", "played", "args"),
    [
        ("play-reply action smithy", "smithy", ""),
        ("play-reply action mine copper silver", "mine", "copper silver"),
        ("play-reply action remodel estate", "remodel", "estate"),
        ("play-reply action workshop silver", "workshop", "silver"),
        ("play-reply reply workshop village", "workshop", "village"),
    ],
)
def test_an_action_reply_names_its_card_and_at_most_its_arguments(reply, played, args):
    words = reply.split()
    assert action_card(words) == card(played)
    assert action_arguments(words, card(played)) == cards_of(args)


@pytest.mark.parametrize(
    ("reply", "reason", "consumed"),
    [
        ("play-reply action", "play-reply action names no card", None),
        ("play-reply action dragon", "unknown card 'dragon'", None),
        (
            "play-reply action smithy estate",
            "extra words after the complete reply 'play-reply action smithy': 'estate'",
            "smithy",
        ),
        (
            "play-reply action workshop silver village",
            "extra words after the complete reply 'play-reply action workshop silver': 'village'",
            "workshop",
        ),
        ("play-reply action mine copper dragon", "mine: unknown card 'dragon'", "mine"),
    ],
)
def test_an_invalid_action_reply_says_why_and_which_card_it_costs(reply, reason, consumed):
    words = reply.split()
    with pytest.raises(Invalid) as invalid:
        action_arguments(words, action_card(words))
    assert invalid.value.reason == reason
    assert invalid.value.card == (None if consumed is None else card(consumed))


def test_extra_words_quote_the_complete_reply_and_the_rest():
    assert extra_words(["play-reply", "pass", "now", "please"], 2) == (
        "extra words after the complete reply 'play-reply pass': 'now please'"
    )


def test_cellar_discards_up_to_the_first_word_not_a_card_left_in_hand():
    hand = [card(n) for n in ("cellar", "estate", "estate", "copper", "duchy")]
    estate, copper = card("estate"), card("copper")
    assert cellar_discards(hand, ["estate", "copper", "gold", "duchy"]) == (
        [estate, copper],
        "no gold left in the hand",
    )
    assert cellar_discards(hand, ["estate", "banana", "duchy"]) == (
        [estate],
        "'banana' is not a card",
    )
    assert cellar_discards(hand, ["copper", "copper"]) == ([copper], "no copper left in the hand")
    assert cellar_discards(hand, ["cellar"]) == ([], "no cellar left in the hand")
    assert cellar_discards(hand, ["estate", "estate"]) == ([estate, estate], None)


@pytest.mark.parametrize(
    ("play", "reply"),
    [
        (("cellar", ("estate", "duchy"), None), "play-reply action cellar estate duchy"),
        (("mine", ("copper",), "silver"), "play-reply action mine copper silver"),
        (("remodel", ("estate",), None), "play-reply action remodel estate"),
        (("workshop", (), "smithy"), "play-reply action workshop smithy"),
        (("workshop", (), None), "play-reply action workshop"),
        (("smithy", (), None), "play-reply action smithy"),
    ],
)
def test_a_bots_action_reply_carries_only_the_arguments_its_card_takes(play, reply):
    action, chosen, gain = play
    as_ids = (card(action), tuple(card(c) for c in chosen), None if gain is None else card(gain))
    assert action_reply(as_ids) == reply
    words = reply.split()
    if action != "cellar":
        assert action_arguments(words, action_card(words)) == [
            *as_ids[1][:1],
            *([] if gain is None else [as_ids[2]]),
        ]
