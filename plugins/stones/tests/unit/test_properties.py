"""Properties of the engine over random playouts: the fast move generator and the referee's
judge agree, apply/undo leave no trace, and pieces are never created or lost unseen."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena_stones.board import CELLS
from arena_stones.matrix import Matrix
from arena_stones.rules import (
    ATTACK,
    BLACK,
    PASS,
    PIECES,
    SIDE_PIECES,
    STRENGTHEN,
    WHITE,
    Position,
    height,
    move_to_xy,
    owner,
    stone,
)

playouts = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(["fixed", "random"]))


def snapshot(position: Position) -> tuple:
    return (
        position.matrix(),
        position.counts[:],
        position.player,
        position.phase,
        position.single,
        position.allowed(),
        position.hash,
        position.winner(),
        position.reason(),
    )


def rebuilt(position: Position) -> Position:
    """The same position computed from scratch, to check the incremental state against."""
    return Position(position.cells, position.player, position.phase, position.single)


def pieces(position: Position, who: int) -> int:
    return sum(height(v) for v in position.cells if owner(v) == who)


def playout(seed: int, setup: str):
    """Yield each position of a random game (the same object, moved on after each yield)
    with the random generator that picks the moves."""
    rng = random.Random(seed)
    position = Position.initial(setup, random.Random(seed))
    while True:
        yield position, rng
        moves = position.legal_moves()
        if not moves:
            return
        position.apply(rng.choice(moves))


@settings(max_examples=25, deadline=None)
@given(playouts)
def test_every_generated_move_is_legal_for_the_judge(game):
    for position, _ in playout(*game):
        for move in position.legal_moves():
            assert position.judge(*move_to_xy(move)) is None, move


@settings(max_examples=25, deadline=None)
@given(playouts)
def test_the_judge_accepts_nothing_but_generated_moves(game):
    """A sample of arbitrary (type, from, to) per position; once per game, all of them."""
    everything = [(PASS, None, None)] + [
        (kind, a, b) for kind in (ATTACK, STRENGTHEN) for a in CELLS for b in CELLS
    ]
    for ply, (position, rng) in enumerate(playout(*game)):
        generated = {move_to_xy(m) for m in position.legal_moves()}
        candidates = everything if ply == 10 else rng.sample(everything, 300)
        over = position.winner() != 0
        for kind, frm, to in candidates:
            reason = position.judge(kind, frm, to)
            assert (reason is None) == ((kind, frm, to) in generated), (kind, frm, to)
            # Once the game is decided (by a lost type, or by no capture at the start of a
            # turn) that is the reason, whatever the move.
            assert (reason == "the game is over") == over, (kind, frm, to, reason)


@settings(max_examples=25, deadline=None)
@given(playouts)
def test_the_judges_quick_path_takes_the_generated_moves_given_as_ints_and_nothing_else(game):
    """Every legal capture and strengthen is judged without its reason being looked for;
    any other move (a pass, an illegal one, or a legal one with a coordinate that equals an
    int without being one) is left to the judge's reasons."""
    everything = [(kind, a, b) for kind in (ATTACK, STRENGTHEN) for a in CELLS for b in CELLS]
    for position, rng in playout(*game):
        if position.winner():
            break
        generated = {move_to_xy(m) for m in position.legal_moves()}
        for kind, frm, to in generated:
            assert position._plainly_legal(kind, frm, to) == (kind != PASS)
            if kind != PASS:
                x, y = frm
                disguises = [(float(x), y), (x, complex(y))] + [(bool(x), y)] * (x in (0, 1))
                for disguised in disguises:
                    assert disguised == frm and not position._plainly_legal(kind, disguised, to)
                    assert position.judge(kind, disguised, to) is not None
        for kind, frm, to in rng.sample(everything, 300):
            assert position._plainly_legal(kind, frm, to) == ((kind, frm, to) in generated)


@settings(max_examples=40, deadline=None)
@given(playouts)
def test_apply_then_undo_restores_everything(game):
    for position, rng in playout(*game):
        before = snapshot(position)
        moves = position.legal_moves()
        for move in rng.sample(moves, min(len(moves), 8)):
            token = position.apply(move)
            after = rebuilt(position)
            # The incremental hash and counts match a position computed from scratch.
            assert (position.hash, position.counts) == (after.hash, after.counts)
            assert position.winner() == after.winner()
            position.undo(token)
            assert snapshot(position) == before


@settings(max_examples=40, deadline=None)
@given(playouts)
def test_pieces_are_conserved_and_heights_add_up(game):
    seed, setup = game
    rng = random.Random(seed)
    position = Position.initial(setup, random.Random(seed))
    captured = {WHITE: 0, BLACK: 0}
    while moves := position.legal_moves():
        for who in (WHITE, BLACK):
            assert pieces(position, who) + captured[who] == SIDE_PIECES
        kind, frm, to = move = rng.choice(moves)
        moved, target = (0, 0) if kind == PASS else (position.cells[frm], position.cells[to])
        position.apply(move)
        if kind == ATTACK:
            captured[owner(target)] += height(target)
            assert position.cells[to] == moved
        elif kind == STRENGTHEN:
            assert height(position.cells[to]) == height(moved) + height(target)
            assert position.cells[to] * moved > 0 and stone(position.cells[to]) == stone(moved)
        if kind != PASS:
            assert position.cells[frm] == 0


@settings(max_examples=30, deadline=None)
@given(playouts)
def test_games_end_only_by_the_rules(game):
    for position, _ in playout(*game):
        moves = position.legal_moves()
        if moves:
            assert position.winner() == 0
            continue
        winner = position.winner()
        assert winner in (WHITE, BLACK)
        loser = -winner
        lost_type = any(position.count(loser, k) == 0 for k in PIECES)
        # Either the loser has lost a type, or it is to move at an attack-only request
        # with no capture.
        assert lost_type or (position.player == loser and position.phase == 0)
        assert all(position.count(winner, k) for k in PIECES)


@settings(max_examples=25, deadline=None)
@given(playouts)
def test_a_followed_matrix_stays_the_positions_matrix(game):
    seed, setup = game
    rng = random.Random(seed)
    position = Position.initial(setup, random.Random(seed))
    board = Matrix(position)
    while moves := position.legal_moves():
        sent = board.copy()
        assert sent == board.rows == position.matrix()
        move = rng.choice(moves)
        position.apply(move)
        board.played(position, move)
        assert board.rows == position.matrix()
        # What was sent is the board before the move, whatever the move changed since.
        assert move[0] == PASS or sent != board.rows
