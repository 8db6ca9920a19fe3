"""Formats whose games depend on the results so far (``swiss``, ``knockout``): the run is
played a stage at a time, each stage's games worked out from the games stored before it.

A stage is computed from stored results only, never from anything seen live: a resumed
run, or one whose games were played by a cluster's workers, finds the very same games.
Every game keeps a fixed schedule index (a Swiss round's games follow the previous
round's; a knockout tie owns a block of indexes), so a game is stored once whatever
stopped the run, and its seed is derived from its index as for any other format.

:class:`StageSchedule` gives a stage's games the interface of the lazy
:class:`~arena_kernel.match.schedule.Schedule`, so that the runner and the executors play a
stage like any schedule.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arena_kernel.match.knockout import Knockout, KnockoutGame
from arena_kernel.match.schedule import derive_seed
from arena_kernel.match.swiss import SwissGame, pair_round, standings
from arena_kernel.model import ScheduledGame, Standings
from arena_kernel.scoring.base import GameResult

Seatings = dict[int, tuple[str, ...]]
"""A stage's games: schedule index -> the bots in seat order."""


class _StageRound:
    """What :class:`~arena_kernel.match.schedule.Pending` and sessions ask of a round: the
    bots, how far a seating pattern repeats (never, within a stage), the seat counts."""

    def __init__(self, games: Seatings, names: Sequence[str], total: int) -> None:
        self._games = games
        self.names = tuple(names)
        self._total = total

    def __len__(self) -> int:
        return self._total

    def seat_counts(self, indexes: range) -> set[int]:
        return {len(self._games[i]) for i in indexes if i in self._games}


class StageSchedule:
    """The games of one stage, by schedule index, with the interface of a
    :class:`~arena_kernel.match.schedule.Schedule` of ``total`` games of which only these
    are to be played (:meth:`others` are the rest, for ``Pending`` to skip)."""

    def __init__(self, games: Seatings, seed: int, total: int, names: Sequence[str]) -> None:
        self._games = dict(sorted(games.items()))
        self._seed = seed
        self._total = max(total, max(self._games, default=-1) + 1)
        self.round = _StageRound(self._games, names, self._total)

    def __len__(self) -> int:
        return self._total

    def game(self, index: int, session: int = 0) -> ScheduledGame:
        return ScheduledGame(index, derive_seed(self._seed, index), self.seating(index), session)

    def seating(self, index: int) -> tuple[str, ...]:
        return self._games[index]

    def others(self) -> list[range]:
        """The schedule indexes that are not this stage's, as ascending ranges."""
        ranges, start = [], 0
        for index in self._games:
            if index > start:
                ranges.append(range(start, index))
            start = index + 1
        if start < self._total:
            ranges.append(range(start, self._total))
        return ranges


class Stages(ABC):
    """A format played a stage at a time."""

    most_games: int
    """The most games the run can have: what its progress counts against."""

    @abstractmethod
    def to_play(self, results: Sequence[GameResult]) -> Seatings:
        """The games to play now, given every game stored so far: none stored yet among
        them; empty when the run is over."""

    @abstractmethod
    def table(self, results: Sequence[GameResult]) -> Standings:
        """The format's own table (Swiss scores, the bracket) over the stored games."""

    @staticmethod
    def of(spec: Mapping[str, Any]) -> Stages | None:
        """The stages of a run from its spec as stored (:func:`spec_record
        <arena_kernel.runner.run.spec_record>`); None for a format whose whole schedule
        is known before the first game."""
        fmt = spec.get("format")
        names = [str(bot["name"]) for bot in spec.get("bots", [])]
        seats = spec.get("seats")
        count = int(seats if isinstance(seats, int) else next(iter(seats or [2])))
        if fmt == "swiss":
            return SwissStages(names, count, int(spec.get("rounds") or 1))
        if fmt == "knockout":
            table = spec.get("knockout") or {}
            return KnockoutStages(names, int(table["games"]), int(table["tiebreak"]))
        return None


class SwissStages(Stages):
    """``rounds`` rounds of groups of ``seats`` bots; round ``r`` holds the indexes
    ``r * groups`` to ``(r + 1) * groups - 1``, one per group (bots with a bye sit out)."""

    def __init__(self, bots: Sequence[str], seats: int, rounds: int) -> None:
        self.bots = tuple(bots)
        self.seats = seats
        self.rounds = rounds
        self.groups = len(self.bots) // seats
        self.most_games = rounds * self.groups

    def _games(self, results: Iterable[GameResult]) -> tuple[list[SwissGame], dict[int, int]]:
        games, per_round = [], dict.fromkeys(range(self.rounds), 0)
        for result in sorted(results, key=lambda r: r.index):
            round_number = result.index // self.groups
            per_round[round_number] = per_round.get(round_number, 0) + 1
            games.append(
                SwissGame(round_number, tuple(result.seating), tuple(result.ranks), result.void)
            )
        return games, per_round

    def to_play(self, results: Sequence[GameResult]) -> Seatings:
        games, per_round = self._games(results)
        for round_number in range(self.rounds):
            if per_round[round_number] < self.groups:
                stored = {r.index for r in results}
                earlier = [g for g in games if g.round < round_number]
                pairing = pair_round(self.bots, earlier, round_number, self.seats)
                first = round_number * self.groups
                return {
                    first + i: group
                    for i, group in enumerate(pairing.groups)
                    if first + i not in stored
                }
        return {}

    def table(self, results: Sequence[GameResult]) -> Standings:
        games, per_round = self._games(results)
        played = sum(1 for n in per_round.values() if n >= self.groups)
        rows = [(bot, round(score, 2)) for bot, score in standings(self.bots, games, played)]
        return Standings(
            f"Swiss: {played} of {self.rounds} rounds",
            ("bot", "score"),
            rows,
            notes=["score: game points (a win 1, a draw shared) and 1 per bye"],
        )


class KnockoutStages(Stages):
    """A seeded bracket of two-player ties (:mod:`arena_kernel.match.knockout`)."""

    def __init__(self, bots: Sequence[str], games: int, tiebreak: int) -> None:
        self.knockout = Knockout(bots, games, tiebreak)
        self.most_games = self.knockout.most_games

    @staticmethod
    def _stored(results: Iterable[GameResult]) -> list[KnockoutGame]:
        return [
            KnockoutGame(
                r.index,
                (r.seating[0], r.seating[1]),
                (r.ranks[0], r.ranks[1]),
                r.void,
            )
            for r in results
        ]

    def to_play(self, results: Sequence[GameResult]) -> Seatings:
        return dict(self.knockout.to_play(self._stored(results)))

    def table(self, results: Sequence[GameResult]) -> Standings:
        stored = self._stored(results)
        rows = []
        for ties in self.knockout.ties(stored):
            for tie in ties:
                high, low = tie.high or "?", tie.low
                pairing = (
                    f"{high} (bye)" if tie.low is None and tie.high else f"{high} v {low or '?'}"
                )
                score = "" if tie.first_index is None else f"{tie.score[0]:g}-{tie.score[1]:g}"
                rows.append((tie.round + 1, tie.slot + 1, pairing, score, tie.winner or ""))
        champion = self.knockout.champion(stored)
        return Standings(
            f"Knockout: {'won by ' + champion if champion else 'in progress'}",
            ("round", "tie", "bots", "score", "through"),
            rows,
        )
