"""The rules engine: the board, the fixed start, every illegal move with its reason, the turn
sequence and both ways to lose, on small hand-built positions."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from arena_stones.board import CELLS, INDEX, LABELS, RAYS, contest_label, label, on_board
from arena_stones.rules import (
    ANY_MOVE,
    ATTACK,
    ATTACK_ONLY,
    BLACK,
    FIXED_START,
    PASS,
    PASS_MOVE,
    STRENGTHEN,
    TOTAL_PIECES,
    WHITE,
    A,
    B,
    C,
    Position,
    describe,
    encode,
    from_xy,
    height,
    move_to_xy,
    owner,
    stone,
    to_xy,
)

RULEBOOK_START = [
    [5, 5, 5, 5, -5, 0, 0, 0, 0],
    [-5, 6, 6, 6, -6, -5, 0, 0, 0],
    [-5, -6, 7, 7, -7, -6, -5, 0, 0],
    [-5, -6, -7, 5, -5, -7, -6, -5, 0],
    [-5, -6, -7, -5, 0, 5, 7, 6, 5],
    [0, 5, 6, 7, 5, -5, 7, 6, 5],
    [0, 0, 5, 6, 7, -7, -7, 6, 5],
    [0, 0, 0, 5, 6, -6, -6, -6, 5],
    [0, 0, 0, 0, 5, -5, -5, -5, -5],
]
"""Copied from the rules file, independently of the engine's own constant."""


def xy(name: str) -> tuple[int, int]:
    """ "E3" -> (4, 2)."""
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


FILLER = {
    "A1": encode(WHITE, A, 1),
    "B1": encode(WHITE, B, 1),
    "C1": encode(WHITE, C, 1),
    "I9": encode(BLACK, A, 1),
    "H9": encode(BLACK, B, 1),
    "G9": encode(BLACK, C, 1),
}
"""One stack of each type per side in two corners, so that a small position is not
already lost; tests that need different material list their own."""


def build(
    stacks: dict[str, int],
    player: int = WHITE,
    allowed: tuple[int, ...] = ANY_MOVE,
    filler: bool = True,
) -> Position:
    matrix = [[0] * 9 for _ in range(9)]
    for name, value in ({**FILLER, **stacks} if filler else stacks).items():
        x, y = xy(name)
        matrix[y][x] = value
    return Position.from_matrix(matrix, player, allowed)


W1, W2, W3 = (encode(WHITE, A, h) for h in (1, 2, 3))
K1, K2 = (encode(BLACK, A, h) for h in (1, 2))
REACH = {"D1": W1, "E1": K1}
"""A capture for white, for attack-only requests: without one white has lost already."""


# -- the board ------------------------------------------------------------------------


def test_board_has_sixty_cells_and_a_hole_in_the_middle():
    assert len(CELLS) == 60
    assert not on_board(4, 4)
    assert not on_board(0, 5) and not on_board(5, 0) and not on_board(9, 2)
    assert on_board(0, 4) and on_board(8, 4) and on_board(4, 8)
    assert all(INDEX[cell] == i for i, cell in enumerate(CELLS))
    assert to_xy(from_xy((4, 2))) == (4, 2)


def test_labels_are_column_letter_and_row_number():
    assert label(4, 2) == "E3"
    assert label(0, 0) == "A1" and label(8, 8) == "I9"
    assert LABELS[INDEX[3, 7]] == "D8"


def test_contest_labels_count_each_column_from_its_first_cell():
    # The contest's logs name I4 and I5 the two cells the protocol's grid calls I8 and I9.
    assert (label(8, 7), contest_label(8, 7)) == ("I8", "I4")
    assert (label(8, 8), contest_label(8, 8)) == ("I9", "I5")
    assert contest_label(8, 4) == "I1" and contest_label(5, 1) == "F1"
    assert contest_label(5, 8) == "F8" and contest_label(4, 8) == "E9"
    for x in range(9):
        column = [y for cx, y in CELLS if cx == x]
        if x <= 4:  # columns A to E start at Y = 0: both names agree
            assert all(contest_label(x, y) == label(x, y) for y in column)
        rows = [int(contest_label(x, y)[1:]) for y in column]
        hole = [5] if x == 4 else []  # the centre, E5 in both
        assert rows == [r for r in range(1, len(column) + len(hole) + 1) if r not in hole]
    assert len({contest_label(x, y) for x, y in CELLS}) == 60


README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_board_shows_both_labels_of_every_cell():
    """The README's board: rows Y = 0..8 (arena's row Y + 1), each cell its contest name."""
    rows = [line for line in README.read_text().splitlines() if re.match(r" *Y=\d", line)]
    assert len(rows) == 9
    for y, line in enumerate(rows):
        head, cells = line.split("|")
        assert head.split() == [f"Y={y}", str(y + 1)]
        expected = [
            contest_label(x, y) if on_board(x, y) else "()" if (x, y) == (4, 4) else "."
            for x in range(9)
        ]
        assert cells.split() == expected, line


def test_rays_follow_the_six_lines_and_stop_at_the_centre_and_the_edge():
    rays = {tuple(CELLS[c] for c in ray) for ray in RAYS[INDEX[4, 0]]}
    # South from E1 stops before the centre; E, W and NW stop at the edge.
    assert ((4, 1), (4, 2), (4, 3)) in rays
    assert ((3, 0), (2, 0), (1, 0), (0, 0)) in rays
    assert ((5, 1), (6, 2), (7, 3), (8, 4)) in rays
    assert len(rays) == 3  # N, E and NW (and the missing NE/SW) leave the board at once
    # Next to the hole, the ray towards it is empty and therefore absent.
    for cell in ((3, 4), (5, 4), (4, 3), (4, 5), (3, 3), (5, 5)):
        assert all((4, 4) not in (CELLS[c] for c in ray) for ray in RAYS[INDEX[cell]])
        assert len(RAYS[INDEX[cell]]) == 5


def test_encoding_helpers():
    assert encode(BLACK, C, 2) == -11
    assert (owner(-11), stone(-11), height(-11)) == (BLACK, C, 2)
    assert (owner(5), stone(5), height(5)) == (WHITE, A, 1)
    assert (owner(0), stone(0), height(0)) == (0, 0, 0)


# -- the start ------------------------------------------------------------------------


def test_fixed_start_is_the_rulebook_position():
    position = Position.initial()
    assert position.matrix() == RULEBOOK_START
    assert [list(row) for row in FIXED_START] == RULEBOOK_START
    assert position.player == WHITE and position.allowed() == ATTACK_ONLY
    assert position.winner() == 0 and position.reason() == ""


def test_fixed_start_has_fifteen_nine_six_of_each_side():
    cells = [v for row in Position.initial().matrix() for v in row if v]
    assert len(cells) == 60 and all(height(v) == 1 for v in cells)
    for who in (WHITE, BLACK):
        kinds = [stone(v) for v in cells if owner(v) == who]
        assert (kinds.count(A), kinds.count(B), kinds.count(C)) == (15, 9, 6)
    position = Position.initial()
    assert [position.count(who, k) for who in (WHITE, BLACK) for k in (A, B, C)] == [
        15,
        9,
        6,
    ] * 2


def test_random_setup_is_a_seeded_shuffle_of_the_same_pieces():
    one = Position.initial("random", random.Random(7))
    again = Position.initial("random", random.Random(7))
    other = Position.initial("random", random.Random(8))
    assert one.matrix() == again.matrix() != other.matrix()
    fixed = sorted(v for row in RULEBOOK_START for v in row if v)
    assert sorted(v for row in one.matrix() for v in row if v) == fixed
    assert one.matrix()[4][4] == 0 and one.allowed() == ATTACK_ONLY
    with pytest.raises(ValueError, match="setup"):
        Position.initial("spiral")


def test_from_matrix_rejects_what_is_no_board():
    with pytest.raises(ValueError, match="9x9"):
        Position.from_matrix([[0] * 9] * 8, WHITE, ATTACK_ONLY)
    bad = [row[:] for row in RULEBOOK_START]
    bad[4][4] = 5
    with pytest.raises(ValueError, match="not on the board"):
        Position.from_matrix(bad, WHITE, ATTACK_ONLY)
    bad = [row[:] for row in RULEBOOK_START]
    bad[0][0] = 4  # height 1, no type
    with pytest.raises(ValueError, match="no stack"):
        Position.from_matrix(bad, WHITE, ATTACK_ONLY)
    bad[0][0] = encode(WHITE, A, 31)  # taller than all of a side's pieces
    with pytest.raises(ValueError, match="no stack"):
        Position.from_matrix(bad, WHITE, ATTACK_ONLY)
    with pytest.raises(ValueError, match="AllowedMoves"):
        Position.from_matrix(RULEBOOK_START, WHITE, [PASS, ATTACK])
    with pytest.raises(ValueError, match="player"):
        Position.from_matrix(RULEBOOK_START, 0, ATTACK_ONLY)


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({(0, 0): True}, "cell 0,0 is not an integer: True"),
        ({(8, 0): False}, "cell 8,0 is not an integer: False"),  # a corner: no cell
        ({(4, 4): 0.0}, "cell 4,4 is not an integer: 0.0"),  # the centre
        ({(1, 0): 5.0}, "cell 1,0 is not an integer: 5.0"),
        ({(2, 0): "5"}, "cell 2,0 is not an integer: '5'"),
        ({(8, 0): 5}, "cell 8,0 is not on the board but holds 5"),
        ({(3, 0): 4}, "cell D1 holds 4, which is no stack"),
        # The first place in reading order (row by row) is the one named.
        ({(8, 0): 5, (0, 1): True}, "cell 8,0 is not on the board but holds 5"),
        ({(0, 8): 5, (8, 7): 4}, "cell I8 holds 4, which is no stack"),
        ({(4, 4): 1, (0, 0): -4}, "cell A1 holds -4, which is no stack"),
    ],
)
def test_from_matrix_names_the_first_place_that_is_no_board(changes, reason):
    bad = [row[:] for row in RULEBOOK_START]
    for (x, y), value in changes.items():
        bad[y][x] = value
    with pytest.raises(ValueError) as raised:
        Position.from_matrix(bad, WHITE, ATTACK_ONLY)
    assert str(raised.value) == reason


def test_from_matrix_knows_whites_opening_turn_by_the_full_board():
    opening = Position.from_matrix(RULEBOOK_START, WHITE, ATTACK_ONLY)
    assert opening.single and opening.hash == Position.initial().hash
    opening.play(ATTACK, (3, 3), (4, 3))
    # After the first capture an attack-only request for white is a normal turn's first.
    later = Position.from_matrix(opening.matrix(), WHITE, ATTACK_ONLY)
    assert not later.single


# -- the turn sequence ----------------------------------------------------------------


def test_white_opens_with_one_attack_then_every_turn_is_two_requests():
    position = Position.initial()
    rng = random.Random(1)
    seen = []
    for _ in range(9):
        seen.append((position.player, position.allowed()))
        position.apply(rng.choice([m for m in position.legal_moves() if m[0] == ATTACK]))
    assert seen == [
        (WHITE, ATTACK_ONLY),
        (BLACK, ATTACK_ONLY),
        (BLACK, ANY_MOVE),
        (WHITE, ATTACK_ONLY),
        (WHITE, ANY_MOVE),
        (BLACK, ATTACK_ONLY),
        (BLACK, ANY_MOVE),
        (WHITE, ATTACK_ONLY),
        (WHITE, ANY_MOVE),
    ]


def test_opening_moves_are_attacks_only():
    moves = Position.initial().legal_moves()
    assert moves and all(kind == ATTACK for kind, _, _ in moves)
    assert len(moves) == len(set(moves)) == 42


def test_second_request_offers_pass_attack_and_strengthen():
    position = Position.initial()
    position.play(ATTACK, (3, 3), (4, 3))
    position.play(ATTACK, (4, 2), (4, 3))
    kinds = {kind for kind, _, _ in position.legal_moves()}
    assert position.allowed() == ANY_MOVE and kinds == {PASS, ATTACK, STRENGTHEN}
    assert PASS_MOVE in position.legal_moves()


# -- legal moves and their effect -----------------------------------------------------


def test_attack_replaces_the_captured_stack_and_keeps_the_height():
    position = build({"A3": W2, "A5": K2}, allowed=ATTACK_ONLY)
    assert position.judge(ATTACK, xy("A3"), xy("A5")) is None
    position.play(ATTACK, xy("A3"), xy("A5"))
    assert position.matrix()[2][0] == 0 and position.matrix()[4][0] == W2
    assert position.count(BLACK, A) == 1  # the filler's


def test_attack_onto_a_lower_stack_is_legal():
    assert (
        build({"A3": W3, "A5": K1}, allowed=ATTACK_ONLY).judge(ATTACK, xy("A3"), xy("A5")) is None
    )


def test_strengthen_adds_heights_and_the_mover_decides_the_type():
    position = build({"D4": encode(WHITE, C, 2), "D6": encode(WHITE, A, 1)})
    assert position.judge(STRENGTHEN, xy("D4"), xy("D6")) is None
    position.play(STRENGTHEN, xy("D4"), xy("D6"))
    assert position.matrix()[5][3] == encode(WHITE, C, 3)
    assert position.count(WHITE, C) == 2 and position.count(WHITE, A) == 1


def test_pass_changes_only_the_turn():
    position = build({"D4": W1}, player=BLACK)
    before = position.matrix()
    assert position.judge(PASS, None, None) is None
    position.play(PASS, None, None)
    assert position.matrix() == before
    assert (position.player, position.allowed()) == (WHITE, ATTACK_ONLY)


def test_moves_slide_over_empty_cells_in_the_six_directions_but_not_over_the_centre():
    target = "E6"  # (4, 5): an attacker on each of its lines, two to four cells away
    around = {"H6": (3, 0), "B6": (-3, 0), "E9": (0, 3), "G8": (2, 2), "A2": (-4, -4)}
    for name, (dx, dy) in around.items():
        assert xy(name) == (4 + dx, 5 + dy)
        position = build({name: W1, target: K1}, allowed=ATTACK_ONLY)
        assert position.judge(ATTACK, xy(name), xy(target)) is None, name
        assert (ATTACK, from_xy(xy(name)), from_xy(xy(target))) in position.legal_moves()
    # North of E6 is the centre: E3 cannot reach it.
    position = build({"E3": W1, target: K1, **REACH}, allowed=ATTACK_ONLY)
    assert position.judge(ATTACK, xy("E3"), xy(target)) == "path from E3 to E6 crosses the centre"


def test_describe_and_move_to_xy():
    assert describe(PASS_MOVE) == "pass" and move_to_xy(PASS_MOVE) == (PASS, None, None)
    move = (ATTACK, from_xy((4, 2)), from_xy((5, 3)))
    assert describe(move) == "attack E3xF4"
    assert move_to_xy(move) == (ATTACK, (4, 2), (5, 3))
    assert describe((STRENGTHEN, from_xy((4, 2)), from_xy((5, 3)))) == "strengthen E3+F4"


# -- every illegal move, with its reason ----------------------------------------------

CASES = {
    "unknown type": (
        {},
        ANY_MOVE,
        (7, None, None),
        "Type 7 is not a move type (0 pass, 1 attack, 2 strengthen)",
    ),
    "strengthen at an attack-only request": (
        {"D4": W1, "E4": W1, **REACH},
        ATTACK_ONLY,
        (STRENGTHEN, "D4", "E4"),
        "Type not in AllowedMoves: strengthen at an attack-only request",
    ),
    "pass at an attack-only request": (
        REACH,
        ATTACK_ONLY,
        (PASS, None, None),
        "Type not in AllowedMoves: pass at an attack-only request",
    ),
    "pass with a From": (
        {"D4": W1},
        ANY_MOVE,
        (PASS, "D4", None),
        "Pass needs From and To to be null",
    ),
    "pass with a To": (
        {"D4": W1},
        ANY_MOVE,
        (PASS, None, "D4"),
        "Pass needs From and To to be null",
    ),
    "attack without From": ({"D4": W1}, ANY_MOVE, (ATTACK, None, "D4"), "From is null"),
    "attack without To": ({"D4": W1}, ANY_MOVE, (ATTACK, "D4", None), "To is null"),
    "From off the board": (
        {"E3": K1},
        ANY_MOVE,
        (ATTACK, (9, 2), "E3"),
        "From is off the board (9, 2)",
    ),
    "From negative": (
        {"E3": K1},
        ANY_MOVE,
        (ATTACK, (-1, 0), "E3"),
        "From is off the board (-1, 0)",
    ),
    "From in a corner of the matrix that is no cell": (
        {"E3": K1},
        ANY_MOVE,
        (ATTACK, (0, 5), "E3"),
        "From is off the board (0, 5)",
    ),
    "To off the board": (
        {"E3": W1},
        ANY_MOVE,
        (ATTACK, "E3", (2, 8)),
        "To is off the board (2, 8)",
    ),
    "From is the centre": ({"E3": K1}, ANY_MOVE, (ATTACK, (4, 4), "E3"), "From is the centre"),
    "To is the centre": ({"E3": W1}, ANY_MOVE, (ATTACK, "E3", (4, 4)), "To is the centre"),
    "From is no location": (
        {"E3": K1},
        ANY_MOVE,
        (ATTACK, ("4", 2), "E3"),
        "From is not a location: ('4', 2)",
    ),
    "same cell": ({"E3": W1}, ANY_MOVE, (STRENGTHEN, "E3", "E3"), "From and To are the same cell"),
    "From empty": ({"F4": K1}, ANY_MOVE, (ATTACK, "E3", "F4"), "From is empty (E3)"),
    # The contest engine let a bot attack with the opponent's stack.
    "From not yours": (
        {"E3": K1, "F4": W1},
        ANY_MOVE,
        (ATTACK, "E3", "F4"),
        "From E3 is not yours",
    ),
    # The contest engine accepted an attack onto an empty cell.
    "attack onto an empty cell": (
        {"E2": W1},
        ANY_MOVE,
        (ATTACK, "E2", "E3"),
        "attack onto an empty cell at E3",
    ),
    "strengthen onto an empty cell": (
        {"E2": W1},
        ANY_MOVE,
        (STRENGTHEN, "E2", "E3"),
        "strengthen onto an empty cell at E3",
    ),
    "attack onto your own stack": (
        {"E2": W1, "E3": W1},
        ANY_MOVE,
        (ATTACK, "E2", "E3"),
        "attack onto your own stack at E3",
    ),
    "strengthen onto an opponent stack": (
        {"E3": W1, "F4": K1},
        ANY_MOVE,
        (STRENGTHEN, "E3", "F4"),
        "strengthen onto an opponent stack at F4",
    ),
    "not on one line": (
        {"E3": W1, "F7": K1},
        ANY_MOVE,
        (ATTACK, "E3", "F7"),
        "To and From are not on one line (E3 -> F7)",
    ),
    "the NE-SW diagonal is no line of the hexagon": (
        {"E3": W1, "F2": K1},
        ANY_MOVE,
        (ATTACK, "E3", "F2"),
        "To and From are not on one line (E3 -> F2)",
    ),
    # The contest engine crashed the match on this one.
    "path crosses the centre": (
        {"E3": W1, "E7": K1},
        ANY_MOVE,
        (ATTACK, "E3", "E7"),
        "path from E3 to E7 crosses the centre",
    ),
    "diagonal path crosses the centre": (
        {"C3": W1, "G7": W1},
        ANY_MOVE,
        (STRENGTHEN, "C3", "G7"),
        "path from C3 to G7 crosses the centre",
    ),
    "path blocked": (
        {"A2": W1, "A3": K1, "A5": K1},
        ANY_MOVE,
        (ATTACK, "A2", "A5"),
        "path from A2 to A5 is blocked at A3",
    ),
    "strengthen path blocked": (
        {"E2": W1, "F3": K1, "G4": W1},
        ANY_MOVE,
        (STRENGTHEN, "E2", "G4"),
        "path from E2 to G4 is blocked at F3",
    ),
    "attack onto a taller stack": (
        {"E4": W1, "F4": K2},
        ANY_MOVE,
        (ATTACK, "E4", "F4"),
        "attack from a height-1 stack onto a height-2 stack at F4",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_illegal_move_is_rejected_with_its_reason(case):
    stacks, allowed, (kind, frm, to), reason = CASES[case]
    position = build(stacks, allowed=allowed)
    frm = xy(frm) if isinstance(frm, str) else frm
    to = xy(to) if isinstance(to, str) else to
    assert position.judge(kind, frm, to) == reason
    with pytest.raises(ValueError, match="^" + re.escape(reason)):
        position.play(kind, frm, to)


def test_judge_never_raises_on_garbage():
    position = Position.initial()
    for frm in (None, (), (1,), (1, 2, 3), "E3", (1.0, 2), (True, 0), (10**30, 0), [1, 2]):
        assert isinstance(position.judge(ATTACK, frm, (4, 3)), str)
    for kind in (-1, 3, "1", None, 1.5, True, [1], {}):
        assert isinstance(position.judge(kind, (3, 3), (4, 3)), str)  # type: ignore[arg-type]


def test_no_move_once_the_game_is_over():
    position = build(
        {
            "A1": W1,
            "B1": encode(WHITE, B, 1),
            "C1": encode(WHITE, C, 1),
            "E3": W1,
            "E4": encode(BLACK, C, 1),
            "I9": K1,
            "H9": encode(BLACK, B, 1),
        },
        allowed=ATTACK_ONLY,
        filler=False,
    )
    position.play(ATTACK, xy("E3"), xy("E4"))
    assert position.judge(PASS, None, None) == "the game is over"
    assert position.legal_moves() == []


# -- the end of the game --------------------------------------------------------------


def test_capturing_the_last_tzaar_wins():
    stacks = {**FILLER, "E3": W1, "E4": encode(BLACK, C, 1)}
    del stacks["G9"]  # black's only Tzaar is now E4
    position = build(stacks, allowed=ATTACK_ONLY, filler=False)
    assert position.winner() == 0
    position.play(ATTACK, xy("E3"), xy("E4"))
    assert position.winner() == WHITE
    assert position.reason() == "black has no Tzaar left"


def test_capturing_one_of_two_tzaars_does_not_end_the_game():
    position = build({"E3": W1, "E4": encode(BLACK, C, 1)}, allowed=ATTACK_ONLY)
    position.play(ATTACK, xy("E3"), xy("E4"))
    assert position.winner() == 0 and position.count(BLACK, C) == 1


def test_stacking_onto_your_last_tott_loses():
    # A1 is white's only Tott; B1 (a Tzarra) sits next to it.
    position = build({})
    assert position.judge(STRENGTHEN, xy("B1"), xy("A1")) is None
    position.play(STRENGTHEN, xy("B1"), xy("A1"))
    assert position.winner() == BLACK
    assert position.reason() == "white stacked onto its last Tott and has no Tott left"


def test_moving_your_last_tott_onto_another_stack_keeps_it():
    # E2 is a second Tzarra, so burying B1 loses nothing; black's F2 can attack it.
    position = build({"E2": encode(WHITE, B, 1), "F2": K1})
    position.play(STRENGTHEN, xy("A1"), xy("B1"))
    assert position.winner() == 0
    assert position.count(WHITE, A) == 1 and position.count(WHITE, B) == 1


def test_no_attack_at_the_start_of_a_turn_loses():
    # The corners' stacks share no line (A1-I9 crosses the centre): after white's pass,
    # black has nothing to capture.
    position = build({})
    assert position.winner() == 0  # white's second request: passing is always possible
    position.play(PASS, None, None)
    assert position.legal_moves() == []
    assert position.winner() == WHITE
    assert position.reason() == "black cannot attack at the start of its turn"
    assert position.judge(ATTACK, xy("I9"), xy("H9")) == "the game is over"


def test_no_attack_at_the_second_request_is_no_loss():
    position = build({}, player=BLACK)
    moves = position.legal_moves()
    assert position.winner() == 0 and PASS_MOVE in moves
    assert all(kind != ATTACK for kind, _, _ in moves)


def test_a_position_missing_a_type_is_already_decided():
    stacks = dict(FILLER)
    del stacks["C1"]
    position = build(stacks, filler=False)
    assert position.winner() == BLACK and position.reason() == "white has no Tzaar on the board"
    stacks = {k: v for k, v in FILLER.items() if k not in ("C1", "G9")}
    with pytest.raises(ValueError, match="both sides"):
        build(stacks, filler=False)


def test_random_games_end_with_a_winner_after_captures():
    for seed in range(40):
        rng = random.Random(seed)
        position = Position.initial("random" if seed % 2 else "fixed", random.Random(seed))
        plies = 0
        while moves := position.legal_moves():
            position.apply(rng.choice(moves))
            plies += 1
        assert position.winner() in (WHITE, BLACK)
        assert position.reason()
        assert plies < 2 * TOTAL_PIECES  # every turn starts with a capture
        pieces = sum(height(v) for row in position.matrix() for v in row)
        assert pieces < TOTAL_PIECES
