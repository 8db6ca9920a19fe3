"""The reference bots' decisions, which know no protocol.

A strategy decides from a :class:`View`: what a bot can know on its turn whatever the
protocol (its hand, counters, the money it could spend, the cards it owns, the supply).
The engine offers one through :class:`~arena_dominion_text.simulate.EngineView`; a
protocol bot builds its own from messages (the text protocol's ``extra-money``, ``gained``
and ``trashed`` lines carry all of it). So the same decisions play in
:func:`~arena_dominion_text.simulate.simulate` and behind either protocol.

Buy rules follow the rules file; where it is silent: a bot never buys from an empty pile
(it falls through to its next priority) and extra buys repeat the priority list with the
money left.

Every strategy offers the public simulators' "suicide check" (``suicide_check=True``): it
never buys a card that would end the game at the end of this turn while it would lose. It
needs to see the scores (a :class:`ScoredView`), and a card it refuses looks to the
strategy like an empty pile, so each strategy falls through to its next priority, as the
simulators' bots do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress
from operator import mul
from typing import Protocol, cast

from arena_dominion_text.cards import (
    CARDS,
    CELLAR,
    COINS,
    COST,
    CURSE,
    DUCHY,
    ESTATE,
    GAIN_BONUS,
    GOLD,
    IS_ACTION,
    IS_TREASURE,
    IS_VICTORY,
    MILITIA,
    MINE,
    MOAT,
    PROVINCE,
    SILVER,
    SMITHY,
    VP,
    WORKSHOP,
    WORKSHOP_MAX,
)
from arena_dominion_text.rules import (
    final_ranks,
    gainable,
    piles_end_game,
)

Play = tuple[int, tuple[int, ...], int | None]
"""``(action card, cards from hand, card to gain)``: the arguments of
:meth:`~arena_dominion_text.rules.Dominion.play_action`."""


class View(Protocol):
    """What a bot knows when it decides; ``money`` counts the Treasures still in hand."""

    @property
    def hand(self) -> Sequence[int]: ...
    @property
    def actions(self) -> int: ...
    @property
    def buys(self) -> int: ...
    @property
    def money(self) -> int: ...
    @property
    def owned(self) -> Sequence[int]: ...
    @property
    def supply(self) -> Sequence[int]: ...


class ScoredView(View, Protocol):
    """A :class:`View` that also shows the score, for the suicide check: the deciding
    player's ``seat``, every seat's ``scores`` (VP) and ``turns`` (the turns each will have
    taken if the game ends with this one, which decide equal VP under the official rules)
    and the ``rules`` that end and rank the game."""

    @property
    def seat(self) -> int: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def turns(self) -> Sequence[int]: ...
    @property
    def rules(self) -> str: ...


class _SuicideCheckView:
    """``view`` with a pile shown empty wherever gaining the next copy would end the game
    at the end of this turn with the buyer not among the winners; ``bought`` are the cards
    already chosen this turn (their copies and VP count).

    Only a pile with one copy left can end the game by one gain, so few are looked at.
    """

    __slots__ = ("actions", "buys", "hand", "money", "owned", "supply")

    def __init__(self, view: ScoredView, bought: Sequence[int]) -> None:
        self.hand = view.hand
        self.actions = view.actions
        self.buys = view.buys
        self.money = view.money
        self.owned = view.owned
        supply = list(view.supply)
        for card in bought:
            supply[card] -= 1
        self.supply = supply
        last = [c for c in CARDS if supply[c] == 1]
        if not last:
            return
        seat, rules, turns = view.seat, view.rules, view.turns
        scores = list(view.scores)
        scores[seat] += sum(VP[c] for c in bought)
        mine = scores[seat]
        refused = []
        for card in last:
            supply[card] = 0
            scores[seat] = mine + VP[card]
            if piles_end_game(supply, rules) and final_ranks(scores, turns, rules)[seat] != 1:
                refused.append(card)
            supply[card] = 1
        for card in refused:
            supply[card] = 0


def _keep_rank(card: int) -> int:
    """Order of discarding under attack: junk first, then cheap Treasures, Actions last."""
    if card == CURSE or IS_VICTORY[card]:
        return 0
    if IS_TREASURE[card]:
        return 1 + COST[card]
    return 10 + COST[card]


class Strategy:
    """A bot's decisions. Subclasses override :meth:`choose` (one buy) and, if they play
    Actions, :meth:`action`; ``rng`` makes random choices repeatable; ``suicide_check``
    turns on the simulators' check (see the module doc; the views must be
    :class:`ScoredView`)."""

    name = ""

    def __init__(self, rng: random.Random | None = None, *, suicide_check: bool = False) -> None:
        self._rng = rng
        self.suicide_check = suicide_check

    @property
    def rng(self) -> random.Random:
        """The ``rng`` given, else a ``Random(0)`` made on first use: seeding one costs more
        than a simulated turn, and only random choices need it."""
        if self._rng is None:
            self._rng = random.Random(0)
        return self._rng

    def action(self, view: View) -> Play | None:
        """The next Action to play, or None to go on to buying."""
        return None

    def choose(self, view: View, money: int) -> int | None:
        """The card to buy with ``money``, or None to stop buying."""
        return None

    def buys(self, view: View) -> list[int]:
        """The cards to buy this turn, in order, within the view's buys and money."""
        money = view.money
        if view.buys == 1 and not self.suicide_check:  # most turns: no loop, no list to grow
            card = self.choose(view, money)
            return [] if card is None else [card]
        bought: list[int] = []
        for _ in range(view.buys):
            seen = _SuicideCheckView(cast(ScoredView, view), bought) if self.suicide_check else view
            card = self.choose(seen, money)
            if card is None:
                break
            bought.append(card)
            money -= COST[card]
        return bought

    def attacked(self, hand: Sequence[int], discard: int) -> list[int] | None:
        """Answer a Militia: None reveals a Moat, else the ``discard`` cards to discard.

        Victory cards and Curses go first, then the cheapest Treasures; Actions last,
        since a bot that plays them bought them for a reason.
        """
        if MOAT in hand:
            return None
        return sorted(hand, key=_keep_rank)[:discard]


def _treasure_money(owned: Sequence[int]) -> int:
    return sum(map(mul, owned, COINS))


class BigMoney(Strategy):
    """BM: Province at $8+, Gold at $6-7, Silver at $3-5, nothing else."""

    name = "bigmoney"

    def choose(self, view: View, money: int) -> int | None:
        supply = view.supply
        if money >= COST[PROVINCE] and supply[PROVINCE] > 0:
            return PROVINCE
        if money >= COST[GOLD] and supply[GOLD] > 0:
            return GOLD
        if money >= COST[SILVER] and supply[SILVER] > 0:
            return SILVER
        return None


class BigMoneyUltimate(Strategy):
    """BMU: Big Money that greens by the Province pile and its deck's money."""

    name = "bmu"
    province_money = 18

    def extra(self, view: View, money: int) -> int | None:
        """The kingdom card to buy between Duchy-at-6 and Silver, if any; BMU has none."""
        return None

    def choose(self, view: View, money: int) -> int | None:
        # The priorities top first, each card only if affordable with a copy left. Written
        # out rather than as a list of (card, condition) pairs, which every buy of every
        # simulated turn would build and walk: that was a tenth of a game.
        supply = view.supply
        left = supply[PROVINCE]
        if (
            money >= COST[PROVINCE]
            and left > 0
            and _treasure_money(view.owned) > self.province_money
        ):
            return PROVINCE
        if left <= 4 and money >= COST[DUCHY] and supply[DUCHY] > 0:
            return DUCHY
        if left <= 2 and money >= COST[ESTATE] and supply[ESTATE] > 0:
            return ESTATE
        if money >= COST[GOLD] and supply[GOLD] > 0:
            return GOLD
        if left <= 6 and money >= COST[DUCHY] and supply[DUCHY] > 0:
            return DUCHY
        extra = self.extra(view, money)
        if extra is not None:
            return extra
        if money >= COST[SILVER] and supply[SILVER] > 0:
            return SILVER
        return None


class SmithyBigMoney(BigMoneyUltimate):
    """Smithy-BM: BMU's greening at more than $15 in the deck, one Smithy per 11
    Treasures, and a Smithy always played."""

    name = "smithy"
    province_money = 15

    def extra(self, view: View, money: int) -> int | None:
        owned = view.owned
        if money < COST[SMITHY] or view.supply[SMITHY] <= 0:
            return None
        return SMITHY if owned[SMITHY] < sum(compress(owned, IS_TREASURE)) / 11 else None

    def action(self, view: View) -> Play | None:
        if view.actions and SMITHY in view.hand:
            return (SMITHY, (), None)
        return None


class DoubleMilitia(BigMoneyUltimate):
    """Dominiate's "DoubleMilitia", as the rules file gives it: BMU's priorities with a
    Militia, while it owns fewer than 2, just above Silver (so in place of a Silver at $4-5
    when no Duchy comes first); it plays a Militia whenever it holds one and an Action.

    Chosen over DominionSim's "Militia" (which greens on owning a Gold) because it keeps
    the BMU skeleton of the other built-in bots, so the Militia is the only difference.
    """

    name = "militia"

    def extra(self, view: View, money: int) -> int | None:
        if view.owned[MILITIA] < 2 and money >= COST[MILITIA] and view.supply[MILITIA] > 0:
            return MILITIA
        return None

    def action(self, view: View) -> Play | None:
        if view.actions and MILITIA in view.hand:
            return (MILITIA, (), None)
        return None


class RandomStrategy(Strategy):
    """Uniformly random legal choices: which Action (or none), its arguments, each buy
    (or none), and whether to reveal a Moat. A fuzzer of the engine and a floor to beat."""

    name = "random"

    def action(self, view: View) -> Play | None:
        if not view.actions:
            return None
        hand = view.hand
        options: list[int | None] = sorted({c for c in hand if IS_ACTION[c]})
        if not options:
            return None
        options.append(None)
        card = self.rng.choice(options)
        if card is None:
            return None
        rest = list(hand)
        rest.remove(card)
        rng = self.rng
        supply = view.supply
        if card == CELLAR:
            return (card, tuple(c for c in rest if rng.random() < 0.5), None)
        if card in GAIN_BONUS:
            could = [c for c in rest if IS_TREASURE[c]] if card == MINE else rest
            if not could:
                return (card, (), None)
            old = rng.choice(could)
            gains = gainable(supply, COST[old] + GAIN_BONUS[card], card == MINE)
            return (card, (old,), rng.choice(gains) if gains else None)
        if card == WORKSHOP:
            gains = gainable(supply, WORKSHOP_MAX)
            return (card, (), rng.choice(gains) if gains else None)
        return (card, (), None)

    def choose(self, view: View, money: int) -> int | None:
        options: list[int | None] = [*gainable(view.supply, money), None]
        return self.rng.choice(options)

    def attacked(self, hand: Sequence[int], discard: int) -> list[int] | None:
        if MOAT in hand and self.rng.random() < 0.5:
            return None
        return self.rng.sample(list(hand), discard)


STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls
    for cls in (RandomStrategy, BigMoney, BigMoneyUltimate, SmithyBigMoney, DoubleMilitia)
}
"""Strategies by bot name."""
