"""The built-in bots' strategies: each decides a move on a position and knows nothing of
the wire (:class:`~arena_stones.bot.StonesBot` asks it at every request)."""

from __future__ import annotations

import functools
import random
import sys
import time
from abc import ABC, abstractmethod

from arena_kernel.plugin import BotClocks
from arena_stones.engine import COMPILED, MISSING
from arena_stones.rules import Move, Position
from arena_stones.search import WIN, Searcher, material

STARTUP_MARGIN = 0.3
"""Seconds the Python searcher keeps back on White's opening request, whose clock includes
starting Python."""

THINKING_SHARE = 0.6
"""The most of its reply limit the searcher spends thinking. The rest is the margin for what
its own clock cannot see: the time a request waits for the bot to be scheduled on a loaded
machine, reading it, writing the reply, and the referee reading that."""
CPU_THINKING_SHARE = 0.9
"""The share spent thinking on the CPU-time clock: there the wait for a core costs no CPU
time, so the margin is only for the CPU time its own clock cannot see (reading the request,
writing the reply)."""
RESERVE = 0.03
"""Seconds kept back from every reply besides, for the same reasons."""
LEAST_SHARE = 0.25
"""The least share of a small reply limit spent thinking, whatever :data:`RESERVE` says."""
LEAST_FIRST = 0.01
"""Seconds a first reply thinks when starting the program took about all its time: a
shallow search still, but no more (on a loaded machine a sandboxed Python program may take
seconds to start)."""
NEW_ITERATION_SHARE = 1.0
"""No new iteration is begun after this share of the thinking time. All of it: a reply
limit is per request, so time not spent is lost, and an iteration cut short still plays
the root move it proved better than the last one's (stopping new iterations at 60 % won
fewer games)."""
DEFAULT_LIMIT = 1.0
"""The reply limit the searcher answers within when neither its arguments nor the arena
tell it one (a program started by hand)."""
WALL_CAP_SHARE = 0.5
"""On the CPU-time clock, the share of the match's wall-clock cap past which the searcher
stops thinking all the same: a bot starved of a core must still answer before the cap."""


class Player(ABC):
    """A strategy: the move to play at each request."""

    threaded = False
    """Whether :meth:`choose` thinks long without holding the GIL, so that a bot in process
    is better asked in a thread of its own (see :class:`~arena_kernel.plugin.BotLogic`)."""

    def clocks(self, clocks: BotClocks) -> None:  # noqa: B027 (optional, as in BotLogic)
        """The match's clocks, told before the first request; a player that does not play
        by the clock ignores them."""

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


def thinking_time(limit: float, waited: float = 0.0, *, cpu: bool = False) -> float:
    """Seconds of thinking a reply within ``limit`` seconds affords, when its request may
    already have waited ``waited`` seconds before the bot could read it; ``cpu``: on the
    CPU-time clock."""
    share = CPU_THINKING_SHARE if cpu else THINKING_SHARE
    seconds = max(limit * share - RESERVE, limit * LEAST_SHARE)
    return max(seconds - waited, min(seconds, LEAST_FIRST))


class SearchPlayer(Player):
    """The compiled searcher (:mod:`arena_stones.engine`), within the reply limit ``limit``
    (None: the match's ``[clock] reply`` as the arena tells it, :data:`DEFAULT_LIMIT` until
    then): it answers in :func:`thinking_time` by the wall clock, which also bounds its CPU
    time (it thinks on one thread), or sooner on a machine that starves it (the engine
    stops in proportion when its thread has run less than half the time it took). On the
    CPU-time clock, when the arena says the match is on it, it thinks by its process's CPU
    time instead, up to :data:`CPU_THINKING_SHARE` of its limit, and stops by the wall clock at
    :data:`WALL_CAP_SHARE` of the match's cap. ``waited``:
    how long its first request may have waited for the process to start
    (:func:`~arena_stones.bot.process_age` for a program), taken off that reply only.

    Where the extension was not built it plays the Python searcher within the same time
    (on the wall clock), and says so once on stderr.
    """

    threaded = COMPILED is not None

    def __init__(self, limit: float | None = None, waited: float = 0.0) -> None:
        self.limit = limit
        self.waited = waited
        self.told: BotClocks | None = None
        self.depth = 0
        """Depth (in requests) of the last iteration the last move completed."""
        self.nodes = 0
        """Positions the last move visited."""
        self.compiled = COMPILED.Searcher() if COMPILED is not None else None
        self.fallback: Searcher | None = None
        if self.compiled is None:
            _say_fallback()
            self.fallback = Searcher()

    def clocks(self, clocks: BotClocks) -> None:
        self.told = clocks

    @property
    def reply_limit(self) -> float:
        """The limit it answers within: its own, else the match's, else the default."""
        if self.limit is not None:
            return self.limit
        return self.told.reply if self.told is not None else DEFAULT_LIMIT

    def choose(self, position: Position) -> Move:
        limit = self.reply_limit
        told = self.told
        cpu = told is not None and told.mode == "cpu" and self.compiled is not None
        seconds = thinking_time(limit, self.waited, cpu=cpu)
        self.waited = 0.0
        if self.compiled is None:
            assert self.fallback is not None
            move = self.fallback.best_move(position, seconds)
            self.depth, self.nodes = self.fallback.depth, self.fallback.nodes
            return move
        wall = max(seconds, limit * told.wall_cap * WALL_CAP_SHARE) if cpu and told else seconds
        move, self.depth, _value, self.nodes, _elapsed = self.compiled.think(
            position.cells,
            position.player,
            position.phase,
            position.single,
            seconds,
            seconds * NEW_ITERATION_SHARE,
            cpu=cpu,
            wall=wall,
        )
        return move


@functools.cache
def _say_fallback() -> None:
    """Tell once per process that the compiled searcher is missing: a program's stderr is
    its log, and an in-process bot is made once a game."""
    print(
        f"search: the compiled engine is not built ({MISSING}); playing the Python search",
        file=sys.stderr,
    )


class PythonSearchPlayer(Player):
    """The Python searcher (:mod:`arena_stones.search`) with its per-move budget: the
    reference the compiled one is measured against, and the ``search-py`` bot. With
    ``cpu`` the budget is its thread's CPU time instead of the wall clock, so that a
    benchmark on a loaded machine gives it the time it gives the compiled searcher."""

    def __init__(self, seconds: float = 1.0, *, cpu: bool = False) -> None:
        self.seconds = seconds
        self.searcher = Searcher(time.thread_time if cpu else time.perf_counter)

    def choose(self, position: Position) -> Move:
        seconds = self.seconds
        if position.single:
            seconds = max(seconds - STARTUP_MARGIN, seconds / 4)
        # Reading the request and writing the reply happen outside the search's clock.
        return self.searcher.best_move(position, max(seconds * 0.95 - 0.01, 0.01))
