"""How many whole games per second the engine plays in process, next to pyminion.

    python plugins/dominion_text/benchmarks/bench_engine.py [--games 3000]
        [--pyminion-games 500] [--trials 5] [--clock cpu|wall]

Times the BM mirror and Smithy-BM vs BMU with :func:`arena_dominion_text.simulate.simulate`
and, in the same run, the same bots on pyminion (a pure-Python Dominion simulator on PyPI,
installed for this benchmark only: ``pip install pyminion``). pyminion's own
``BigMoney`` is our BM and its ``BigMoneyUltimate`` is the rules file's Smithy-BM (same
priorities, Province above $15); it has no Smithy-free BMU, so one is written here with
its ``BotDecider`` API. The target is at least ten times pyminion's rate on both matches.

Logging: importing pyminion sets the ROOT logger to INFO, after which every card it moves
builds and dispatches a log record nobody reads, which about halves its rate. Setting a
level before the import is undone by the import, so the script imports pyminion first and
then calls ``logging.disable(logging.INFO)``, which no logger level can override, and
checks that INFO is off before timing anything. pyminion still formats its messages
(f-strings are built before the call); that cost is its own and is timed.

Trials: each trial plays every match on both simulators in ten alternating slices (a
tenth of our games, a tenth of pyminion's, and so on), so that a change in the machine's
load falls on both alike; the rates printed are the medians over the trials, and the ratio
is the median of the trials' ratios.

Clock: by default the process's CPU time. Both simulators are single-threaded and do no
I/O, so CPU time is all the work they do; the wall clock adds whatever time other processes
hold the CPU, which on a shared machine comes in bursts (ratios were seen to swing by a
fifth between runs). ``--clock wall`` times with the wall clock instead.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from arena_dominion_text.players import BigMoney, BigMoneyUltimate, SmithyBigMoney
from arena_dominion_text.simulate import simulate

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
    logging.disable(logging.INFO)
    if logging.getLogger("pyminion").isEnabledFor(logging.INFO):
        raise SystemExit("pyminion's INFO logging is still on: the timing would be unfair")

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


CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


SLICES = 10
"""Alternating slices each trial's games are timed in, per match and simulator."""


def seconds(match: Match, seeds: range, clock: Callable[[], float]) -> float:
    start = clock()
    for seed in seeds:
        match(seed)
    return clock() - start


def piece(games: int, i: int) -> range:
    """The seeds of slice ``i`` of ``games`` games."""
    return range(games * i // SLICES, games * (i + 1) // SLICES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--pyminion-games", type=int, default=500)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args()
    if min(args.games, args.pyminion_games, args.trials) < 1:
        parser.error("--games, --pyminion-games and --trials must be at least 1")
    ours = {"BM mirror": ours_bm, "Smithy-BM vs BMU": ours_smithy}
    theirs = pyminion_matches()
    clock = CLOCKS[args.clock]
    mine: dict[str, list[float]] = {label: [] for label in ours}
    other: dict[str, list[float]] = {label: [] for label in ours}
    for _ in range(args.trials):
        for label, match in ours.items():
            spent = [0.0, 0.0]
            for i in range(SLICES):
                spent[0] += seconds(match, piece(args.games, i), clock)
                if not isinstance(theirs, str):
                    spent[1] += seconds(theirs[label], piece(args.pyminion_games, i), clock)
            mine[label].append(args.games / spent[0])
            if not isinstance(theirs, str):
                other[label].append(args.pyminion_games / spent[1])
    print(f"medians of {args.trials} interleaved trials, {args.clock} time")
    print(f"{'match':<18} {'arena':>16} {'pyminion':>16} {'ratio':>7}")
    for label in ours:
        rate_ours = statistics.median(mine[label])
        if isinstance(theirs, str):
            print(f"{label:<18} {rate_ours:>9,.0f} games/s")
            continue
        rate_theirs = statistics.median(other[label])
        ratio = statistics.median(m / o for m, o in zip(mine[label], other[label], strict=True))
        print(f"{label:<18} {rate_ours:>9,.0f} games/s {rate_theirs:>9,.0f} games/s {ratio:>6.1f}x")
    if isinstance(theirs, str):
        print(theirs)


if __name__ == "__main__":
    main()
