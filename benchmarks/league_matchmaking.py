"""How many games a league needs to rank its bots in their true order: the league's
matchmaking (``pairing = "adaptive"``) against uniformly random tables (``"uniform"``),
both with one block per bot count of games (docs/league.md has the figures).

    python benchmarks/league_matchmaking.py [--leagues 40] [--bots 8 16] [--gaps 50 100]
        [--seats 2 4] [--most-games 3000] [--least 0.5] [--most 2]

For each setting, ``--leagues`` leagues of bots of known strength (evenly spaced, ``gap``
Elo apart) are simulated without a referee (:mod:`arena_kernel.testing.league_simulation`),
each game's finishing order drawn from the model. After every block, a league either has
every pair of bots in the true order or not. Reported: the games after which 90 % of the
leagues of a pairing have the true order (the first block count where they do), the
ratio of the two, and the mean number of pairs in the wrong order after a few blocks (a
block: as many games as bots).
"""

from __future__ import annotations

import argparse
import statistics
import time

from arena_kernel.match.matchmaking import Pairing
from arena_kernel.testing.league_simulation import SimulatedLeague, evenly_spaced

SHARE = 0.9
"""The share of leagues that must have the true order."""


def curves(bots: int, gap: float, pairing: Pairing, leagues: int, blocks: int) -> list[list[int]]:
    """Per league, the misordered pairs after each block."""
    out = []
    for seed in range(leagues):
        league = SimulatedLeague(evenly_spaced(bots, gap), pairing=pairing, seed=seed)
        misordered = []
        for _ in range(blocks):
            league.play_block()
            misordered.append(league.misordered())
        out.append(misordered)
    return out


def games_needed(found: list[list[int]], block: int) -> int | None:
    """The games after which :data:`SHARE` of the leagues have the true order."""
    for b in range(len(found[0])):
        if sum(c[b] == 0 for c in found) >= SHARE * len(found):
            return (b + 1) * block
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--leagues", type=int, default=40)
    parser.add_argument("--bots", type=int, nargs="+", default=[8, 16])
    parser.add_argument("--gaps", type=float, nargs="+", default=[50, 100])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--most-games", type=int, default=3000)
    parser.add_argument("--least", type=float, default=Pairing(2).least)
    parser.add_argument("--most", type=float, default=Pairing(2).most)
    args = parser.parse_args()
    print(
        "| bots | gap (Elo) | seats | adaptive: games | uniform: games | uniform / adaptive "
        "| misordered pairs after 5 / 10 / 25 blocks, adaptive vs uniform |"
    )
    print("|---|---|---|---|---|---|---|")
    for bots in args.bots:
        for gap in args.gaps:
            for seats in args.seats:
                blocks = args.most_games // bots
                started = time.process_time()
                found = {
                    p: curves(
                        bots,
                        gap,
                        Pairing(seats, None, p, args.least, args.most),
                        args.leagues,
                        blocks,
                    )
                    for p in ("adaptive", "uniform")
                }
                needed = {p: games_needed(c, bots) for p, c in found.items()}
                ratio = (
                    f"{needed['uniform'] / needed['adaptive']:.2f}"
                    if needed["adaptive"] and needed["uniform"]
                    else "-"
                )
                budgets = [b for b in (5, 10, 25) if b <= blocks]
                means = "; ".join(
                    f"{statistics.mean(c[b - 1] for c in found['adaptive']):.2f} vs "
                    f"{statistics.mean(c[b - 1] for c in found['uniform']):.2f}"
                    for b in budgets
                )
                shown = {p: n if n is not None else f"> {blocks * bots}" for p, n in needed.items()}
                print(
                    f"| {bots} | {gap:g} | {seats} | {shown['adaptive']} | {shown['uniform']} "
                    f"| {ratio} | {means} |",
                    flush=True,
                )
                print(f"  ({time.process_time() - started:.0f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
