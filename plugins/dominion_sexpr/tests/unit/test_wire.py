"""The S-expression protocol's messages: the state snapshot as the grammar writes it, and
the reading of a play as its words (case, shape) with the datum quoted as the record
shows it."""

from __future__ import annotations

import pytest

from arena_dominion_sexpr.rules import KINGDOMS
from arena_dominion_sexpr.wire import BadPlay, card_list, play_words, show, state, sym
from arena_dominion_text.cards import card
from arena_dominion_text.rules import COURSE, Dominion
from arena_kernel.plugin import SexprCodec, Symbol


def datum(text: str):
    ((message, _raw),) = SexprCodec().decoder().feed(text.encode() + b"\n")
    return message


def v1_game(hand: str) -> Dominion:
    """A two-player v1 game under the course rules whose current player holds ``hand``."""
    game = Dominion(2, 1, kingdom=KINGDOMS[1], curses=False, rules=COURSE)
    game.hands[game.current][:] = [card(c) for c in hand.split()]
    return game


def test_the_state_snapshot_follows_the_grammar():
    game = v1_game("copper estate")
    snapshot = state(game, game.current)
    heads = [str(part[0]) for part in snapshot]
    assert heads == [
        "players",
        "supply",
        "trash",
        "actions",
        "buys",
        "coins",
        "deck",
        "hand",
        "plays",
        "discards",
    ]
    assert str(snapshot[0][1]) == ("playera", "playerb")[game.current], "current player first"
    supply = [str(c) for c in snapshot[1][1:]]
    assert supply.count("copper") == 46 and "curse" not in supply and supply.count("mine") == 10
    deck = [str(c) for c in snapshot[6][1:]]
    assert deck == sorted(deck), "the deck is sorted so that bots cannot learn the draw order"
    assert snapshot[7] == datum("(hand copper estate)")


def test_card_lists_and_plays_are_lists_of_symbols():
    assert card_list("discard", [card("estate"), card("copper")]) == datum(
        "(discard estate copper)"
    )
    assert card_list("trash", []) == datum("(trash)")
    assert sym("act", "militia") == datum("(act militia)")
    assert all(isinstance(word, Symbol) for word in sym("buy", "gold"))


@pytest.mark.parametrize("case_sensitive", [True, False])
def test_a_play_is_its_words(case_sensitive):
    assert play_words(datum("(act mine copper silver)"), case_sensitive) == [
        "act",
        "mine",
        "copper",
        "silver",
    ]


def test_letter_case_is_read_only_where_the_rules_are_not_case_sensitive():
    assert play_words(datum("(ADD Copper)"), case_sensitive=False) == ["add", "copper"]
    with pytest.raises(BadPlay, match=r"^not a play: \(ADD Copper\) \(the course rules"):
        play_words(datum("(ADD Copper)"), case_sensitive=True)


@pytest.mark.parametrize("text", ["copper", "42", '("add" copper)', "()", "(add (copper))"])
def test_anything_but_a_list_of_symbols_is_not_a_play(text):
    with pytest.raises(BadPlay, match=r"^not a play: "):
        play_words(datum(text), case_sensitive=False)


def test_a_datum_is_quoted_as_written():
    assert show(datum("(act  mine (copper) silver)")) == "(act mine (copper) silver)"
    assert show(datum("()")) == "()"
    assert show(datum("42")) == "42"
