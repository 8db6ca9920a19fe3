"""The reference strategies: complete legal games for 2-4 players, their buy rules and
attack answers, and a cheap check that they are as strong as published."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arena_dominion_text.cards import (
    CARDS,
    COPPER,
    CURSE,
    DUCHY,
    ESTATE,
    GOLD,
    MILITIA,
    MINE,
    MOAT,
    PROVINCE,
    SILVER,
    SMITHY,
)
from arena_dominion_text.players import (
    STRATEGIES,
    BigMoney,
    BigMoneyUltimate,
    DoubleMilitia,
    RandomStrategy,
    SmithyBigMoney,
)
from arena_dominion_text.rules import OFFICIAL, Dominion
from arena_dominion_text.simulate import simulate


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_each_strategy_plays_complete_legal_games(name, players):
    for seed in range(6):
        rng = random.Random(seed)
        # Against a random opponent and the Militia bot, every strategy meets attacks.
        seats = [STRATEGIES[name](rng), DoubleMilitia(), RandomStrategy(rng), BigMoney()]
        result = simulate(seats[:players], seed, turn_cap=60)
        assert len(result.vp) == len(result.turns) == len(result.ranks) == players
        assert min(result.ranks) == 1
        assert result.winners


def test_random_games_play_every_kind_of_action():
    played: Counter[int] = Counter()

    class CountingRandom(RandomStrategy):
        """Random choices, counting each Action it plays (simulate plays every one)."""

        def action(self, view):
            play = super().action(view)
            if play is not None:
                played[play[0]] += 1
            return play

    for seed in range(40):
        rng = random.Random(seed)
        simulate([CountingRandom(rng) for _ in range(3)], seed, turn_cap=40)
    assert set(played) == {c for c in CARDS if c > PROVINCE}


def test_big_money_games_end_on_provinces_not_the_cap():
    for seed in range(20):
        result = simulate([BigMoney(), BigMoneyUltimate(), SmithyBigMoney()], seed)
        assert result.reason == "the province pile is empty"


def test_simulate_is_deterministic_for_a_seed():
    def play(seed: int):
        return simulate([RandomStrategy(random.Random(seed)), SmithyBigMoney()], seed)

    assert play(3) == play(3)
    assert len({play(seed) for seed in range(10)}) > 1


class _View:
    """A bot's view for buy decisions: a starting deck plus ``owned``; for the suicide
    check, seat 0 of two with ``scores`` and ``turns`` (equal by default)."""

    rules = OFFICIAL
    seat = 0

    def __init__(
        self,
        money: int,
        provinces: int = 8,
        owned: dict[int, int] | None = None,
        scores: tuple[int, int] = (3, 3),
        turns: tuple[int, int] = (20, 20),
    ) -> None:
        self.hand: list[int] = []
        self.actions = 1
        self.buys = 1
        self.money = money
        counts = Counter({COPPER: 7, ESTATE: 3})
        counts.update(owned or {})
        self.owned = [counts[c] for c in CARDS]
        self.supply = Dominion(2, 0).supply
        self.supply[PROVINCE] = provinces
        self.scores = scores
        self.turns = turns


@pytest.mark.parametrize(
    ("money", "buy"), [(0, []), (2, []), (3, [SILVER]), (5, [SILVER]), (7, [GOLD]), (8, [PROVINCE])]
)
def test_big_money_buys(money, buy):
    assert BigMoney().buys(_View(money)) == buy


@pytest.mark.parametrize(
    ("view", "buy"),
    [
        (_View(8), [GOLD]),  # 7 in copper: not yet more than 18
        (_View(8, owned={GOLD: 4}), [PROVINCE]),  # 7 + 12 = 19
        (_View(5, provinces=6), [DUCHY]),
        (_View(5, provinces=7), [SILVER]),
        (_View(6, provinces=5), [GOLD]),
        (_View(6, provinces=4), [DUCHY]),
        (_View(2, provinces=2), [ESTATE]),
        (_View(2, provinces=3), []),
    ],
)
def test_big_money_ultimate_buys(view, buy):
    assert BigMoneyUltimate().buys(view) == buy


def test_smithy_big_money_buys_one_smithy_per_eleven_treasures_and_plays_it():
    bot = SmithyBigMoney()
    assert bot.buys(_View(4)) == [SMITHY]
    assert bot.buys(_View(4, owned={SMITHY: 1})) == [SILVER]
    assert bot.buys(_View(4, owned={SMITHY: 1, SILVER: 4})) == [SILVER]  # 1 < 11 / 11: no
    assert bot.buys(_View(4, owned={SMITHY: 1, SILVER: 5})) == [SMITHY]
    assert bot.buys(_View(8, owned={GOLD: 3})) == [PROVINCE]  # 7 + 9 = 16 > 15
    view = _View(0)
    assert bot.action(view) is None
    view.hand = [COPPER, SMITHY]
    assert bot.action(view) == (SMITHY, (), None)
    view.actions = 0
    assert bot.action(view) is None


RICH = {GOLD: 4}  # 7 + 12 = 19 in treasure: more than BMU's 18 for a Province


@pytest.mark.parametrize(
    ("view", "buy"),
    [
        (_View(8, owned=RICH), [PROVINCE]),
        (_View(8), [GOLD]),
        (_View(5, provinces=4), [DUCHY]),
        (_View(2, provinces=2), [ESTATE]),
        (_View(6, provinces=6), [GOLD]),
        (_View(5, provinces=6), [DUCHY]),  # Duchy-at-6 comes before the Militia
        (_View(5, provinces=7), [MILITIA]),
        (_View(4), [MILITIA]),
        (_View(4, owned={MILITIA: 1}), [MILITIA]),
        (_View(4, owned={MILITIA: 2}), [SILVER]),
        (_View(5, owned={MILITIA: 2}), [SILVER]),
        (_View(3), [SILVER]),
        (_View(2), []),
    ],
)
def test_double_militia_is_bmu_with_two_militias_just_above_silver(view, buy):
    assert DoubleMilitia().buys(view) == buy


def test_double_militia_plays_a_militia_whenever_it_has_an_action():
    bot = DoubleMilitia()
    view = _View(0)
    view.hand = [COPPER, MILITIA]
    assert bot.action(view) == (MILITIA, (), None)
    view.actions = 0
    assert bot.action(view) is None
    view.actions, view.hand = 1, [COPPER, SMITHY]
    assert bot.action(view) is None


def _bmu(check: bool) -> BigMoneyUltimate:
    return BigMoneyUltimate(suicide_check=check)


@pytest.mark.parametrize(
    ("scores", "turns", "safe"),
    [
        ((30, 40), (20, 20), [DUCHY]),  # 36 < 40: the last Province would lose
        ((34, 40), (20, 20), [PROVINCE]),  # 40 = 40 in as many turns: a shared win
        ((34, 40), (20, 19), [DUCHY]),  # 40 = 40 in one more turn: a loss
        ((36, 40), (20, 19), [PROVINCE]),  # 42 > 40: a win
    ],
)
def test_the_suicide_check_refuses_the_last_province_only_when_it_would_lose(scores, turns, safe):
    view = _View(8, provinces=1, owned=RICH, scores=scores, turns=turns)
    assert _bmu(False).buys(view) == [PROVINCE]
    assert _bmu(True).buys(view) == safe


def test_the_suicide_check_counts_three_empty_piles_and_falls_through_to_nothing():
    view = _View(2, provinces=2, scores=(10, 20))
    view.supply[ESTATE] = 1
    assert _bmu(False).buys(view) == [ESTATE]
    view.supply[CURSE] = view.supply[SMITHY] = 0  # the Estate would empty a third pile
    assert _bmu(False).buys(view) == [ESTATE]
    assert _bmu(True).buys(view) == []
    view.scores = (20, 20)  # 21 > 20: now the Estate wins the game
    assert _bmu(True).buys(view) == [ESTATE]


def test_the_suicide_check_counts_the_cards_bought_earlier_in_the_turn():
    view = _View(16, provinces=2, owned=RICH, scores=(20, 40))
    view.buys = 2
    # The first Province leaves one; the second would end the game at 32 to 40.
    assert _bmu(False).buys(view) == [PROVINCE, PROVINCE]
    assert _bmu(True).buys(view) == [PROVINCE, DUCHY]
    view.scores = (30, 40)  # 42 > 40: both
    assert _bmu(True).buys(view) == [PROVINCE, PROVINCE]


def _last_mover(result) -> int:
    """Who took the game's last turn (2 players): the first player if it had one more."""
    first = result.first
    return first if result.turns[first] > result.turns[1 - first] else 1 - first


def _games_ended_by_their_loser(check: bool) -> int:
    """BMU mirrors (of 150) in which the player who took the last Province lost: piles only
    shrink by the mover's buys, so whoever ended the game chose to."""
    lost = 0
    for seed in range(150):
        result = simulate([_bmu(check), _bmu(check)], seed)
        assert result.reason == "the province pile is empty"
        lost += result.ranks[_last_mover(result)] != 1
    return lost


def test_with_the_check_no_bmu_ever_ends_a_game_it_loses():
    assert _games_ended_by_their_loser(check=False) > 0
    assert _games_ended_by_their_loser(check=True) == 0


def test_extra_buys_spend_the_money_left():
    view = _View(11)
    view.buys = 2
    assert BigMoney().buys(view) == [PROVINCE, SILVER]


def test_a_strategy_never_buys_from_an_empty_pile():
    view = _View(7)
    view.supply[GOLD] = 0
    assert BigMoney().buys(view) == [SILVER]


def test_attack_answers_reveal_a_moat_else_discard_junk_then_cheap_treasures():
    bot = BigMoney()
    assert bot.attacked([COPPER, MOAT, ESTATE, GOLD, SILVER], 2) is None
    hand = [GOLD, COPPER, SMITHY, PROVINCE, SILVER, CURSE]
    assert sorted(bot.attacked(hand, 3)) == sorted([PROVINCE, CURSE, COPPER])
    assert sorted(bot.attacked([SMITHY, MINE, GOLD, SILVER, COPPER], 2)) == [COPPER, SILVER]


def test_random_attack_answers_are_valid_and_vary():
    bot = RandomStrategy(random.Random(1))
    hand = [COPPER, MOAT, ESTATE, GOLD, SILVER]
    answers = [bot.attacked(hand, 2) for _ in range(50)]
    assert None in answers
    discards = [a for a in answers if a is not None]
    assert all(len(a) == 2 and not Counter(a) - Counter(hand) for a in discards)
    assert len({tuple(sorted(a)) for a in discards}) > 1


def test_smithy_beats_big_money_as_published():
    wins = sum(simulate([SmithyBigMoney(), BigMoney()], seed).ranks[0] == 1 for seed in range(400))
    assert wins / 400 > 0.85
