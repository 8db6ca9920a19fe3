"""This protocol's own strategy, Mine-BM, decided from plain views and played through whole
v1 games of the engine's simulation."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from arena_dominion_sexpr.players import MineBigMoney
from arena_dominion_sexpr.rules import KINGDOMS
from arena_dominion_text.cards import COPPER, ESTATE, GOLD, MINE, NAMES, PROVINCE, SILVER, card
from arena_dominion_text.players import BigMoney
from arena_dominion_text.rules import COURSE, supply_sizes
from arena_dominion_text.simulate import simulate


def view(hand: str = "", *, money: int = 0, actions: int = 1, owned: str = "", **empty: int):
    """A v1 view: ``hand``, the ``money`` to spend, the cards ``owned`` besides the
    opening deck, and piles set by ``empty`` (card name -> copies left)."""
    counts = [0] * len(NAMES)
    for name in ["copper"] * 7 + ["estate"] * 3 + owned.split():
        counts[card(name)] += 1
    supply = supply_sizes(2, KINGDOMS[1], curses=False)
    for name, left in empty.items():
        supply[card(name)] = left
    return SimpleNamespace(
        hand=[card(c) for c in hand.split()],
        actions=actions,
        buys=1,
        money=money,
        owned=counts,
        supply=supply,
    )


@pytest.mark.parametrize(
    ("money", "owned", "piles", "bought"),
    [
        (5, "", {}, MINE),
        (5, "mine", {}, SILVER),  # one Mine only
        (5, "", {"mine": 0}, SILVER),  # none left
        (6, "", {}, GOLD),  # Gold beats a Mine
        (4, "", {}, SILVER),
        (8, "", {}, PROVINCE),
    ],
)
def test_mine_bm_buys_one_mine_with_exactly_five(money, owned, piles, bought):
    assert MineBigMoney().choose(view(money=money, owned=owned, **piles), money) == bought


@pytest.mark.parametrize(
    ("hand", "actions", "piles", "play"),
    [
        ("mine silver copper estate", 1, {}, (MINE, (SILVER,), GOLD)),
        ("mine copper copper estate", 1, {}, (MINE, (COPPER,), SILVER)),
        ("mine silver copper estate", 1, {"gold": 0}, (MINE, (COPPER,), SILVER)),
        ("mine estate estate estate", 1, {}, None),
        ("mine silver copper estate", 0, {}, None),
        ("silver copper estate estate", 1, {}, None),
    ],
)
def test_mine_bm_turns_silver_into_gold_else_copper_into_silver(hand, actions, piles, play):
    assert MineBigMoney().action(view(hand, actions=actions, **piles)) == play


def test_mine_bm_plays_whole_v1_games_and_its_mine():
    class Counted(MineBigMoney):
        played = 0

        def action(self, v):
            play = super().action(v)
            self.played += play is not None
            return play

    mined = Counted()
    for seed in range(20):
        seats = [mined, BigMoney(random.Random(seed))]
        result = simulate(seats, seed, kingdom=KINGDOMS[1], curses=False, rules=COURSE)
        assert result.reason and len(result.ranks) == 2
    assert mined.played > 20, "a Mine bought at $5 is played most turns it is drawn"
    assert MineBigMoney.name == "mine" and ESTATE not in KINGDOMS[1]
