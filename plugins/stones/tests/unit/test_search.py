"""The searcher's evaluation: the same for either colour, its survey of the board agreeing
with the move generator, and the worth of a type's last stacks."""

from __future__ import annotations

import random

from arena_stones import search
from arena_stones.rules import ATTACK, WHITE, Position


def mirrored(position: Position) -> Position:
    """The same position with the colours swapped."""
    return Position([-v for v in position.cells], -position.player, position.phase, False)


def test_evaluation_is_the_same_for_either_colour():
    rng = random.Random(4)
    for _ in range(20):
        position = Position.initial("random", rng)
        for _ in range(rng.randrange(30)):
            moves = position.legal_moves()
            if not moves:
                break
            position.apply(rng.choice(moves))
        if position.winner():
            continue
        assert search.evaluate(position) == search.evaluate(mirrored(position))


def test_survey_counts_the_captures_the_move_generator_finds():
    rng = random.Random(6)
    position = Position.initial()
    while moves := position.legal_moves():
        _, attacks_w, attacks_b, threat_w, threat_b = search.survey(position.cells)
        attacks = sum(kind == ATTACK for kind, _, _ in moves)
        assert attacks == (attacks_w if position.player == WHITE else attacks_b)
        targets = {t for kind, _, t in moves if kind == ATTACK}
        assert len(targets) == sum(threat_b if position.player == WHITE else threat_w)
        position.apply(rng.choice(moves))


def test_the_last_stacks_of_a_type_weigh_most():
    loss = search.LOSS
    assert loss[1] >= search.WIN // 2
    assert all(loss[n] >= loss[n + 1] > 0 for n in range(1, 30))
    # Two threatened stacks of a type with two left: taking both wins, and is worth more
    # than taking one of each of the other types.
    counts = [0, 15, 9, 2, 0, 15, 9, 2]
    assert search.best_gain(counts, 4, [0, 1, 1, 2], 2) == loss[2] + loss[1]
    assert search.best_gain(counts, 4, [0, 1, 1, 2], 1) == loss[2]
    assert search.best_gain(counts, 4, [0, 1, 1, 0], 2) == loss[15] + loss[9]
    assert search.best_gain(counts, 4, [0, 0, 0, 0], 2) == 0
