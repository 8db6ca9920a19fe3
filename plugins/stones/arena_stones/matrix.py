"""The protocol's board matrix of a game, kept move by move beside its position.

The referee sends the 9x9 ``state[Y][X]`` at every request and a bot checks its followed
position against it; built from the cells each time (:meth:`Position.matrix
<arena_stones.rules.Position.matrix>`) that is 81 values a request on each side, while a move
changes two cells. :class:`Matrix` holds the rows and writes those two cells after each move,
so that a request's board is a copy of nine rows and a bot's check one comparison.
"""

from __future__ import annotations

from arena_stones.board import CELLS
from arena_stones.rules import Move, Position

_ROW_COLUMN: tuple[tuple[int, int], ...] = tuple((y, x) for x, y in CELLS)
"""Cell index -> (row, column) of the matrix."""


class Matrix:
    """``rows`` is :meth:`Position.matrix` of the position it was made from, as long as
    :meth:`played` is told each move applied to that position."""

    __slots__ = ("rows",)

    def __init__(self, position: Position) -> None:
        self.rows = position.matrix()

    def played(self, position: Position, move: Move) -> None:
        """Take in ``move``, just applied to ``position``: its two cells as they are now."""
        kind, frm, to = move
        if kind:
            cells, rows = position.cells, self.rows
            y, x = _ROW_COLUMN[frm]
            rows[y][x] = cells[frm]
            y, x = _ROW_COLUMN[to]
            rows[y][x] = cells[to]

    def copy(self) -> list[list[int]]:
        """The rows as a matrix of their own, to send: the next move changes these."""
        return [row[:] for row in self.rows]
