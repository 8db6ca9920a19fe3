"""Legality fixtures: a state, then plays of every kind of v1-v3, legal or not."""

from __future__ import annotations

import pytest
from arena_dominion.cards import card
from arena_dominion_sexpr.game import BadPlay, DominionSexpr, SexprMatch

from kernel.codecs.sexpr import SexprCodec


def datum(text: str):
    ((message, _raw),) = SexprCodec().decoder().feed(text.encode() + b"\n")
    return message


def match(version: int, hand: str, **counters: int) -> SexprMatch:
    """A 2-player game of ``version`` whose current player holds ``hand``."""
    config = DominionSexpr.validate_options({"version": version})
    m = SexprMatch([None, None], seed=1, config=config)
    game = m.game
    game.hands[game.current][:] = [card(c) for c in hand.split()]
    for name, value in counters.items():
        setattr(game, name, value)
    return m


LEGAL = [
    (1, "copper silver estate mine", "(act mine copper silver)"),
    (1, "copper silver estate mine", "(act mine silver gold)"),
    (1, "copper copper estate", "(add copper)"),
    (2, "cellar estate estate copper", "(act cellar estate estate)"),
    (2, "remodel estate copper", "(act remodel estate silver)"),
    (2, "workshop copper", "(act workshop smithy)"),
    (2, "market copper", "(act market)"),
    (2, "smithy copper", "(act smithy)"),
    (2, "village copper", "(act village)"),
    (2, "woodcutter copper", "(act woodcutter)"),
    (3, "militia copper", "(act militia)"),
    (3, "moat copper", "(act moat)"),
]


@pytest.mark.parametrize(("version", "hand", "play"), LEGAL)
def test_legal_plays(version, hand, play):
    m = match(version, hand)
    m.apply(m.game.current, datum(play))
    played = card(play.strip("()").split()[1])
    assert m.game.in_play == [played], "the act or add play put its card in the play area"


ILLEGAL = [
    (1, "copper estate mine", "(act mine copper gold)", "gold costs 6"),
    (1, "copper estate mine", "(act mine estate silver)", "estate is not a treasure"),
    (1, "copper estate", "(act mine copper silver)", "no mine in the hand"),
    (1, "smithy copper", "(act smithy)", "smithy is not a kingdom card of version 1"),
    (1, "copper", "(buy province)", "costs 8"),
    (1, "copper estate", "(clean)", "(clean): cards in hand"),
    (1, "copper estate", "(clean gold)", "no gold in hand"),
    (1, "copper", "(fly away)", "not a play of version 1"),
    (1, "copper", "(add estate)", "not a treasure"),
    (1, "copper", "(add platinum)", "platinum is not a card"),
    (2, "workshop copper", "(act workshop gold)", "gold costs 6, more than 4"),
    (2, "remodel estate", "(act remodel estate gold)", "more than estate's cost 2 + 2"),
    (2, "market", "(act market copper)", "takes no cards"),
    (3, "moat copper", "(act militia)", "no militia in the hand"),
]


@pytest.mark.parametrize(("version", "hand", "play", "words"), ILLEGAL)
def test_illegal_plays_are_refused_with_a_reason(version, hand, play, words):
    m = match(version, hand)
    before = list(m.game.hand())
    with pytest.raises(BadPlay) as refused:
        m.apply(m.game.current, datum(play))
    assert words in str(refused.value)
    assert m.game.hand() == before, "a refused play changes nothing"


def test_no_actions_after_add_or_buy():
    m = match(1, "copper mine silver")
    m.apply(m.game.current, datum("(add copper)"))
    assert m.game.actions == 0
    with pytest.raises(BadPlay):
        m.apply(m.game.current, datum("(act mine silver gold)"))


def test_clean_with_an_empty_hand_and_the_exposed_card():
    m = match(1, "")
    seat = m.game.current
    m.apply(seat, datum("(clean)"))
    assert m.game.current != seat
    m = match(1, "estate copper")
    seat = m.game.current
    m.apply(seat, datum("(clean estate)"))
    assert m.game.discards[seat][-1] == card("estate"), "(clean card) shows that card on top"


def test_not_a_play_at_all():
    m = match(1, "copper")
    for bad in ("copper", "42", '("add" copper)', "()"):
        with pytest.raises(BadPlay, match="not a play"):
            m.apply(m.game.current, datum(bad))


def test_the_state_snapshot_follows_the_grammar():
    m = match(1, "copper estate")
    state = m.state(m.game.current)
    heads = [str(part[0]) for part in state]
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
    assert str(state[0][1]) == ("playera", "playerb")[m.game.current], "current player first"
    supply = [str(c) for c in state[1][1:]]
    assert supply.count("copper") == 46 and "curse" not in supply and supply.count("mine") == 10
    deck = [str(c) for c in state[6][1:]]
    assert deck == sorted(deck), "the deck is sorted so that bots cannot learn the draw order"
