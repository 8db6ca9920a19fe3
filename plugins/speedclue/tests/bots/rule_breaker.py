"""A Speed Clue test bot that breaks one of the game's own rules, on purpose.

    python rule_breaker.py IDENTIFIER PORT --solution "S W R"   (suggests it, never accuses)
    python rule_breaker.py IDENTIFIER PORT --bad-show            (shows a card it lacks)

The test computes the solution from the match seed, so this bot can suggest it on its first
turn and then decline to accuse: the contest's "missed accusation". Otherwise it plays like
the built-in random bot.
"""

from __future__ import annotations

import argparse

from arena_speedclue.bot import run
from arena_speedclue.cards import CARDS, Triple
from arena_speedclue.players import RandomPlayer


class RuleBreaker(RandomPlayer):
    def __init__(self, solution: Triple | None, bad_show: bool) -> None:
        super().__init__(seed=1)
        self.solution = solution
        self.bad_show = bad_show

    def suggest(self) -> Triple:
        if self.solution is not None and self.solution not in self.suggested:
            return self._record(self.solution)
        return super().suggest()

    def accuse(self) -> Triple | None:
        return None if self.solution is not None else super().accuse()

    def disprove(self, suggester: int, cards: Triple) -> str:
        if self.bad_show:
            return next(card for card in CARDS if card not in self.hand and card not in cards)
        return super().disprove(suggester, cards)


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--solution", help="the game's solution, as 'S W R'")
    parser.add_argument("--bad-show", action="store_true", help="show a card not held")


def make(args: argparse.Namespace) -> RuleBreaker:
    solution = tuple(args.solution.split()) if args.solution else None
    return RuleBreaker(solution, args.bad_show)  # type: ignore[arg-type]


if __name__ == "__main__":
    run(make, configure=options)
