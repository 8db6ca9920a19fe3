"""Where a league's next games go: a block of games planned from the ratings so far.

The ladder is uncertain where two bots' order is: where their ratings are close and their
intervals wide. Each game of a block goes to the table whose games would settle the most
of that uncertainty, and each choice is taken into account before the next one, so that a
block does not pile onto one pair.

**The value of a game.** The fit of the games so far (:mod:`~arena_kernel.scoring.league_ratings`)
gives each bot a log-strength ``r`` and their covariance, so for two bots the difference
``d = r_i - r_j`` is known up to a normal spread ``s``, and the chance that the ladder has
them in the wrong order is ``Φ(-|d| / s)``. One game between them adds ``p (1 - p)`` to the
information on ``d`` (``p`` the chance that ``i`` wins): the spread shrinks to ``s'`` and
the estimate moves by a normal amount of spread ``τ = √(s² - s'²)``. The game's value is
how much it lowers the chance of a wrong order, on average over where the estimate
moves: ``Φ(-|d| / s) - E[Φ(-|d + τ Z| / s')]``. That is largest for a close pair with a
wide spread (a bot without games first: its spread is the prior's), small for a pair
whose order is plain, and never negative. A table of ``k`` seats is worth the sum over
its pairs; a full ranking of ``k`` bots tells about as much as
:func:`table_information` pairwise games.

**Within a block**, each chosen table's information is added to the covariance (rank-one
updates, exact for the normal approximation) before the next table is chosen: the next
game goes where the uncertainty is greatest *after* the games planned so far.

**Fair shares.** Every bot that may play gets at least ``least`` and at most ``most``
games of the block (:func:`shares`): tables are built around the bots still short of
their least first, with the bots short of it preferred as soon as the games left would
not cover them otherwise.

**Seats.** A table's bots are seated so that each bot's games per seat over the league
stay as even as they can (every order tried, up to six seats).

**Determinism.** The plan is a pure function of the bots, the fit, the seat counts and
the random generator (seeded from the league's seed and the block's number), which breaks
ties only: the same stored games and seed give the same plan, wherever it is computed.

:func:`uniform_block` is the baseline the docs compare against (``pairing = "uniform"``):
each game a uniformly random table in a random seat order.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from arena_kernel.scoring.league_ratings import LeagueTally, fit_league

Table = tuple[str, ...]
"""The bots of one game, in seat order."""

_NODES = tuple(NormalDist().inv_cdf((m + 0.5) / 16) for m in range(16))
"""Equally likely points of a standard normal: the average over them stands for the
expectation over where an estimate moves."""

_SEATINGS_TRIED = 6
"""The most seats whose every order is tried; a larger table is seated greedily."""


def _phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2))


def table_information(seats: int) -> float:
    """How many two-player games one finishing order of ``seats`` bots is worth, per pair
    of them, for bots of about equal strength: the trace of the Plackett-Luce
    information of a full ranking, ``Σ_{m=2..k} (m-1)/m``, over that of ``k (k-1) / 2``
    independent pairwise games (``1/2`` each). 1 for two seats."""
    ranking = sum((m - 1) / m for m in range(2, seats + 1))
    return ranking / (seats * (seats - 1) / 4)


def game_value(d: float, spread2: float, information: float) -> float:
    """How much one game lowers the chance that two bots whose log-strengths differ by an
    estimated ``d`` (variance ``spread2``) are ranked in the wrong order, the game adding
    ``information`` on ``d``: see the module."""
    if spread2 <= 0 or information <= 0:
        return 0.0
    after2 = spread2 / (1 + spread2 * information)
    moves = math.sqrt(spread2 - after2)
    before = _phi(-abs(d) / math.sqrt(spread2))
    after_spread = math.sqrt(after2)
    after = sum(_phi(-abs(d + moves * z) / after_spread) for z in _NODES) / len(_NODES)
    return max(before - after, 0.0)


def shares(games: int, seats: int, bots: int, least: float, most: float) -> tuple[int, int]:
    """The fewest and most games of a block of ``games`` games of ``seats`` seats that each
    of ``bots`` bots plays: ``least`` and ``most`` times its fair share (``games * seats /
    bots``), rounded down and up; the most at least one."""
    fair = games * seats / bots
    return math.floor(least * fair + 1e-9), max(1, math.ceil(most * fair - 1e-9))


@dataclass(frozen=True)
class Field:
    """What a block is planned from: the bots that may play (in the league's order), their
    log-strengths ``r`` and covariance in that order, and each one's games per seat so far
    (of games of the league's seat count)."""

    bots: tuple[str, ...]
    r: Sequence[float]
    covariance: Sequence[Sequence[float]]
    seat_games: Mapping[str, Sequence[int]]


class _Planner:
    """One block being planned: the covariance as the tables chosen so far leave it."""

    def __init__(self, field: Field, seats: int, least: int, most: int) -> None:
        self.bots = field.bots
        self.n = len(field.bots)
        self.r = list(field.r)
        self.cov = [list(row) for row in field.covariance]
        self.seats = seats
        self.scale = table_information(seats)
        self.least, self.most = least, most
        self.played = [0] * self.n
        self.seat_games = [
            list(field.seat_games.get(bot, ())) + [0] * (seats - len(field.seat_games.get(bot, ())))
            for bot in field.bots
        ]

    def info(self, i: int, j: int) -> float:
        p = 1 / (1 + math.exp(-(self.r[i] - self.r[j])))
        return self.scale * p * (1 - p)

    def value(self, i: int, j: int) -> float:
        c = self.cov
        spread2 = c[i][i] + c[j][j] - 2 * c[i][j]
        return game_value(self.r[i] - self.r[j], spread2, self.info(i, j))

    def learn(self, table: Sequence[int]) -> None:
        """Add a game of ``table`` to the covariance: one rank-one update per pair, the
        information of ``u = e_i - e_j`` being :meth:`info`."""
        c = self.cov
        for i, j in itertools.combinations(table, 2):
            w = self.info(i, j)
            v = [c[k][i] - c[k][j] for k in range(self.n)]
            denominator = 1 + w * (v[i] - v[j])
            factor = w / denominator
            for a in range(self.n):
                va = v[a] * factor
                if va:
                    row = c[a]
                    for b in range(self.n):
                        row[b] -= va * v[b]

    def table(self, games_left: int, rng: random.Random) -> list[int]:
        """The bots of the next game (not yet seated)."""
        open_ = [i for i in range(self.n) if self.played[i] < self.most]
        if len(open_) < self.seats:
            # Every bot is at its most but a few: the fewest-played make up the table.
            by_games = sorted(range(self.n), key=lambda i: (self.played[i], rng.random()))
            open_ = sorted(set(open_) | set(by_games[: self.seats]))
        short = [i for i in open_ if self.played[i] < self.least]
        shortfall = sum(self.least - self.played[i] for i in short)
        # A short bot that needs a game of every table left is in this one; when the
        # seats left would not cover every short bot otherwise, short bots come first.
        members = [i for i in short if self.least - self.played[i] >= games_left]
        tight = games_left * self.seats - shortfall < self.seats
        if not members and short:
            # The short bot with the widest spread, and its table from there.
            members = [max(short, key=lambda i: (self.cov[i][i], rng.random()))]
        elif not members:
            pairs = [
                (self.value(i, j), rng.random(), i, j) for i, j in itertools.combinations(open_, 2)
            ]
            _, _, i, j = max(pairs)
            members = [i, j]
        members = members[: self.seats]
        while len(members) < self.seats:
            candidates = [m for m in short if m not in members] if tight else []
            candidates = candidates or [m for m in open_ if m not in members]
            best = max(
                candidates,
                key=lambda m: (sum(self.value(m, t) for t in members), rng.random()),
            )
            members.append(best)
        return members

    def seat(self, members: Sequence[int], rng: random.Random) -> list[int]:
        """``members`` in the seat order that keeps their games per seat the most even."""
        shuffled = list(members)
        rng.shuffle(shuffled)
        if self.seats <= _SEATINGS_TRIED:
            return list(
                min(
                    itertools.permutations(shuffled),
                    key=lambda order: sum(self.seat_games[b][s] for s, b in enumerate(order)),
                )
            )
        order: list[int] = []
        left = shuffled
        for s in range(self.seats):
            pick = min(left, key=lambda b: self.seat_games[b][s])
            order.append(pick)
            left = [b for b in left if b != pick]
        return order

    def take(self, order: Sequence[int]) -> None:
        for s, b in enumerate(order):
            self.played[b] += 1
            self.seat_games[b][s] += 1
        self.learn(order)


def plan_block(
    field: Field, games: int, seats: int, least: int, most: int, rng: random.Random
) -> list[Table]:
    """The ``games`` games of the next block among ``field``'s bots (at least ``seats`` of
    them), in the order they are to be played: see the module."""
    if len(field.bots) < seats:
        raise ValueError(f"{seats} seats need {seats} bots, not {len(field.bots)}")
    planner = _Planner(field, seats, least, most)
    plan = []
    for left in range(games, 0, -1):
        order = planner.seat(planner.table(left, rng), rng)
        planner.take(order)
        plan.append(tuple(field.bots[b] for b in order))
    return plan


def uniform_block(bots: Sequence[str], games: int, seats: int, rng: random.Random) -> list[Table]:
    """``games`` tables of ``seats`` of ``bots``, each drawn uniformly, in a random order."""
    if len(bots) < seats:
        raise ValueError(f"{seats} seats need {seats} bots, not {len(bots)}")
    return [tuple(rng.sample(list(bots), seats)) for _ in range(games)]


@dataclass(frozen=True)
class Pairing:
    """How a league plans its blocks: its seats and its ``[league]`` settings (``block``
    None: one game per bot that may play)."""

    seats: int
    block: int | None = None
    pairing: str = "adaptive"
    least: float = 0.5
    most: float = 2.0

    @classmethod
    def of(cls, seats: int, league: Mapping[str, Any]) -> Pairing:
        """The pairing of a league of ``seats`` seats with its ``[league]`` table."""
        return cls(seats, league["block"], league["pairing"], league["least"], league["most"])

    def size(self, bots: int) -> int:
        """The games of a block among ``bots`` bots."""
        return self.block or bots


def next_block(
    tally: LeagueTally, bots: Sequence[str], pairing: Pairing, seed: int, number: int
) -> list[Table]:
    """The games of block ``number`` among ``bots`` (those that may play, in the league's
    order), from the games of every block before it (``tally``): the league's one way to
    plan a block, a pure function of its arguments."""
    games = pairing.size(len(bots))
    rng = random.Random(f"arena-league:{seed}:{number}")
    if pairing.pairing == "uniform":
        return uniform_block(bots, games, pairing.seats, rng)
    r, covariance = fit_league(tally, bots).strengths(bots)
    least, most = shares(games, pairing.seats, len(bots), pairing.least, pairing.most)
    field = Field(tuple(bots), r, covariance, tally.seat_games)
    return plan_block(field, games, pairing.seats, least, most, rng)
