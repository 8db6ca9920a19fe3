"""Game of Stones bot: the Python iterative-deepening alpha-beta within ``--time SECONDS``
per move, the compiled ``search`` bot's reference."""

from __future__ import annotations

import argparse

from arena_stones.bot import StonesBot, run
from arena_stones.players import PythonSearchPlayer


def make(seconds: float = 1.0, *, cpu: bool = False) -> StonesBot:
    """The bot in process; ``cpu``: its budget is its thread's CPU time."""
    return StonesBot(PythonSearchPlayer(seconds, cpu=cpu))


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time", type=float, default=1.0, metavar="SECONDS", help="budget per move (1.0)"
    )


if __name__ == "__main__":
    run(lambda args: PythonSearchPlayer(args.time), _configure)
