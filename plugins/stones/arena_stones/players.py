"""The built-in bots' strategies: each decides a move on a position and knows nothing of
the wire (:class:`~arena_stones.bot.StonesBot` asks it at every request)."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from arena_stones.rules import Move, Position
from arena_stones.search import WIN, Searcher, material

STARTUP_MARGIN = 0.3
"""Seconds the searcher keeps back on White's opening request, whose clock includes
starting Python."""


class Player(ABC):
    """A strategy: the move to play at each request."""

    @abstractmethod
    def choose(self, position: Position) -> Move:
        """The move to play; ``position.legal_moves()`` is never empty when called.

        ``position`` is the one the bot follows the game on: leave it as it was given
        (undo what you apply; :class:`~arena_stones.search.Searcher` works on a copy).
        """


class RandomPlayer(Player):
    """The baseline every other bot must beat, and a cheap opponent for rules tests."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, position: Position) -> Move:
        return self.rng.choice(position.legal_moves())


class GreedyPlayer(Player):
    """Captures the opponent's scarcest type it can reach, never stacks onto its own last
    stack of a type, and takes a win it sees; it looks no further, which is what makes it
    a useful yardstick for the searcher."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, position: Position) -> Move:
        me = position.player
        best: list[Move] = []
        best_score = -WIN - 1
        for move in position.legal_moves():
            token = position.apply(move)
            winner = position.winner()
            score = winner * me * WIN if winner else material(position, me)
            position.undo(token)
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return self.rng.choice(best)


class SearchPlayer(Player):
    """The searcher with its per-move budget."""

    def __init__(self, seconds: float = 1.0) -> None:
        self.seconds = seconds
        self.searcher = Searcher()

    def choose(self, position: Position) -> Move:
        seconds = self.seconds
        if position.single:
            seconds = max(seconds - STARTUP_MARGIN, seconds / 4)
        # Reading the request and writing the reply happen outside the search's clock.
        return self.searcher.best_move(position, max(seconds * 0.95 - 0.01, 0.01))
