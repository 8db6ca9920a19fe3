"""The schedule: which bots play which game, in which seats, with which seed.

The schedule depends only on the match file, never on concurrency or timing, so that a
re-run finds the same games (and resumes where it stopped) and results can be reproduced.

Nothing here is built ahead: a game is computed from its index when it is played (its
seating from the round by rank, its seed by hashing). A run of a million games starts its
first game at once and holds a few objects per game in progress, not a list of a million.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import comb, factorial
from typing import TYPE_CHECKING, Literal, Protocol

from arena_kernel.model import ScheduledGame

if TYPE_CHECKING:
    from arena_kernel.match.spec import MatchSpec


def derive_seed(match_seed: int, index: int) -> int:
    """The seed of game ``index``: a hash, so that neighbouring games get unrelated seeds
    (``match_seed + index`` would make game 1 of seed 0 replay game 0 of seed 1).

    63 bits and non-negative, so that it fits a signed 64-bit SQLite integer.
    """
    digest = hashlib.sha256(f"arena:{match_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class _Block:
    """The seatings of one seat count in a round: ``groups`` groups of ``count`` bots, each
    in ``orders`` seat orders, from position ``start`` of the round."""

    count: int
    start: int
    groups: int
    orders: int

    @property
    def stop(self) -> int:
        return self.start + self.groups * self.orders


class Round:
    """One round: every group of bots of each size in ``spec.seats``, in every seat order.

    The seat counts come in ascending order, each with all its groups, so that a single
    count gives exactly the schedule it always gave (stored runs resume game for game).
    The groups of a count are those of :func:`itertools.combinations` over the bots in
    their order; each is expanded to all its rotations, which is enough for every bot to
    play every seat equally often, or to all its permutations (in
    :func:`itertools.permutations` order) when seat order relative to the other bots
    matters too. A gauntlet keeps only the challenger's groups.

    A round of 14 bots in every seat order of 3 to 6 is 2.4 million seatings: each is
    computed from its position (its group and order by rank) rather than listed.
    """

    def __init__(self, spec: MatchSpec) -> None:
        self.names = tuple(bot.name for bot in spec.bots)
        self._permute = spec.seatings == "permutations"
        self._fixed: int | None = None
        """A gauntlet's challenger (its position in ``names``): in every group."""
        if spec.format == "gauntlet":
            self._fixed = self.names.index(spec.challenger or self.names[0])
        pool = len(self.names) - (self._fixed is not None)
        self._blocks: list[_Block] = []
        start = 0
        for count in spec.seats:
            chosen = count - (self._fixed is not None)
            groups = comb(pool, chosen) if chosen >= 0 else 0
            orders = factorial(count) if self._permute else count
            self._blocks.append(_Block(count, start, groups, orders))
            start = self._blocks[-1].stop

    def __len__(self) -> int:
        return self._blocks[-1].stop if self._blocks else 0

    def __getitem__(self, position: int) -> tuple[str, ...]:
        if not 0 <= position < len(self):
            raise IndexError(f"seating {position} of a round of {len(self)}")
        block = next(b for b in self._blocks if position < b.stop)
        rank, order = divmod(position - block.start, block.orders)
        group = self._group(block.count, rank)
        if self._permute:
            return _nth_permutation(group, order)
        return group[order:] + group[:order]

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        return (self[position] for position in range(len(self)))

    def _group(self, count: int, rank: int) -> tuple[str, ...]:
        """The ``rank``-th group of ``count`` bots in :func:`itertools.combinations` order.

        A gauntlet's groups are those that hold the challenger, and removing it keeps their
        order: they are the groups of the other bots one smaller, the challenger put back
        in its place among them."""
        if self._fixed is None:
            return tuple(self.names[i] for i in _nth_combination(len(self.names), count, rank))
        others = [i for i in range(len(self.names)) if i != self._fixed]
        members = [others[i] for i in _nth_combination(len(others), count - 1, rank)]
        return tuple(self.names[i] for i in sorted([*members, self._fixed]))

    def seat_counts(self, indexes: range) -> set[int]:
        """The seat counts of the games at schedule ``indexes`` (the round cycling), without
        computing any of their seatings."""
        if not indexes:
            return set()
        if len(indexes) >= len(self):
            spans = [(0, len(self))]
        else:
            first, last = indexes[0] % len(self), indexes[-1] % len(self)
            spans = [(first, last + 1)] if first <= last else [(first, len(self)), (0, last + 1)]
        return {
            b.count for b in self._blocks for lo, hi in spans if max(lo, b.start) < min(hi, b.stop)
        }


def _nth_combination(n: int, k: int, rank: int) -> list[int]:
    """The ``rank``-th ``k``-subset of ``range(n)`` in :func:`itertools.combinations` order
    (lexicographic): each element is the first whose subsets starting with it reach
    ``rank``."""
    chosen: list[int] = []
    candidate = 0
    for slot in range(k):
        while (starting := comb(n - candidate - 1, k - slot - 1)) <= rank:
            rank -= starting
            candidate += 1
        chosen.append(candidate)
        candidate += 1
    return chosen


def _nth_permutation(items: tuple[str, ...], rank: int) -> tuple[str, ...]:
    """The ``rank``-th order of ``items`` in :func:`itertools.permutations` order (its
    Lehmer code in the factorial number system)."""
    pool = list(items)
    order = []
    for left in range(len(pool), 0, -1):
        index, rank = divmod(rank, factorial(left - 1))
        order.append(pool.pop(index))
    return tuple(order)


class Schedule:
    """Every game of the run: ``rounds`` times one round, or the first ``games`` games of
    the round repeated, numbered from 0 with seeds derived from the match seed. A game is
    made when it is asked for.

    A run with an SPRT (``[sprt]``) plays its games in pairs, games ``2k`` and ``2k + 1``
    with the colours swapped (its round is those two seatings): both get the seed of pair
    ``k``, so that each bot plays the same start from either side."""

    def __init__(self, spec: MatchSpec) -> None:
        self.round = Round(spec)
        self._seed = spec.seed
        self._total = spec.games if spec.games is not None else spec.rounds * len(self.round)
        self._per_seed = 2 if spec.sprt else 1

    def __len__(self) -> int:
        return self._total

    def __iter__(self) -> Iterator[ScheduledGame]:
        return (self.game(index) for index in range(self._total))

    def game(self, index: int, session: int = 0) -> ScheduledGame:
        """Game ``index``, as played in ``session``."""
        seed = derive_seed(self._seed, index // self._per_seed)
        return ScheduledGame(index, seed, self.seating(index), session)

    def seating(self, index: int) -> tuple[str, ...]:
        """The bots of game ``index`` in seat order, without its seed."""
        if not 0 <= index < self._total:
            raise IndexError(f"game {index} of a schedule of {self._total}")
        return self.round[index % len(self.round)]


class RoundView(Protocol):
    """What the pending games and sessions read of a round: its bots, its length (how far
    seatings repeat) and the seat counts of a range of games."""

    names: tuple[str, ...]

    def __len__(self) -> int: ...
    def seat_counts(self, indexes: range) -> set[int]: ...


class Games(Protocol):
    """A schedule as the pending games and sessions read it: a :class:`Schedule`, or one
    stage of a format whose games depend on the results
    (:class:`~arena_kernel.match.stages.StageSchedule`)."""

    @property
    def round(self) -> RoundView: ...
    def __len__(self) -> int: ...
    def game(self, index: int, session: int = 0) -> ScheduledGame: ...
    def seating(self, index: int) -> tuple[str, ...]: ...


class Pending:
    """The games of a schedule not stored yet, in schedule order, by position.

    Made of the stored indexes as ranges (what :meth:`Store.stored_indexes
    <arena_kernel.store.sqlite.Store.stored_indexes>` reads): a run resumed after a
    million games holds a few ranges, not a million numbers.
    """

    def __init__(self, schedule: Games, stored: Iterable[range]) -> None:
        self.schedule = schedule
        self.ranges = _missing(stored, len(schedule))
        """The pending schedule indexes, as ascending ranges."""
        self._starts = list(itertools.accumulate((len(r) for r in self.ranges), initial=0))
        """The position of each range's first game; last, how many games are pending."""

    def __len__(self) -> int:
        return self._starts[-1]

    def index(self, position: int) -> int:
        """The schedule index of the pending game at ``position``."""
        if not 0 <= position < len(self):
            raise IndexError(f"pending game {position} of {len(self)}")
        which = bisect.bisect_right(self._starts, position) - 1
        return self.ranges[which][position - self._starts[which]]

    def seat_counts(self) -> set[int]:
        """The seat counts of the pending games."""
        return {count for r in self.ranges for count in self.schedule.round.seat_counts(r)}

    def pieces(self, positions: range) -> Iterator[range]:
        """``positions`` (ascending) cut where the pending games jump from one range of
        schedule indexes to the next: within a piece, the games' schedule indexes are as
        far apart as their positions."""
        for first, pending in zip(self._starts, self.ranges, strict=False):
            lo = max(0, -((positions.start - first) // positions.step))
            hi = max(0, -((positions.start - first - len(pending)) // positions.step))
            if piece := positions[lo:hi]:
                yield piece


def _missing(stored: Iterable[range], total: int) -> list[range]:
    """The indexes of ``range(total)`` that ascending, disjoint ``stored`` ranges lack."""
    missing = []
    start = 0
    for done in stored:
        if done.start > start:
            missing.append(range(start, min(done.start, total)))
        start = max(start, done.stop)
    missing.append(range(start, total))
    return [r for r in missing if r]


@dataclass(frozen=True)
class Session:
    """A unit the runner plays at once: its ``number`` and the pending games at
    ``positions``, made as they are played."""

    number: int
    pending: Pending
    positions: range

    def __iter__(self) -> Iterator[ScheduledGame]:
        schedule, index = self.pending.schedule, self.pending.index
        return (schedule.game(index(p), self.number) for p in self.positions)

    def entrants(self) -> list[str]:
        """The bots of the session's games in order of first appearance, found without
        walking through a session of half a million games: where its games are every
        ``positions.step``-th of a range of the schedule, their seatings repeat after one
        round, so a round's worth of them per range is looked at at most, and none once
        every bot was seen."""
        schedule, index = self.pending.schedule, self.pending.index
        cycle = len(schedule.round)
        seen: dict[str, None] = {}
        for piece in self.pending.pieces(self.positions):
            for position in piece[:cycle]:
                seen.update(dict.fromkeys(schedule.seating(index(position))))
                if len(seen) == len(schedule.round.names):
                    return list(seen)
        return list(seen)


class Sessions:
    """The pending games split into sessions, in the order the runner starts them.

    A ``game``-lifetime game is its own session, numbered by its position among the pending
    games. ``session`` games are dealt round-robin into at most ``concurrency`` sessions
    whose bots stay connected from one game to the next, so that the sessions finish at
    about the same time.
    """

    def __init__(
        self, pending: Pending, lifetime: Literal["game", "session"], concurrency: int
    ) -> None:
        if lifetime not in ("game", "session"):
            raise ValueError(f'lifetime must be "game" or "session", not {lifetime!r}')
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, not {concurrency}")
        self.pending = pending
        self.lifetime = lifetime
        self._count = len(pending) if lifetime == "game" else min(concurrency, len(pending))

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Session]:
        games = len(self.pending)
        if self.lifetime == "game":
            return (Session(p, self.pending, range(p, p + 1)) for p in range(games))
        return (Session(s, self.pending, range(s, games, self._count)) for s in range(self._count))

    def most_entrants(self) -> int:
        """The most bots one session has connected at once (0 without sessions): what the
        open-file budget is checked against. A game is its own session: its seat count."""
        if self.lifetime == "game":
            return max(self.pending.seat_counts(), default=0)
        return max((len(session.entrants()) for session in self), default=0)
