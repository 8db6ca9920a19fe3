"""How fast and how deep the compiled search is, against the Python search, in one run.

    python plugins/stones/benchmarks/search_speed.py [--positions 12] [--seconds 0.5]
        [--trials 3] [--depth 8]

Nodes per second: both searchers think ``--seconds`` on the same positions (the standard
start and positions of random games), trials interleaved, each timed by this process's
CPU time, so that a loaded machine slows both alike; prints the medians and their ratio.
Depth: the depth the compiled search completes in 1 s from the standard start (as the
``search`` bot thinks, by the wall clock, with its rule for starting an iteration), beside
the same search at full width (``full_width=True``: no move left out),
and the CPU time it takes to complete ``--depth`` requests there with no clock at all.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from arena_stones.engine import COMPILED, MISSING
from arena_stones.players import NEW_ITERATION_SHARE
from arena_stones.rules import Position
from arena_stones.search import Searcher


def sample_positions(count: int, seed: int) -> list[Position]:
    """The standard start and positions at random points of random games."""
    rng = random.Random(seed)
    positions = [Position.initial()]
    while len(positions) < count:
        position = Position.initial()
        stop = rng.randrange(4, 30)
        for _ in range(stop):
            moves = position.legal_moves()
            if not moves:
                break
            position.apply(rng.choice(moves))
        if position.legal_moves():
            positions.append(position)
    return positions


def python_rate(positions: list[Position], seconds: float) -> float:
    nodes = 0
    cpu = time.process_time()
    for position in positions:
        searcher = Searcher()
        searcher.best_move(position, seconds)
        nodes += searcher.nodes
    return nodes / (time.process_time() - cpu)


def compiled_rate(positions: list[Position], seconds: float) -> float:
    assert COMPILED is not None
    nodes = 0
    cpu = time.process_time()
    for p in positions:
        searcher = COMPILED.Searcher()
        nodes += searcher.think(p.cells, p.player, p.phase, p.single, seconds)[3]
    return nodes / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=0.5, help="per position and search")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--depth", type=int, default=8, help="depth timed with no clock")
    args = parser.parse_args()
    if COMPILED is None:
        raise SystemExit(f"the compiled engine is not built: {MISSING}")
    with open("/proc/loadavg") as load:
        print(f"load average at the start: {load.read().split()[0]}")
    positions = sample_positions(args.positions, 1)
    python, compiled = [], []
    for trial in range(args.trials):
        python.append(python_rate(positions, args.seconds))
        compiled.append(compiled_rate(positions, args.seconds))
        print(f"trial {trial + 1}: python {python[-1]:,.0f}  compiled {compiled[-1]:,.0f} nodes/s")
    py, c = statistics.median(python), statistics.median(compiled)
    print(
        f"nodes per CPU second (median): python {py:,.0f}  compiled {c:,.0f}  ratio {c / py:.1f}x"
    )

    start = Position.initial()
    depths: dict[bool, list[int]] = {False: [], True: []}
    for _ in range(args.trials):
        for full_width in (False, True):
            searcher = COMPILED.Searcher()
            cpu = time.process_time()
            _, depth, _, nodes, wall = searcher.think(
                start.cells,
                start.player,
                start.phase,
                start.single,
                1.0,
                NEW_ITERATION_SHARE,
                full_width=full_width,
            )
            depths[full_width].append(depth)
            print(
                f"1 s from the start{' (full width)' if full_width else ''}: depth {depth},"
                f" {nodes:,} nodes, {wall:.2f} s wall, {time.process_time() - cpu:.2f} s CPU"
            )
    print(
        f"depth in 1 s from the start (median): {statistics.median(depths[False]):g}"
        f" ({statistics.median(depths[True]):g} with no move left out)"
    )
    cpus = []
    for _ in range(args.trials):
        searcher = COMPILED.Searcher()
        cpu = time.process_time()
        searcher.think(
            start.cells, start.player, start.phase, start.single, 3600.0, 3600.0, args.depth
        )
        cpus.append(time.process_time() - cpu)
    print(
        f"CPU time to complete depth {args.depth} from the start (median):"
        f" {statistics.median(cpus):.2f} s"
    )


if __name__ == "__main__":
    main()
