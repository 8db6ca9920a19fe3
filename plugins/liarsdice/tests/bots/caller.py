"""A Liar's Dice test bot whose every move a test can foresee from the deal alone.

``python caller.py --call challenge|spot_on --tcp HOST PORT``. Opening a round it bids its
own highest face, as many as it holds (always true of its own hand); when another player's
bid stands and it is its turn, it answers the word of ``--call``; otherwise it passes. So
with every seat played by this bot each round is one bid and one call, and a test replays
the game through the rules engine from the seed alone.
"""

from __future__ import annotations

import argparse

from arena_kernel.plugin import JsonlCodec, main
from arena_liarsdice.bot import DiceBot
from arena_liarsdice.players import PASS, Move, Player, View
from arena_liarsdice.rules import Bid


def opening(hand: tuple[int, ...]) -> Bid:
    """The bid this bot opens a round with: its highest face, as many as it holds."""
    face = max(hand)
    return (face, hand.count(face))


class Caller(Player):
    def __init__(self, word: str) -> None:
        super().__init__(0)
        self.word = word

    def move(self, view: View) -> Move:
        if not view.my_turn:
            return PASS
        return opening(view.hand) if view.first_move else self.word


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--call", choices=("challenge", "spot_on"), default="challenge")


if __name__ == "__main__":
    main(lambda args: DiceBot(Caller(args.call)), JsonlCodec(), configure=configure)
