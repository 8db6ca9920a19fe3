"""The compiled engine against the Python one, its reference: over many random games, the
same legal moves in the same order, the same positions after every move and every undo
(cells, side, request, counts, Zobrist hash), the same winner and the same evaluation (the
compiled search's, :func:`~arena_stones.search.compiled_evaluate`)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena_stones import search
from arena_stones.engine import configuration
from arena_stones.rules import ANY_MOVE, ATTACK_ONLY, BLACK, WHITE, Position

playouts = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(["fixed", "random"]))


def python_state(position: Position) -> tuple:
    return (
        position.cells,
        position.player,
        position.phase,
        position.single,
        position.counts,
        position.hash,
        position.decided,
    )


def compiled_state(board) -> tuple:
    return (
        board.cells,
        board.player,
        board.phase,
        board.single,
        board.counts,
        board.hash,
        board.decided,
    )


def agree(position: Position, board) -> None:
    assert compiled_state(board) == python_state(position)
    assert board.winner() == position.winner()
    assert board.legal_moves() == position.legal_moves()
    if not position.winner():
        assert board.evaluate() == search.compiled_evaluate(position)


def play_both(compiled, seed: int, setup: str) -> int:
    """One random game on both engines, checked after every move and, taking the moves
    back one by one, after every undo; returns its length."""
    rng = random.Random(seed)
    position = Position.initial(setup, random.Random(seed))
    board = compiled.Board(position.cells, position.player, position.phase, position.single)
    seen, tokens = [], []
    while True:
        agree(position, board)
        seen.append(python_state(position))
        moves = position.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        tokens.append(position.apply(move))
        board.apply(move)
    for token in reversed(tokens):
        position.undo(token)
        board.undo()
        seen.pop()
        assert compiled_state(board) == python_state(position) == seen[-1]
    return len(tokens)


@settings(max_examples=150, deadline=None)
@given(playouts)
def test_both_engines_play_random_games_alike(compiled, game):
    play_both(compiled, *game)


def test_both_engines_agree_over_many_seeded_games(compiled):
    lengths = [play_both(compiled, seed, ("fixed", "random")[seed % 2]) for seed in range(200)]
    assert min(lengths) > 5


def test_both_engines_agree_on_hand_built_endgames(compiled, endgame, with_stacks):
    for player in (WHITE, BLACK):
        for allowed in (ATTACK_ONLY, ANY_MOVE):
            position = with_stacks(endgame, player, allowed)
            board = compiled.Board(position.cells, player, position.phase, position.single)
            agree(position, board)


def test_a_board_that_is_no_position_is_refused(compiled):
    cells = Position.initial().cells
    with pytest.raises(ValueError, match="60 cells"):
        compiled.Board(cells[:59], WHITE, 0, True)
    with pytest.raises(ValueError, match="no stack"):
        compiled.Board([2, *cells[1:]], WHITE, 0, True)
    with pytest.raises(ValueError, match="request"):
        compiled.Board(cells, 3, 0, True)
    with pytest.raises(ValueError, match="not a move"):
        compiled.Board(cells, WHITE, 0, True).apply((5, 0, 1))


def test_rays_whose_cells_do_not_increase_are_refused(compiled):
    # The evaluation finds a forward ray's nearest stack as its lowest occupied cell.
    settings = configuration()
    backwards = [tuple(tuple(reversed(ray)) for ray in rays) for rays in settings["forward_rays"]]
    try:
        with pytest.raises(ValueError, match="increasing order"):
            compiled.configure(**{**settings, "forward_rays": backwards})
    finally:
        compiled.configure(**settings)
    position = Position.initial("random", random.Random(7))
    board = compiled.Board(position.cells, WHITE, 0, True)
    assert board.evaluate() == search.compiled_evaluate(position)
