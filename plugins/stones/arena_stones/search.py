"""How the searcher values a position and finds its move: iterative-deepening alpha-beta.

The search counts requests, not turns: a turn is two requests by the same side, so a
child's value is negated only when the side to move changes. The evaluation weighs each
side's stacks by type with a steep premium on the last few of a type (losing one type
loses the game), the captures each side is about to make (the side to move makes one or
two now, the opponent two on its next turn), how many captures each side has (none at the
start of a turn loses), and stack heights (a tall stack can only be taken by one at least
as tall). :data:`STACK_VALUE` is also the greedy player's material scale.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import accumulate

from arena_stones.board import FORWARD_RAYS, NCELLS
from arena_stones.rules import ATTACK, PASS, WHITE, Move, Position

SCARCITY = 600
"""How much more a type's last stacks are worth than its others: the ``n``-th stack of a
type adds ``20 + SCARCITY // (n * (n - 1))``, so 320 for the second, 40 for the sixth and
22 for the fifteenth. Losing any one type loses the game, so a side's third-last Tzaar is
worth far more than its tenth Tott."""
STACK_VALUE: tuple[int, ...] = tuple(
    accumulate((0, 0, *(20 + SCARCITY // (n * (n - 1)) for n in range(2, 31))))
)
"""Worth of having ``n`` stacks of one type (a side has at most 30 stacks); ``n = 0`` has
no worth of its own, the game is lost."""

WIN = 1_000_000
"""A decided game; a win found ``ply`` requests ahead scores ``WIN - ply``, so the
search prefers the quickest win and the slowest loss."""
DECIDED = WIN - 1000

EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 300_000
"""Transposition and evaluation entries kept from move to move before the tables are
cleared (about 100 MB): a second's search adds some 30,000."""
CHECK_EVERY = 15
"""The clock is read when ``nodes & CHECK_EVERY == 0``: every 16 nodes, about 1 ms."""

LOSS: tuple[int, ...] = (0, WIN // 2, *(STACK_VALUE[n] - STACK_VALUE[n - 1] for n in range(2, 31)))
"""What losing one stack costs a side that has ``n`` stacks of that type; losing the last
one loses the game, valued short of a proven win so that a real win still outranks it."""
HEIGHT: tuple[int, ...] = (0, 0, 20, 32, 40, 44, *([46] * 26))
"""Bonus for a stack of each height: a taller stack can only be captured by taller ones,
with diminishing returns (a stack is still one stack)."""
MOBILITY: tuple[int, ...] = (-400, -120, -50, -20, *(min(4 * (n - 4), 80) for n in range(4, 361)))
"""Worth of having ``n`` captures on the board: none at the start of a turn loses."""
OWN_GAIN = 9
"""Tenths of the captures the side to move has on the board that count now (two at a
turn's first request, one at its second): it is about to make them, unless a capture
exposes something worse."""
THEIR_GAIN = 5
"""Tenths of the opponent's two best captures that count against the side to move: it
has a move or two to defend, but cannot defend everything."""
SAFE_TYPE: tuple[int, ...] = (0, 800, *LOSS[2:])
"""The compiled search's bonus for a type of ``n`` stacks whose tallest stack is taller
than every enemy stack: none of them can be captured before the enemy builds one as tall,
which takes it a strengthen or more (as much as the type's next loss would cost, and the
most for a type's last stack)."""
TALLEST = 100
"""The compiled search's bonus for the tallest stack on the board: it can capture any stack
it reaches, and only one as tall can capture it."""


def material(position: Position, who: int) -> int:
    """``who``'s stacks by type, valued for scarcity, minus the opponent's."""
    counts = position.counts
    value = STACK_VALUE
    white = value[counts[1]] + value[counts[2]] + value[counts[3]]
    black = value[counts[5]] + value[counts[6]] + value[counts[7]]
    return (white - black) * who


class Timeout(Exception):
    """The clock ran out inside the search; the iteration in progress is abandoned."""


def survey(cells: list[int]) -> tuple[int, int, int, list[int], list[int]]:
    """One pass over the board: white's height bonus minus black's, each side's number of
    captures, and each side's stacks under attack by type (``threatened[type]``)."""
    bonus = HEIGHT
    forward = FORWARD_RAYS
    heights = attacks_w = attacks_b = 0
    hit = [False] * NCELLS
    threat_w = [0, 0, 0, 0]
    threat_b = [0, 0, 0, 0]
    # Two stacks that see each other along a line are found once, walking the three
    # forward directions from the first; the pair is judged both ways.
    for f in range(NCELLS):
        v = cells[f]
        if not v:
            continue
        if v > 0:
            h = v >> 2
            heights += bonus[h]
            for ray in forward[f]:
                for t in ray:
                    w = cells[t]
                    if w:
                        if w < 0:
                            g = (-w) >> 2
                            if h >= g:
                                attacks_w += 1
                                if not hit[t]:
                                    hit[t] = True
                                    threat_b[(-w) & 3] += 1
                            if g >= h:
                                attacks_b += 1
                                if not hit[f]:
                                    hit[f] = True
                                    threat_w[v & 3] += 1
                        break
        else:
            h = (-v) >> 2
            heights -= bonus[h]
            for ray in forward[f]:
                for t in ray:
                    w = cells[t]
                    if w:
                        if w > 0:
                            g = w >> 2
                            if h >= g:
                                attacks_b += 1
                                if not hit[t]:
                                    hit[t] = True
                                    threat_w[w & 3] += 1
                            if g >= h:
                                attacks_w += 1
                                if not hit[f]:
                                    hit[f] = True
                                    threat_b[(-v) & 3] += 1
                        break
    return heights, attacks_w, attacks_b, threat_w, threat_b


def best_gain(counts: list[int], base: int, threatened: list[int], captures: int) -> int:
    """What the best ``captures`` (1 or 2) captures among the ``threatened`` stacks cost
    their owner, whose stack counts by type are at ``counts[base + type]``. A second
    capture of the same type costs more than the first: the type gets scarcer."""
    loss = LOSS
    best = 0
    for kind in (1, 2, 3):
        if not threatened[kind]:
            continue
        one = loss[counts[base + kind]]
        if one > best:
            best = one
        if captures == 2:
            if threatened[kind] >= 2:
                two = one + loss[counts[base + kind] - 1]
                if two > best:
                    best = two
            for other in range(kind + 1, 4):
                if threatened[other]:
                    two = one + loss[counts[base + other]]
                    if two > best:
                        best = two
    return best


def evaluate(position: Position) -> int:
    """The position's worth to the side to move, in :data:`STACK_VALUE` units; ``-WIN``
    when it is lost there and then (no capture at the start of a turn)."""
    counts = position.counts
    heights, attacks_w, attacks_b, threat_w, threat_b = survey(position.cells)
    score = material(position, WHITE) + heights + MOBILITY[attacks_w] - MOBILITY[attacks_b]
    mine = 2 if position.phase == 0 else 1
    if position.player > 0:
        if not attacks_w and position.phase == 0:
            return -WIN
        own = best_gain(counts, 4, threat_b, mine)
        theirs = best_gain(counts, 0, threat_w, 2)
        return score + (OWN_GAIN * own - THEIR_GAIN * theirs) // 10
    if not attacks_b and position.phase == 0:
        return -WIN
    own = best_gain(counts, 0, threat_w, mine)
    theirs = best_gain(counts, 4, threat_b, 2)
    return -score + (OWN_GAIN * own - THEIR_GAIN * theirs) // 10


def safety(cells: list[int], counts: list[int]) -> int:
    """White's :data:`SAFE_TYPE` and :data:`TALLEST` bonuses minus Black's."""
    tall = [0] * 8
    for v in cells:
        if v:
            slot = v & 3 if v > 0 else 4 + ((-v) & 3)
            tall[slot] = max(tall[slot], abs(v) >> 2)
    top_w, top_b = max(tall[1:4]), max(tall[5:8])
    score = 0
    for kind in (1, 2, 3):
        if tall[kind] > top_b:
            score += SAFE_TYPE[counts[kind]]
        if tall[kind + 4] > top_w:
            score -= SAFE_TYPE[counts[kind + 4]]
    return score + (TALLEST if top_w > top_b else -TALLEST if top_b > top_w else 0)


def compiled_evaluate(position: Position) -> int:
    """The compiled search's evaluation (``_engine.c``), its reference: :func:`evaluate`
    plus :func:`safety` for the side to move. The compiled search is deep enough for the
    safety terms to pay; the Python one keeps :func:`evaluate`."""
    value = evaluate(position)
    if value == -WIN:
        return value
    bonus = safety(position.cells, position.counts)
    return value + (bonus if position.player > 0 else -bonus)


class Searcher:
    """Alpha-beta over one position at a time, kept from move to move so that the
    transposition table, the evaluations and the history of good quiet moves carry over.

    ``clock`` is what its budget is measured on: the wall clock by default, or e.g.
    :func:`time.thread_time` to give it the same CPU time as another searcher on a machine
    whose load would otherwise decide which of them thinks more."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.table: dict[int, tuple[int, int, int, Move | None]] = {}
        self.evaluations: dict[int, int] = {}
        self.history: dict[Move, int] = {}
        self.position = Position.initial()
        self.deadline = 0.0
        self.nodes = 0
        self.depth = 0
        """Depth (in requests) of the last iteration started."""
        self.value = 0
        """Value of the last completed iteration, for the side to move."""
        self.improved: Move | None = None

    def best_move(self, position: Position, seconds: float, max_depth: int = 64) -> Move:
        """The best move found within ``seconds`` (and ``max_depth`` requests): that of the
        deepest completed iteration, or of the one in progress if it already proved a
        better one."""
        self.deadline = self.clock() + seconds
        self.position = position.copy()
        self.nodes = 0
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        if len(self.evaluations) > TABLE_LIMIT:
            self.evaluations.clear()
        # Old cut-offs say less about a new position: age them.
        self.history = {m: h // 4 for m, h in self.history.items() if h >= 4}
        moves = self._ordered(self.position.legal_moves(), None)
        if not moves:
            raise ValueError("no legal move: the game is over")
        best = moves[0]
        if len(moves) == 1:
            return best
        self.depth = 0
        try:
            while self.depth < max_depth:
                self.depth += 1
                best, moves = self._root(moves, self.depth)
                if abs(self.value) >= DECIDED:
                    break
        except Timeout:
            # The budget is per move, so the time left is spent on an iteration that may
            # not finish: a move it proved better than the last best one is still good.
            best = self.improved or best
        return best

    def _root(self, moves: list[Move], depth: int) -> tuple[Move, list[Move]]:
        """One iteration over the root moves, the previous best first; returns the best
        move and the moves reordered for the next iteration."""
        position = self.position
        me = position.player
        alpha = -WIN - 1
        scored: list[tuple[int, Move]] = []
        self.improved = None
        for move in moves:
            token = position.apply(move)
            same = position.player == me
            if self.improved is None:
                value = self._child(same, depth - 1, alpha, WIN + 1, 1)
            else:
                value = self._child(same, depth - 1, alpha, alpha + 1, 1)
                if value > alpha:
                    # Proven better than the best so far: worth playing even if the
                    # clock stops the exact search that follows.
                    self.improved = move
                    value = self._child(same, depth - 1, value, WIN + 1, 1)
            position.undo(token)
            scored.append((value, move))
            if value > alpha:
                alpha = value
                self.improved = move
        # Moves that failed low only have an upper bound, still a fair order for the next
        # iteration; the sort is stable, so ties keep the previous order.
        scored.sort(key=lambda item: -item[0])
        self.value = scored[0][0]
        return scored[0][1], [move for _, move in scored]

    def _search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and self.clock() > self.deadline:
            raise Timeout
        position = self.position
        winner = position.decided
        if winner:
            return WIN - ply if winner == position.player else ply - WIN
        key = position.hash
        if depth <= 0:
            value = self.evaluations.get(key)
            if value is None:
                value = self.evaluations[key] = evaluate(position)
            return ply - WIN if value == -WIN else value
        entry = self.table.get(key)
        first = None
        if entry is not None:
            stored_depth, value, flag, first = entry
            if stored_depth >= depth:
                if value >= DECIDED:
                    value -= ply
                elif value <= -DECIDED:
                    value += ply
                if (
                    flag == EXACT
                    or (flag == LOWER and value >= beta)
                    or (flag == UPPER and value <= alpha)
                ):
                    return value
        moves = position.legal_moves()
        if not moves:
            return ply - WIN
        me = position.player
        original = alpha
        best = -WIN - 1
        best_move = None
        if depth == 1:
            best, best_move = self._frontier(self._ordered(moves, first), alpha, beta, ply)
        else:
            for move in self._ordered(moves, first):
                token = position.apply(move)
                same = position.player == me
                # Principal variation search: after the first move, only prove that a
                # move is no better than alpha (a null window), and search it fully
                # when it is.
                if best_move is None:
                    value = self._child(same, depth - 1, alpha, beta, ply + 1)
                else:
                    value = self._child(same, depth - 1, alpha, alpha + 1, ply + 1)
                    if alpha < value < beta:
                        value = self._child(same, depth - 1, value, beta, ply + 1)
                position.undo(token)
                if value > best:
                    best = value
                    best_move = move
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            if move[0] != ATTACK:
                                self.history[move] = self.history.get(move, 0) + depth * depth
                            break
        if best >= beta:
            flag = LOWER
        elif best > original:
            flag = EXACT
        else:
            flag = UPPER
        # Decided values are stored relative to this node, so that they stay right when
        # the same position is reached at another distance from the root.
        stored = best + ply if best >= DECIDED else best - ply if best <= -DECIDED else best
        self.table[key] = (depth, stored, flag, best_move)
        return best

    def _child(self, same: bool, depth: int, alpha: int, beta: int, ply: int) -> int:
        """A child's value for the parent's side to move: negated when the turn changed."""
        if same:
            return self._search(depth, alpha, beta, ply)
        return -self._search(depth, -beta, -alpha, ply)

    def _frontier(
        self, moves: list[Move], alpha: int, beta: int, ply: int
    ) -> tuple[int, Move | None]:
        """The last request searched: each child is evaluated statically, inline, since
        most of the search's time is spent here."""
        position = self.position
        evaluations = self.evaluations
        me = position.player
        best = -WIN - 1
        best_move = None
        for move in moves:
            token = position.apply(move)
            winner = position.decided
            if winner:
                value = WIN - ply - 1 if winner == me else ply + 1 - WIN
            else:
                key = position.hash
                value = evaluations.get(key)
                if value is None:
                    value = evaluations[key] = evaluate(position)
                if value == -WIN:
                    value = ply + 1 - WIN
                if position.player != me:
                    value = -value
            position.undo(token)
            self.nodes += 1
            if not self.nodes & CHECK_EVERY and self.clock() > self.deadline:
                raise Timeout
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if move[0] != ATTACK:
                            self.history[move] = self.history.get(move, 0) + 1
                        break
        return best, best_move

    def _ordered(self, moves: list[Move], first: Move | None) -> list[Move]:
        """Captures of the opponent's scarcest types first, then the quiet moves by how
        often they caused cut-offs, then by what they stack (a scarce type on top gains,
        burying one loses); the transposition table's move ahead of all.

        Relies on :meth:`Position.legal_moves` listing the captures first.
        """
        position = self.position
        cells = position.cells
        counts = position.counts
        loss = LOSS
        n = 0
        for move in moves:
            if move[0] != ATTACK:
                break
            n += 1
        attacks = moves[:n]
        theirs = 4 if position.player > 0 else 0
        attacks.sort(key=lambda m: -loss[counts[theirs + (abs(cells[m[2]]) & 3)]])
        if n < len(moves):
            quiet = moves[n:]
            get = self.history.get
            mine = 4 - theirs

            def key(m: Move) -> int:
                if m[0] == PASS:
                    return -get(m, 0) * 1_000_000
                kept = loss[counts[mine + (abs(cells[m[1]]) & 3)]]
                buried = loss[counts[mine + (abs(cells[m[2]]) & 3)]]
                return buried - kept - get(m, 0) * 1_000_000

            quiet.sort(key=key)
            attacks += quiet
        if first is not None and first != attacks[0]:
            try:
                attacks.remove(first)
            except ValueError:  # a move stored by another position with the same key
                return attacks
            attacks.insert(0, first)
        return attacks
