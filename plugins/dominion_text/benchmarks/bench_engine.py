"""How many whole games per second the engine plays in process, next to pyminion.

    python plugins/dominion_text/benchmarks/bench_engine.py [--games 3000] [--pyminion-games 300]

Times the BM mirror and Smithy-BM vs BMU with :func:`arena_dominion.strategies.simulate`
and, in the same run, the same bots on pyminion (a pure-Python Dominion simulator on PyPI,
installed for this benchmark only: ``pip install pyminion``). pyminion's own
``BigMoney`` is our BM and its ``BigMoneyUltimate`` is the rules file's Smithy-BM (same
priorities, Province above $15); it has no Smithy-free BMU, so one is written here with
its ``BotDecider`` API. The target is at least twice pyminion's rate.
"""

from __future__ import annotations

import argparse
import logging
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from arena_dominion.strategies import BigMoney, BigMoneyUltimate, SmithyBigMoney, simulate

Match = Callable[[int], object]
"""Plays the game with this seed."""


def ours_bm(seed: int) -> object:
    return simulate([BigMoney(), BigMoney()], seed)


def ours_smithy(seed: int) -> object:
    return simulate([SmithyBigMoney(), BigMoneyUltimate()], seed)


def pyminion_matches() -> dict[str, Match] | str:
    """pyminion's BM mirror and Smithy-BM vs BMU, or why they cannot run."""
    try:
        from pyminion.bots.bot import Bot, BotDecider
        from pyminion.bots.examples import BigMoney as PmBigMoney
        from pyminion.bots.examples import BigMoneyUltimate as PmSmithyBigMoney
        from pyminion.expansions.base import base_set, duchy, estate, gold, province, silver
        from pyminion.expansions.base import smithy as pm_smithy
        from pyminion.game import Game
    except ImportError as error:
        return f"pyminion is not installed ({error}); pip install pyminion"

    class BmuDecider(BotDecider):
        """The rules file's BMU in pyminion's terms."""

        def buy_priority(self, player: Any, game: Any) -> Iterator[Any]:
            money = player.state.money
            provinces = game.supply.pile_length(pile_name="Province")
            if player.get_deck_money() > 18 and money >= 8:
                yield province
            if provinces <= 4 and money >= 5:
                yield duchy
            if provinces <= 2 and money >= 2:
                yield estate
            if money >= 6:
                yield gold
            if provinces <= 6 and money >= 5:
                yield duchy
            if money >= 3:
                yield silver

    def play(players: list[Any], seed: int) -> object:
        random.seed(seed)
        game = Game(players, expansions=[base_set], kingdom_cards=[pm_smithy], log_stdout=False)
        return game.play()

    return {
        "BM mirror": lambda seed: play([PmBigMoney("bm1"), PmBigMoney("bm2")], seed),
        "Smithy-BM vs BMU": lambda seed: play(
            [PmSmithyBigMoney("smithy"), Bot(BmuDecider(), "bmu")], seed
        ),
    }


def rate(match: Match, games: int) -> float:
    start = time.perf_counter()
    for seed in range(games):
        match(seed)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--pyminion-games", type=int, default=300)
    args = parser.parse_args()
    logging.getLogger().setLevel(logging.WARNING)  # pyminion logs every card at INFO
    ours = {"BM mirror": ours_bm, "Smithy-BM vs BMU": ours_smithy}
    theirs = pyminion_matches()
    print(f"{'match':<18} {'arena_dominion':>16} {'pyminion':>12} {'ratio':>7}")
    for label, match in ours.items():
        mine = rate(match, args.games)
        if isinstance(theirs, str):
            print(f"{label:<18} {mine:>10,.0f} games/s")
            continue
        other = rate(theirs[label], args.pyminion_games)
        print(f"{label:<18} {mine:>9,.0f} games/s {other:>7,.0f} games/s {mine / other:>6.1f}x")
    if isinstance(theirs, str):
        print(theirs)


if __name__ == "__main__":
    main()
