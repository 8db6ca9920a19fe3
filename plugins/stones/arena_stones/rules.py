"""The rules of TZAAR as the referee enforces them, and the fast move loop bots search with.

Two faces over one state. The referee's face speaks (x, y) coordinates: :meth:`Position.judge`
explains, by cell labels, why a reply is illegal (every bug of the contest engine included),
and :meth:`Position.play` applies an accepted one. The bots' face speaks cell indexes
(see :mod:`arena_stones.board`): :meth:`Position.legal_moves`, :meth:`Position.apply` and
:meth:`Position.undo` work on plain ``(type, from, to)`` tuples and flat lists, because a
search calls them millions of times and Python charges for every object and attribute.

A cell holds the protocol's own encoding, ``owner * (height * 4 + type)``: one int per cell
makes the matrix a copy, an undo two stores, and the Zobrist key a table lookup.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from operator import itemgetter

from arena_stones.board import CELLS, CENTRE, INDEX, LABELS, NCELLS, RAYS, SIZE, label

WHITE = 1
BLACK = -1
PASS = 0
ATTACK = 1
STRENGTHEN = 2
A = 1
B = 2
C = 3

TYPES = (A, B, C)
TYPE_NAMES = {A: "Tott", B: "Tzarra", C: "Tzaar"}
PIECES = {A: 15, B: 9, C: 6}
"""Pieces of each type per side: 30 per side, 60 in all, and captures are the only way out."""
SIDE_PIECES = sum(PIECES.values())
TOTAL_PIECES = 2 * SIDE_PIECES
COLOR_NAMES = {WHITE: "white", BLACK: "black"}
MOVE_NAMES = {PASS: "pass", ATTACK: "attack", STRENGTHEN: "strengthen"}

ATTACK_ONLY: tuple[int, ...] = (ATTACK,)
ANY_MOVE: tuple[int, ...] = (PASS, ATTACK, STRENGTHEN)

Move = tuple[int, int, int]
"""``(move type, from cell, to cell)`` with cell indexes; a pass is :data:`PASS_MOVE`."""
PASS_MOVE: Move = (PASS, -1, -1)

Undo = tuple
"""What :meth:`Position.apply` returns and :meth:`Position.undo` takes back; opaque."""

FIXED_START: tuple[tuple[int, ...], ...] = (
    (5, 5, 5, 5, -5, 0, 0, 0, 0),
    (-5, 6, 6, 6, -6, -5, 0, 0, 0),
    (-5, -6, 7, 7, -7, -6, -5, 0, 0),
    (-5, -6, -7, 5, -5, -7, -6, -5, 0),
    (-5, -6, -7, -5, 0, 5, 7, 6, 5),
    (0, 5, 6, 7, 5, -5, 7, 6, 5),
    (0, 0, 5, 6, 7, -7, -7, 6, 5),
    (0, 0, 0, 5, 6, -6, -6, -6, 5),
    (0, 0, 0, 0, 5, -5, -5, -5, -5),
)
"""The rulebook's start position as ``state[Y][X]``, the one the contest always used."""

_KEYS = random.Random(0x7A4A2)
ZOBRIST: tuple[int, ...] = tuple(
    0 if v == 0 else _KEYS.getrandbits(64) for _ in range(NCELLS) for v in range(256)
)
"""Key of value ``v`` on cell ``i`` at ``i * 256 + (v & 255)``: a stack holds at most one
side's 30 pieces, so ``|v| <= 123`` and the low byte is unique. Empty cells add nothing."""
TURN_KEYS: tuple[int, ...] = tuple(_KEYS.getrandbits(64) for _ in range(4))
"""Key of (player, request phase) at ``(player > 0) * 2 + phase``."""
del _KEYS


def to_xy(index: int) -> tuple[int, int]:
    """The (x, y) of a cell index."""
    return CELLS[index]


def from_xy(xy: tuple[int, int]) -> int:
    """The cell index of an on-board (x, y); KeyError for the centre or off the board."""
    return INDEX[xy]


def move_to_xy(move: Move) -> tuple[int, tuple[int, int] | None, tuple[int, int] | None]:
    """A generated move in the referee's terms, ready for the wire."""
    kind, frm, to = move
    if kind == PASS:
        return PASS, None, None
    return kind, CELLS[frm], CELLS[to]


def move_from_xy(move_type: int, frm: tuple[int, int] | None, to: tuple[int, int] | None) -> Move:
    """A move :meth:`Position.judge` accepted, in the bots' terms (the inverse of
    :func:`move_to_xy`); KeyError for a location that is not a cell."""
    if move_type == PASS:
        return PASS_MOVE
    assert frm is not None and to is not None
    return move_type, INDEX[frm], INDEX[to]


def describe(move: Move) -> str:
    """A move for logs and records: "pass", "attack E3xF4", "strengthen E3+F4"."""
    kind, frm, to = move
    if kind == PASS:
        return "pass"
    sign = "x" if kind == ATTACK else "+"
    return f"{MOVE_NAMES[kind]} {LABELS[frm]}{sign}{LABELS[to]}"


def height(value: int) -> int:
    """Height of an encoded stack (0 for an empty cell)."""
    return (value if value > 0 else -value) >> 2


def stone(value: int) -> int:
    """Type of an encoded stack's top piece (0 for an empty cell)."""
    return (value if value > 0 else -value) & 3


def owner(value: int) -> int:
    """WHITE, BLACK, or 0 for an empty cell."""
    return (value > 0) - (value < 0)


def encode(who: int, stone_type: int, stack_height: int) -> int:
    return who * (stack_height * 4 + stone_type)


_MATRIX_ROWS = tuple(
    itemgetter(*(INDEX.get((x, y), NCELLS) for x in range(SIZE))) for y in range(SIZE)
)
"""Per row of the protocol's matrix, what picks its nine values out of the cells followed
by a 0 (index ``NCELLS``, read by the centre and the off-board corners): the referee builds
a matrix at every request and a bot compares one, so it is done in C rather than cell by
cell."""


_STACKS = frozenset(
    encode(who, kind, h)
    for who in (WHITE, BLACK)
    for kind in TYPES
    for h in range(1, SIDE_PIECES + 1)
)
"""Every value a cell may hold but 0: a stack of one side, 1 to 30 pieces high."""


_CELL_VALUES = _STACKS | {0}

_HOLES = tuple((x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in INDEX)
"""The places of the matrix that are no cell (the centre, the corners): 0 in every board."""

_PATHS: dict[int, tuple[int, ...]] = {
    f * NCELLS + t: ray[:k]
    for f, rays in enumerate(RAYS)
    for ray in rays
    for k, t in enumerate(ray)
}
"""``from * NCELLS + to`` -> the cells between, for every pair of cells a stack can move
between along a line without crossing the centre."""


def _check_matrix(matrix: Sequence[Sequence[int]]) -> None:
    """Raise ValueError for the first place of a 9x9 ``matrix``, in reading order, that
    holds what no board does (:meth:`Position.from_matrix` looks at the usual board at
    once, and here only when that finds something wrong, for the reason)."""
    for y, row in enumerate(matrix):
        for x, v in enumerate(row):
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(f"cell {x},{y} is not an integer: {v!r}")
            if v and (v not in _STACKS or (x, y) not in INDEX):
                if (x, y) not in INDEX:
                    raise ValueError(f"cell {x},{y} is not on the board but holds {v}")
                raise ValueError(f"cell {label(x, y)} holds {v}, which is no stack")


def _slot(value: int) -> int:
    """Index into ``Position.counts``: white's types at 1..3, black's at 5..7."""
    return value & 3 if value > 0 else ((-value) & 3) + 4


class Position:
    """A game in progress: the board, whose request it is, and the result once decided.

    ``phase`` is 0 at a turn's attack-only request and 1 at its second request;
    ``single`` marks White's opening turn, the only one with a single request.
    ``counts[_slot(v)]`` counts each side's stacks by top type, so that losing a type
    is an O(1) test after every move; ``decided`` is the winner by that test (0 while
    both sides have every type), which :meth:`winner` completes with the scan for a
    capture at the start of a turn.
    """

    __slots__ = ("_end", "cells", "counts", "decided", "hash", "phase", "player", "single")

    def __init__(self, cells: Sequence[int], player: int, phase: int, single: bool) -> None:
        """A position from its encoded cells by index (see :mod:`arena_stones.board`);
        :meth:`initial` and :meth:`from_matrix` are the usual ways in."""
        if len(cells) != NCELLS:
            raise ValueError(f"a position has {NCELLS} cells, not {len(cells)}")
        if player not in (WHITE, BLACK):
            raise ValueError(f"player must be {WHITE} or {BLACK}, not {player!r}")
        if phase not in (0, 1) or (single and phase):
            raise ValueError(f"no request has phase {phase!r} (single={single!r})")
        self.cells = list(cells)
        self.player = player
        self.phase = phase
        self.single = single
        self.counts = [0] * 8
        key = TURN_KEYS[(player > 0) * 2 + phase]
        for i, v in enumerate(self.cells):
            if v:
                self.counts[_slot(v)] += 1
                key ^= ZOBRIST[i * 256 + (v & 255)]
        self.hash = key
        self.decided = 0
        self._end: tuple[str, int] | None = None
        losers = [who for who in (WHITE, BLACK) if self._missing(who)]
        if len(losers) == 2:
            raise ValueError("both sides lack a stone type: not a position of a game")
        if losers:
            self.decided = -losers[0]
            self._end = ("none", self._missing(losers[0]))

    # -- construction -----------------------------------------------------------------

    @classmethod
    def initial(cls, setup: str = "fixed", rng: random.Random | None = None) -> Position:
        """White's opening request, on the rulebook's board or a random placement.

        ``"random"`` shuffles the 60 pieces over the 60 cells with ``rng`` (seed it for a
        reproducible game; without one a fresh generator is used).
        """
        if setup == "fixed":
            cells = [FIXED_START[y][x] for x, y in CELLS]
        elif setup == "random":
            pieces = [
                who * (4 + kind)
                for who in (WHITE, BLACK)
                for kind in TYPES
                for _ in range(PIECES[kind])
            ]
            (rng or random.Random()).shuffle(pieces)
            cells = pieces
        else:
            raise ValueError(f"setup must be 'fixed' or 'random', not {setup!r}")
        return cls(cells, WHITE, 0, True)

    @classmethod
    def from_matrix(
        cls,
        matrix: Sequence[Sequence[int]],
        player: int,
        allowed: Iterable[int],
        single: bool | None = None,
    ) -> Position:
        """The position a move request describes, for a bot that reads the board (one that
        joins a game under way, or could not follow it from the move echoes).

        ``allowed`` tells the request phase. Whether this is White's single-request opening
        turn follows from the board when ``single`` is not given: every turn but that one
        starts with a capture, so all 60 pieces are on the board exactly before it.
        Raises ValueError for a matrix that is not a board of this game.
        """
        if len(matrix) != SIZE or any(len(row) != SIZE for row in matrix):
            raise ValueError(f"the board must be a {SIZE}x{SIZE} matrix")
        cells = [matrix[y][x] for x, y in CELLS]
        if not (
            all(type(v) is int for v in cells)
            and _CELL_VALUES.issuperset(cells)
            and not any(type(v) is not int or v for v in (matrix[y][x] for x, y in _HOLES))
        ):
            _check_matrix(matrix)
        kinds = set(allowed)
        if kinds == {ATTACK}:
            phase = 0
        elif kinds == set(ANY_MOVE):
            phase = 1
        else:
            raise ValueError(f"AllowedMoves must be [1] or [0, 1, 2], not {sorted(kinds)}")
        if single is None:
            single = player == WHITE and phase == 0 and sum(map(height, cells)) == TOTAL_PIECES
        return cls(cells, player, phase, single)

    def copy(self) -> Position:
        """An independent position a search can apply and undo on."""
        other = Position.__new__(Position)
        other.cells = self.cells[:]
        other.counts = self.counts[:]
        other.player = self.player
        other.phase = self.phase
        other.single = self.single
        other.hash = self.hash
        other.decided = self.decided
        other._end = self._end
        return other

    # -- queries ----------------------------------------------------------------------

    def allowed(self) -> tuple[int, ...]:
        """The move types of the current request, as the protocol's AllowedMoves."""
        return ATTACK_ONLY if self.phase == 0 else ANY_MOVE

    def matrix(self) -> list[list[int]]:
        """The board as the protocol's ``state[Y][X]``; the centre and off-board cells are 0."""
        padded = [*self.cells, 0]
        return [list(row(padded)) for row in _MATRIX_ROWS]

    def count(self, who: int, kind: int) -> int:
        """How many of ``who``'s stacks have a ``kind`` piece on top."""
        return self.counts[kind if who > 0 else kind + 4]

    def winner(self) -> int:
        """WHITE or BLACK once the game is decided, 0 while it runs.

        A side that lost a type lost at that move. A side to move at an attack-only request
        with nothing to attack loses there and then; that test scans the board, so hot
        loops should rather see an empty :meth:`legal_moves`.
        """
        if self.decided:
            return self.decided
        if self.phase == 0 and not self.can_attack():
            return -self.player
        return 0

    def reason(self) -> str:
        """Why the game ended, in a sentence for the record; "" while it runs."""
        if self._end is not None:
            how, kind = self._end
            loser = COLOR_NAMES[-self.decided]
            name = TYPE_NAMES[kind]
            if how == "captured":
                return f"{loser} has no {name} left"
            if how == "stacked":
                return f"{loser} stacked onto its last {name} and has no {name} left"
            return f"{loser} has no {name} on the board"
        if self.winner():
            return f"{COLOR_NAMES[self.player]} cannot attack at the start of its turn"
        return ""

    def _missing(self, who: int) -> int:
        """The first type ``who`` has no stack of, or 0."""
        base = 0 if who > 0 else 4
        for kind in TYPES:
            if not self.counts[base + kind]:
                return kind
        return 0

    def can_attack(self) -> bool:
        """Whether the side to move has at least one capture."""
        cells = self.cells
        me = self.player
        for f in range(NCELLS):
            v = cells[f]
            if v * me <= 0:
                continue
            h = (v if v > 0 else -v) >> 2
            for ray in RAYS[f]:
                for t in ray:
                    w = cells[t]
                    if w:
                        if w * me < 0 and ((w if w > 0 else -w) >> 2) <= h:
                            return True
                        break
        return False

    def legal_moves(self) -> list[Move]:
        """Every legal move of the current request, captures first, then the pass, then
        the strengthens (the order a search wants to try them in); empty once the game
        is decided. At an attack-only request an empty list means the side to move lost.
        """
        if self.decided:
            return []
        cells = self.cells
        me = self.player
        attacks: list[Move] = []
        attack = attacks.append
        if self.phase == 0:
            for f in range(NCELLS):
                v = cells[f]
                if v * me <= 0:
                    continue
                h = (v if v > 0 else -v) >> 2
                for ray in RAYS[f]:
                    for t in ray:
                        w = cells[t]
                        if w:
                            if w * me < 0 and ((w if w > 0 else -w) >> 2) <= h:
                                attack((ATTACK, f, t))
                            break
            return attacks
        quiet: list[Move] = [PASS_MOVE]
        strengthen = quiet.append
        for f in range(NCELLS):
            v = cells[f]
            if v * me <= 0:
                continue
            h = (v if v > 0 else -v) >> 2
            for ray in RAYS[f]:
                for t in ray:
                    w = cells[t]
                    if w:
                        if w * me > 0:
                            strengthen((STRENGTHEN, f, t))
                        elif ((w if w > 0 else -w) >> 2) <= h:
                            attack((ATTACK, f, t))
                        break
        attacks += quiet
        return attacks

    # -- the fast move loop -----------------------------------------------------------

    def apply(self, move: Move) -> Undo:
        """Play a legal move (unchecked) and return what :meth:`undo` needs to take it back.

        Only the O(1) loss (a type gone) is decided here; see :meth:`winner`.
        """
        kind, f, t = move
        player = self.player
        phase = self.phase
        key = self.hash
        if kind:
            cells = self.cells
            vf = cells[f]
            vt = cells[t]
            token = (move, vf, vt, player, phase, self.single, key, self.decided, self._end)
            if kind == ATTACK:
                new = vf
            elif vt > 0:
                new = vf + (vt & ~3)
            else:
                new = vf - ((-vt) & ~3)
            cells[f] = 0
            cells[t] = new
            key ^= ZOBRIST[f * 256 + (vf & 255)] ^ ZOBRIST[t * 256 + (vt & 255)]
            key ^= ZOBRIST[t * 256 + (new & 255)]
            slot = vt & 3 if vt > 0 else ((-vt) & 3) + 4
            counts = self.counts
            counts[slot] -= 1
            if not counts[slot]:
                if kind == ATTACK:
                    self.decided = player
                    self._end = ("captured", slot & 3)
                else:
                    self.decided = -player
                    self._end = ("stacked", slot & 3)
        else:
            token = (move, 0, 0, player, phase, self.single, key, self.decided, self._end)
        key ^= TURN_KEYS[(player > 0) * 2 + phase]
        if phase == 0 and not self.single:
            self.phase = 1
            key ^= TURN_KEYS[(player > 0) * 2 + 1]
        else:
            self.player = -player
            self.phase = 0
            self.single = False
            key ^= TURN_KEYS[(player < 0) * 2]
        self.hash = key
        return token

    def undo(self, token: Undo) -> None:
        """Take back the move whose :meth:`apply` returned ``token`` (the latest one)."""
        (
            (kind, f, t),
            vf,
            vt,
            self.player,
            self.phase,
            self.single,
            self.hash,
            self.decided,
            self._end,
        ) = token
        if kind:
            cells = self.cells
            cells[f] = vf
            cells[t] = vt
            self.counts[vt & 3 if vt > 0 else ((-vt) & 3) + 4] += 1

    # -- the referee's face -----------------------------------------------------------

    def judge(
        self, move_type: int, frm: tuple[int, int] | None, to: tuple[int, int] | None
    ) -> str | None:
        """None if the move is legal at the current request, else why not, by cell labels.

        Never raises, whatever it is given: a bot's reply is untrusted input.
        """
        if self.decided:
            return "the game is over"
        if self._plainly_legal(move_type, frm, to):
            return None
        problem = self._fault(move_type, frm, to)
        # A side with no capture at an attack-only request has lost, which takes a scan of
        # the board to see; a move judged legal there is a capture, so only a move found
        # illegal needs the scan to tell which reason it gets.
        if problem is not None and self.phase == 0 and not self.can_attack():
            return "the game is over"
        return problem

    def _plainly_legal(self, move_type: object, frm: object, to: object) -> bool:
        """Whether the move is a legal capture or strengthen given as plain ints: nearly
        every move the referee and a bot judge, in a few lookups. False for anything else,
        legal or not: :meth:`_fault` judges it then, and says why."""
        if type(move_type) is not int or type(frm) is not tuple or type(to) is not tuple:
            return False
        f, t = INDEX.get(frm), INDEX.get(to)
        if f is None or t is None:
            return False
        x, y = frm
        tx, ty = to
        if type(x) is not int or type(y) is not int or type(tx) is not int or type(ty) is not int:
            return False  # (4.0, 4) finds the cell (4, 4), as (True, 1) finds (1, 1)
        between = _PATHS.get(f * NCELLS + t)
        if between is None:
            return False
        cells, me = self.cells, self.player
        vf, vt = cells[f], cells[t]
        if vf * me <= 0 or not vt:
            return False
        if move_type == ATTACK:
            if vt * me > 0 or height(vf) < height(vt):
                return False
        elif move_type != STRENGTHEN or self.phase == 0 or vt * me < 0:
            return False
        for i in between:  # noqa: SIM110 (a loop over these few cells is twice all()'s speed)
            if cells[i]:
                return False
        return True

    def _fault(
        self, move_type: int, frm: tuple[int, int] | None, to: tuple[int, int] | None
    ) -> str | None:
        """What :meth:`judge` says of a move in a game that is not over."""
        if (
            isinstance(move_type, bool)
            or not isinstance(move_type, int)
            or move_type not in MOVE_NAMES
        ):
            return f"Type {move_type!r} is not a move type (0 pass, 1 attack, 2 strengthen)"
        if move_type not in self.allowed():
            return f"Type not in AllowedMoves: {MOVE_NAMES[move_type]} at an attack-only request"
        if move_type == PASS:
            if frm is not None or to is not None:
                return "Pass needs From and To to be null"
            return None
        problem = _where(frm, "From") or _where(to, "To")
        if problem:
            return problem
        assert frm is not None and to is not None
        if frm == to:
            return "From and To are the same cell"
        cells = self.cells
        me = self.player
        vf = cells[INDEX[frm]]
        vt = cells[INDEX[to]]
        # The cells are named only in a reason: the referee judges every move and a bot
        # every echo of its opponent's, and a legal move, the usual case, needs no text.
        if not vf:
            return f"From is empty ({label(*frm)})"
        if vf * me < 0:
            return f"From {label(*frm)} is not yours"
        if not vt:
            return f"{MOVE_NAMES[move_type]} onto an empty cell at {label(*to)}"
        if move_type == ATTACK and vt * me > 0:
            return f"attack onto your own stack at {label(*to)}"
        if move_type == STRENGTHEN and vt * me < 0:
            return f"strengthen onto an opponent stack at {label(*to)}"
        dx, dy = to[0] - frm[0], to[1] - frm[1]
        if not (dx == 0 or dy == 0 or dx == dy):
            return f"To and From are not on one line ({label(*frm)} -> {label(*to)})"
        step = max(abs(dx), abs(dy))
        sx, sy = dx // step, dy // step
        for k in range(1, step):
            between = (frm[0] + k * sx, frm[1] + k * sy)
            if between == CENTRE:
                return f"path from {label(*frm)} to {label(*to)} crosses the centre"
            if cells[INDEX[between]]:
                return f"path from {label(*frm)} to {label(*to)} is blocked at {label(*between)}"
        if move_type == ATTACK and height(vf) < height(vt):
            return (
                f"attack from a height-{height(vf)} stack onto a height-{height(vt)} stack"
                f" at {label(*to)}"
            )
        return None

    def play(self, move_type: int, frm: tuple[int, int] | None, to: tuple[int, int] | None) -> None:
        """Apply a move :meth:`judge` accepted; ValueError (with its reason) for any other."""
        problem = self.judge(move_type, frm, to)
        if problem is not None:
            raise ValueError(problem)
        self.apply(move_from_xy(move_type, frm, to))


def _where(xy: object, what: str) -> str | None:
    """Why ``xy`` is not a cell a stack can move from or to, or None."""
    if xy is None:
        return f"{what} is null"
    if not isinstance(xy, tuple) or len(xy) != 2:
        return f"{what} is not a location: {xy!r}"
    x, y = xy
    if (
        not isinstance(x, int)
        or not isinstance(y, int)
        or isinstance(x, bool)
        or isinstance(y, bool)
    ):
        return f"{what} is not a location: {xy!r}"
    if xy == CENTRE:
        return f"{what} is the centre"
    if xy not in INDEX:
        return f"{what} is off the board {xy}"
    return None
