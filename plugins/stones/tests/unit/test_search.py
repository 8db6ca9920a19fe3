"""The searchers' evaluations: the same for either colour, the survey of the board agreeing
with the move generator, the worth of a type's last stacks, and the compiled search's
safety terms."""

from __future__ import annotations

import random

from arena_stones import search
from arena_stones.rules import ATTACK, BLACK, WHITE, A, Position, encode


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
        assert search.compiled_evaluate(position) == search.compiled_evaluate(mirrored(position))


def test_safety_counts_a_type_out_of_reach_of_every_enemy_stack(endgame, with_stacks):
    # White's Tzarra at (4, 2) is two high, every black stack one: White's two Tzarras are
    # safe and White has the tallest stack. The value is the side to move's.
    position = with_stacks(endgame, WHITE)
    bonus = search.SAFE_TYPE[2] + search.TALLEST
    assert search.safety(position.cells, position.counts) == bonus
    assert search.compiled_evaluate(position) == search.evaluate(position) + bonus
    black = with_stacks(endgame, BLACK)
    assert search.compiled_evaluate(black) == search.evaluate(black) - bonus
    # A black stack as tall ends both: equal heights can capture each other.
    endgame[(8, 8)] = encode(BLACK, A, 2)
    level = with_stacks(endgame, WHITE)
    assert search.safety(level.cells, level.counts) == 0
    # Taller still, Black's only Tott is safe and Black has the tallest stack.
    endgame[(8, 8)] = encode(BLACK, A, 3)
    taller = with_stacks(endgame, WHITE)
    assert search.safety(taller.cells, taller.counts) == -search.SAFE_TYPE[1] - search.TALLEST


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
