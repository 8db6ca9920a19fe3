"""Game of Stones bot: the move with the best material one request ahead (``--seed N``)."""

from __future__ import annotations

import random

from arena_stones.engine import Move, Position
from arena_stones.players import Player, material, run

WIN = 1_000_000


class GreedyPlayer(Player):
    """Captures the opponent's scarcest type it can reach, never stacks onto its own last
    stack of a type, and takes a win it sees; it looks no further, which is what makes it
    a useful yardstick for the searcher."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
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


def make(seed: int | None = None) -> GreedyPlayer:
    return GreedyPlayer(seed)


if __name__ == "__main__":
    run(lambda args: make(args.seed), seeded=True)
