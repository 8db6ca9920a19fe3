"""The schedule: which bots play which game, in which seats, with which seed.

The schedule depends only on the match file, never on concurrency or timing, so that a
re-run finds the same games (and resumes where it stopped) and results can be reproduced.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
from collections.abc import Sequence
from typing import Literal

from arena_kernel.match.spec import MatchSpec
from arena_kernel.model import ScheduledGame


def derive_seed(match_seed: int, index: int) -> int:
    """The seed of game ``index``: a hash, so that neighbouring games get unrelated seeds
    (``match_seed + index`` would make game 1 of seed 0 replay game 0 of seed 1).

    63 bits and non-negative, so that it fits a signed 64-bit SQLite integer.
    """
    digest = hashlib.sha256(f"arena:{match_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seatings(spec: MatchSpec) -> list[tuple[str, ...]]:
    """One round: every group of bots of each size in ``spec.seats``, in every seat order.

    The seat counts come in ascending order, each with all its groups, so that a single
    count gives exactly the schedule it always gave (stored runs resume game for game).
    Each group (in bot order) is expanded to all its rotations, which is enough for every
    bot to play every seat equally often, or to all its permutations when seat order
    relative to the other bots matters too. A gauntlet keeps only the challenger's groups.
    """
    return [order for count in spec.seats for order in _seatings_of(spec, count)]


def _seatings_of(spec: MatchSpec, count: int) -> list[tuple[str, ...]]:
    """The groups of ``count`` bots (in bot order), each in its rotations or permutations."""
    names = [bot.name for bot in spec.bots]
    groups = list(itertools.combinations(names, count))
    if spec.format == "gauntlet":
        challenger = spec.challenger or names[0]
        groups = [group for group in groups if challenger in group]
    if spec.seatings == "permutations":
        return [order for group in groups for order in itertools.permutations(group)]
    return [group[i:] + group[:i] for group in groups for i in range(len(group))]


def schedule(spec: MatchSpec) -> list[ScheduledGame]:
    """Every game of the run: ``rounds`` times one round, or the first ``games`` games of
    the round repeated, numbered from 0 with seeds derived from the match seed."""
    order = seatings(spec)
    total = spec.games if spec.games is not None else spec.rounds * len(order)
    return [
        ScheduledGame(index=i, seed=derive_seed(spec.seed, i), seating=order[i % len(order)])
        for i in range(total)
    ]


def assign_sessions(
    games: Sequence[ScheduledGame], lifetime: Literal["game", "session"], concurrency: int
) -> list[list[ScheduledGame]]:
    """Split games into sessions: the units the runner plays in parallel.

    A ``game``-lifetime game is its own session. ``session`` games are dealt round-robin
    into at most ``concurrency`` sessions whose bots stay connected from one game to the
    next, so that the sessions finish at about the same time.
    """
    if lifetime == "game":
        return [[dataclasses.replace(game, session=i)] for i, game in enumerate(games)]
    if lifetime != "session":
        raise ValueError(f'lifetime must be "game" or "session", not {lifetime!r}')
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, not {concurrency}")
    count = min(concurrency, len(games))
    return [
        [dataclasses.replace(game, session=s) for game in games[s::count]] for s in range(count)
    ]
