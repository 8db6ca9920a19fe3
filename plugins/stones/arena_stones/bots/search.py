"""Game of Stones bot: the compiled iterative-deepening alpha-beta, answering within the
match's reply limit as the arena tells it (1.0 s when it tells none), or within
``--time SECONDS``."""

from __future__ import annotations

import argparse

from arena_stones.bot import StonesBot, process_age, run
from arena_stones.players import SearchPlayer


def make(limit: float | None = None) -> StonesBot:
    """The bot in process; ``limit`` None: the match's reply limit."""
    return StonesBot(SearchPlayer(limit))


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the reply limit to answer within (default: the match's [clock] reply, as the "
        "arena tells it; 1.0 without one)",
    )


if __name__ == "__main__":
    run(lambda args: SearchPlayer(args.time, waited=process_age()), _configure)
