"""Game of Stones bot: the compiled iterative-deepening alpha-beta, answering within
``--time SECONDS`` (the match's reply limit; 1.0 by default)."""

from __future__ import annotations

import argparse

from arena_stones.bot import StonesBot, process_age, run
from arena_stones.players import SearchPlayer


def make(limit: float = 1.0) -> StonesBot:
    return StonesBot(SearchPlayer(limit))


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="the reply limit to answer within: the match's [clock] reply (1.0)",
    )


if __name__ == "__main__":
    run(lambda args: SearchPlayer(args.time, waited=process_age()), _configure)
