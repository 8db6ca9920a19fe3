"""What each version plays and each rule set allows, through the referee in process: a
state, then plays of every kind of v1-v3, legal or not; curses, ``add`` and letter case
under the course and official rules; Militia's answers; the kingdoms and curse piles of
:mod:`arena_dominion_sexpr.rules`."""

from __future__ import annotations

import asyncio
import re

import pytest

from arena_dominion_sexpr import wire
from arena_dominion_sexpr.game import DominionSexpr, Referee
from arena_dominion_sexpr.rules import KINGDOMS, add_needs_a_buy, has_curses, why_no_curses
from arena_dominion_sexpr.wire import SEAT_NAMES, BadPlay
from arena_dominion_text.cards import KINGDOM, card
from arena_kernel.plugin import Reply, SexprCodec, Symbol


def datum(text: str):
    ((message, _raw),) = SexprCodec().decoder().feed(text.encode() + b"\n")
    return message


def match(
    version: int, hand: str, *, rules: str = "course", players: int = 2, **counters: int
) -> Referee:
    """A game of ``version`` under ``rules`` whose current player holds ``hand``."""
    config = DominionSexpr.validate_options({"version": version, "rules": rules})
    m = Referee([None] * players, seed=1, config=config)
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
    # The course server's bug, not copied: one Remodel both played and trashed.
    (2, "remodel estate", "(act remodel remodel silver)", "no remodel in the hand to trash"),
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


def test_each_version_adds_to_the_kingdom_of_the_one_before():
    assert KINGDOMS[1] == (card("mine"),)
    assert set(KINGDOMS[1]) < set(KINGDOMS[2]) < set(KINGDOMS[3]) == set(KINGDOM)
    assert set(KINGDOMS[3]) - set(KINGDOMS[2]) == {card("militia"), card("moat")}


@pytest.mark.parametrize(
    ("version", "rules", "curses", "why"),
    [
        (1, "course", False, "no version of the course protocol has curses"),
        (3, "course", False, "no version of the course protocol has curses"),
        (1, "official", False, "version 1 has no curses"),
        (2, "official", True, None),
        (3, "official", True, None),
    ],
)
def test_curses_come_with_the_official_rules_from_version_2_on(version, rules, curses, why):
    assert has_curses(version, rules) is curses
    assert why_no_curses(version, rules) == why


def test_only_the_course_rules_from_version_2_on_need_a_buy_to_add():
    needs = {(v, r): add_needs_a_buy(v, r) for v in (1, 2, 3) for r in ("course", "official")}
    assert [key for key, need in needs.items() if need] == [(2, "course"), (3, "course")]


CURSE_REFUSED = "curse is not a card of this game: no version of the course protocol has curses"


@pytest.mark.parametrize(
    ("version", "hand", "play"),
    [
        (1, "copper", "(buy curse)"),
        (2, "copper", "(buy curse)"),
        (3, "copper", "(buy curse)"),
        (2, "workshop copper", "(act workshop curse)"),
        (3, "remodel estate", "(act remodel estate curse)"),
    ],
)
def test_no_version_has_curses_under_the_course_rules(version, hand, play):
    m = match(version, hand)
    assert m.game.supply[card("curse")] == -1, "no curse pile"
    with pytest.raises(BadPlay) as refused:
        m.apply(m.game.current, datum(play))
    assert str(refused.value) == f"{play}: {CURSE_REFUSED}"
    assert m.game.hand() == [card(c) for c in hand.split()], "a refused play changes nothing"


def test_the_official_rules_have_curses_from_version_2_on():
    assert match(1, "copper", rules="official").game.supply[card("curse")] == -1
    m = match(2, "workshop copper", rules="official")
    assert m.game.supply[card("curse")] == 10
    m.apply(m.game.current, datum("(act workshop curse)"))
    assert m.game.discards[m.game.current][-1] == card("curse")


@pytest.mark.parametrize(
    ("version", "rules", "refused"),
    [(2, "course", True), (3, "course", True), (1, "course", False), (2, "official", False)],
)
def test_from_version_2_the_course_rules_add_only_while_a_buy_is_left(version, rules, refused):
    m = match(version, "copper copper estate", rules=rules)
    seat = m.game.current
    m.apply(seat, datum("(buy copper)"))
    assert m.game.buys == 0
    if refused:
        with pytest.raises(BadPlay, match=r"^\(add copper\): no buys left"):
            m.apply(seat, datum("(add copper)"))
        assert m.game.in_play == []
    else:
        m.apply(seat, datum("(add copper)"))
        assert m.game.in_play == [card("copper")]


@pytest.mark.parametrize("play", ["(ADD COPPER)", "(add Copper)", "(Add copper)"])
def test_plays_are_case_sensitive_under_the_course_rules(play):
    m = match(1, "copper estate")
    with pytest.raises(BadPlay, match="the course rules read case-sensitive symbols"):
        m.apply(m.game.current, datum(play))
    assert m.game.in_play == []


def test_the_official_rules_read_any_case_and_give_back_the_grammars_spelling():
    m = match(2, "remodel estate copper", rules="official")
    shown = m.apply(m.game.current, datum("(ACT Remodel ESTATE silver)"))
    assert shown == ["act", "remodel", "estate", "silver"]
    assert all(isinstance(word, Symbol) for word in shown)


BIG_HAND = "copper copper estate estate silver"


def attacked(hands: list[str]) -> tuple[Referee, list[int]]:
    """A 3-player v3 game in which the current player has just played Militia (with an
    Action left, as after a Village) against victims holding ``hands`` (in turn order);
    returns it and the victims."""
    m = match(3, "militia copper", players=3, actions=2)
    game = m.game
    victims = [(game.current + i) % 3 for i in (1, 2)]
    for victim, hand in zip(victims, hands, strict=True):
        game.hands[victim][:] = [card(c) for c in hand.split()]
    m.apply(game.current, datum("(act militia)"))
    return m, victims


def test_a_victim_sees_itself_first_with_no_counters_and_no_plays():
    m, (_first, second) = attacked([BIG_HAND, "copper estate"])
    state = {str(part[0]): part[1:] for part in wire.state(m.game, second)}
    assert state["players"] == [SEAT_NAMES[(second + i) % 3] for i in range(3)]
    assert state["actions"] == state["buys"] == state["coins"] == [0]
    assert state["plays"] == [] and m.game.in_play == [card("militia")]
    assert [str(c) for c in state["hand"]] == ["copper", "estate"]


def test_a_discard_leaves_its_first_card_exposed_on_top():
    m, (victim, _small) = attacked([BIG_HAND, "copper estate"])
    assert m.take_defense(victim, datum("(discard estate copper)")) == datum(
        "(discard estate copper)"
    )
    assert m.game.discards[victim][-1] == card("estate"), "the first card named is on top"
    state = {str(part[0]): part[1:] for part in wire.state(m.game, victim)}
    assert [str(c) for c in state["discards"]][:2] == ["estate", "copper"]


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ("(discard copper)", "a hand of 2 cards keeps them all: answer (discard)"),
        ("(moat)", "no moat in hand"),
        ("(MOAT)", "case-sensitive"),
        ("(pass)", "not a defense"),
    ],
)
def test_a_small_hand_answers_discard_or_a_moat_it_holds(answer, words):
    m, (big, small) = attacked([BIG_HAND, "copper estate"])
    with pytest.raises(BadPlay, match=re.escape(words)):
        m.take_defense(small, datum(answer))
    assert m.take_defense(small, datum("(discard)")) == datum("(discard)")
    assert m.game.pending == [big], "only the big hand is waited for"
    m2, (_big, small2) = attacked([BIG_HAND, "moat estate"])
    assert m2.take_defense(small2, datum("(moat)")) == datum("(moat)")


def test_a_big_hand_must_discard_down_to_three():
    m, (big, _small) = attacked([BIG_HAND, "copper estate"])
    with pytest.raises(BadPlay, match="must discard 2 cards"):
        m.take_defense(big, datum("(discard)"))
    with pytest.raises(BadPlay, match="no gold in hand"):
        m.take_defense(big, datum("(discard gold estate)"))
    assert m.game.hand(big) == [card(c) for c in BIG_HAND.split()], "refusals change nothing"


class ScriptedTable:
    """Three seats answering from scripts, in process, recording what the referee sends to
    whom: for a case no real game reaches (no victim of a Militia holding more than 3
    cards), which the course server still asked."""

    def __init__(self, answers: dict[int, list[str]]) -> None:
        self.answers = answers
        self.sent: list[tuple[int, str]] = []

    def __len__(self) -> int:
        return 3

    def alive(self, seat: int) -> bool:
        return True

    def broadcast(self, message, seats) -> None:
        self.sent.extend((seat, _head(message)) for seat in seats)

    async def ask(self, seat: int, message) -> Reply:
        self.sent.append((seat, _head(message)))
        return Reply(datum(self.answers[seat].pop(0)), None, 0.0)

    def fault(self, seat: int, kind, detail: str) -> None:
        raise AssertionError(f"seat {seat}: {detail}")


def _head(message) -> str:
    """A message as on the wire, without the state it carries."""
    return SexprCodec().encode(message).decode().strip().split(" ((players")[0]


def test_every_victim_is_asked_even_when_none_holds_more_than_3_cards():
    config = DominionSexpr.validate_options({"version": 3})
    table = ScriptedTable({})
    m = Referee(table, seed=1, config=config)
    game = m.game
    a = game.current
    b, c = (a + 1) % 3, (a + 2) % 3
    for seat, hand in ((a, "militia copper"), (b, "copper estate estate"), (c, "moat copper")):
        game.hands[seat][:] = [card(x) for x in hand.split()]
    table.answers = {a: ["(act militia)", "(clean copper)"], b: ["(discard)"], c: ["(moat)"]}
    asyncio.run(m.turn(a))
    na, nb, nc = (SEAT_NAMES[s] for s in (a, b, c))

    def to_all_but(seat: int, text: str) -> list[tuple[int, str]]:
        return [(other, text) for other in range(3) if other != seat]

    assert table.sent == [
        (a, "(move"),
        *to_all_but(a, f"(moved {na} (act militia))"),
        (b, f"(attacked (act militia) {na}"),
        (c, f"(attacked (act militia) {na}"),
        *to_all_but(b, f"(defended {nb} (discard))"),
        *to_all_but(c, f"(defended {nc} (moat))"),
        (a, "(move"),
        *to_all_but(a, f"(moved {na} (clean copper))"),
    ]
    assert game.current == b and len(game.hand(c)) == 2, "nothing was discarded"
