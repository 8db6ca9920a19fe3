"""The simulation's fast paths play exactly the games of the step-by-step paths they replace.

:meth:`Dominion.buy_cards` against treasures played one by one and :meth:`Dominion.buy`
card by card; :func:`simulate` (refreshed views, the one-buy shortcut, no action() asked of
strategies without Actions) against a loop over the public step API with live views; the
buy rules written as tests in order against their priority lists. Compared state by state
or game by game over many seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

import pytest

import arena_dominion_text.simulate as simulate_module
from arena_dominion_text.cards import (
    CARDS,
    COINS,
    COST,
    DUCHY,
    ESTATE,
    GOLD,
    IS_TREASURE,
    KEEP_AFTER_ATTACK,
    MARKET,
    MILITIA,
    MOAT,
    PROVINCE,
    SILVER,
    SMITHY,
    VILLAGE,
    WOODCUTTER,
)
from arena_dominion_text.players import (
    STRATEGIES,
    BigMoney,
    BigMoneyUltimate,
    DoubleMilitia,
    RandomStrategy,
    ScoredView,
    SmithyBigMoney,
    Strategy,
    _SuicideCheckView,
)
from arena_dominion_text.rules import ATTACK, BUY, COURSE, OFFICIAL, Dominion
from arena_dominion_text.simulate import EngineView, simulate

# -- buy_cards -------------------------------------------------------------------------------


def step_by_step_buy(game: Dominion, cards: Sequence[int]) -> None:
    """What buy_cards replaced: the old play_all_treasures (each Treasure in hand order, and
    the Action phase over even with none), then buy() while can_buy() allows."""
    for c in [c for c in game.hand() if IS_TREASURE[c]]:
        game.play_treasure(c)
    game.actions, game.phase = 0, BUY
    for card in cards:
        if game.can_buy(card) is not None:
            break
        game.buy(card)


PLAIN_ACTIONS = (MARKET, MOAT, SMITHY, VILLAGE, WOODCUTTER)
"""Actions that take no arguments and attack nobody."""


def test_buy_cards_plays_the_treasures_and_buys_as_the_single_steps_do():
    for seed in range(150):
        rng = random.Random(seed)
        fast, slow = Dominion(3, seed, turn_cap=25), Dominion(3, seed, turn_cap=25)
        for c in rng.sample(CARDS, 3):  # piles nearly or quite empty, for refused buys
            fast.supply[c] = slow.supply[c] = min(fast.supply[c], rng.randrange(2))
        while fast.result is None:
            # Sometimes an Action put into the hand and played first: more coins and buys.
            action = rng.choice([None, None, *PLAIN_ACTIONS])
            wanted = [rng.choice(CARDS) for _ in range(rng.randrange(4))]
            for game in (fast, slow):
                if action is not None:
                    game.hand().append(action)
                    game.owned[game.current][action] += 1
                    game.play_action(action)
            fast.buy_cards(wanted)
            step_by_step_buy(slow, wanted)
            assert (fast.hand(), fast.in_play, fast.coins, fast.buys, fast.events) == (
                slow.hand(),
                slow.in_play,
                slow.coins,
                slow.buys,
                slow.events,
            )
            fast.end_turn()
            slow.end_turn()
            assert fast.state() == slow.state()


def test_money_in_hand_counts_every_treasure_at_its_coins():
    rng = random.Random(5)
    game = Dominion(2, 0)
    view = EngineView(game, game.current)
    for _ in range(500):
        game.hand()[:] = [rng.choice(CARDS) for _ in range(rng.randrange(12))]
        game.coins = rng.randrange(5)
        view.refresh()
        assert game.money_in_hand() == sum(COINS[c] for c in game.hand())
        assert view.money == game.coins + game.money_in_hand()


# -- simulate --------------------------------------------------------------------------------


class LiveView:
    """The view simulate used before: every field read from the engine when asked."""

    def __init__(self, game: Dominion, player: int) -> None:
        self.game = game
        self.seat = player

    hand = property(lambda self: self.game.hands[self.seat])
    actions = property(lambda self: self.game.actions)
    buys = property(lambda self: self.game.buys)
    money = property(lambda self: self.game.coins + sum(COINS[c] for c in self.hand))
    owned = property(lambda self: self.game.owned[self.seat])
    supply = property(lambda self: self.game.supply)
    scores = property(lambda self: [self.game.vp(p) for p in range(self.game.players)])
    turns = property(lambda self: self.game.turns)
    rules = property(lambda self: self.game.rules)


def every_buy(strategy: Strategy, view: LiveView) -> list[int]:
    """Strategy.buys without its one-buy shortcut: choose() once per buy."""
    money = view.money
    bought: list[int] = []
    for _ in range(view.buys):
        seen = _SuicideCheckView(cast(ScoredView, view), bought) if strategy.suicide_check else view
        card = strategy.choose(seen, money)
        if card is None:
            break
        bought.append(card)
        money -= COST[card]
    return bought


def step_by_step_game(strategies: Sequence[Strategy], seed: int, rules: str) -> Dominion:
    game = Dominion(len(strategies), seed, rules=rules, turn_cap=100, record_events=False)
    while game.result is None:
        p = game.current
        view = LiveView(game, p)
        while (play := strategies[p].action(view)) is not None:
            game.play_action(*play)
            if game.phase == ATTACK:
                for victim in list(game.pending):
                    hand = game.hands[victim]
                    answer = strategies[victim].attacked(hand, len(hand) - KEEP_AFTER_ATTACK)
                    if answer is None:
                        game.reveal_moat(victim)
                    else:
                        game.discard_down(victim, answer)
        step_by_step_buy(game, every_buy(strategies[p], view))
        game.end_turn()
    return game


@pytest.fixture
def simulated_game(monkeypatch):
    """simulate(), returning the engine it played on, to compare whole final states."""
    games: list[Dominion] = []

    class Kept(Dominion):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            games.append(self)

    monkeypatch.setattr(simulate_module, "Dominion", Kept)

    def play(strategies: Sequence[Strategy], seed: int, rules: str) -> Dominion:
        simulate(strategies, seed, rules=rules)
        return games[-1]

    return play


SEATINGS = [
    ("bigmoney", "bigmoney"),
    ("smithy", "bmu"),
    ("militia", "bmu"),
    ("random", "smithy", "militia"),
    ("militia", "random", "bigmoney", "smithy"),
]


@pytest.mark.parametrize("names", SEATINGS, ids="-".join)
@pytest.mark.parametrize("check", [False, True], ids=["", "suicide-check"])
def test_simulate_plays_the_games_of_the_step_by_step_api(simulated_game, names, check):
    def seats(seed: int) -> list[Strategy]:
        rng = random.Random(seed)
        return [STRATEGIES[name](rng, suicide_check=check) for name in names]

    for seed in range(40):
        rules = COURSE if seed % 5 == 0 else OFFICIAL
        fast = simulated_game(seats(seed), seed, rules)
        slow = step_by_step_game(seats(seed), seed, rules)
        assert fast.state() == slow.state(), seed


def test_a_strategy_made_without_rng_draws_from_random_0():
    assert RandomStrategy().rng.random() == random.Random(0).random()
    bot = RandomStrategy()
    assert bot.rng is bot.rng


# -- buy rules -------------------------------------------------------------------------------


class ChoiceView:
    """A random buying situation: any money, piles from absent to full, any cards owned."""

    def __init__(self, rng: random.Random) -> None:
        self.supply = Dominion(2, 0).supply
        for c in CARDS:
            if self.supply[c] > 0:
                self.supply[c] = rng.choice([0, 1, rng.randrange(self.supply[c]), self.supply[c]])
        self.owned = [rng.choice([0, 0, 1, 2, 3, 5, 9]) for _ in CARDS]
        self.hand: list[int] = []
        self.actions = self.buys = 1


def first(view: ChoiceView, money: int, wanted: Sequence[tuple[int, bool]]) -> int | None:
    """The first (card, condition) that holds, is affordable and has a copy left."""
    for card, condition in wanted:
        if condition and COST[card] <= money and view.supply[card] > 0:
            return card
    return None


def bmu_list(view: ChoiceView, greening: int, extra: tuple[tuple[int, bool], ...]):
    left = view.supply[PROVINCE]
    treasure = sum(count * COINS[c] for c, count in enumerate(view.owned))
    return (
        (PROVINCE, treasure > greening),
        (DUCHY, left <= 4),
        (ESTATE, left <= 2),
        (GOLD, True),
        (DUCHY, left <= 6),
        *extra,
        (SILVER, True),
    )


PRIORITY_LISTS = {
    BigMoney: lambda v: ((PROVINCE, True), (GOLD, True), (SILVER, True)),
    BigMoneyUltimate: lambda v: bmu_list(v, 18, ()),
    SmithyBigMoney: lambda v: bmu_list(
        v, 15, ((SMITHY, v.owned[SMITHY] < sum(v.owned[c] for c in CARDS if IS_TREASURE[c]) / 11),)
    ),
    DoubleMilitia: lambda v: bmu_list(v, 18, ((MILITIA, v.owned[MILITIA] < 2),)),
}


@pytest.mark.parametrize("cls", list(PRIORITY_LISTS), ids=lambda cls: cls.name)
def test_the_buy_rules_are_their_priority_lists(cls):
    rng = random.Random(cls.name)
    bot = cls()
    for _ in range(3000):
        view = ChoiceView(rng)
        money = rng.randrange(14)
        assert bot.choose(view, money) == first(view, money, PRIORITY_LISTS[cls](view))
