"""The schedule as arena built it before it was computed game by game: the whole of it in
lists, up front. Kept as the reference that the lazy schedule
(kernel/arena_kernel/match/schedule.py) must equal game for game: stored runs resume only
if no game, seed, seat order or session number ever changes."""

from __future__ import annotations

import dataclasses
import itertools

from arena_kernel.match.schedule import derive_seed
from arena_kernel.match.spec import MatchSpec
from arena_kernel.model import ScheduledGame


def seatings(spec: MatchSpec) -> list[tuple[str, ...]]:
    return [order for count in spec.seats for order in _seatings_of(spec, count)]


def _seatings_of(spec: MatchSpec, count: int) -> list[tuple[str, ...]]:
    names = [bot.name for bot in spec.bots]
    groups = list(itertools.combinations(names, count))
    if spec.format == "gauntlet":
        challenger = spec.challenger or names[0]
        groups = [group for group in groups if challenger in group]
    if spec.seatings == "permutations":
        return [order for group in groups for order in itertools.permutations(group)]
    return [group[i:] + group[:i] for group in groups for i in range(len(group))]


def schedule(spec: MatchSpec) -> list[ScheduledGame]:
    order = seatings(spec)
    total = spec.games if spec.games is not None else spec.rounds * len(order)
    return [
        ScheduledGame(index=i, seed=derive_seed(spec.seed, i), seating=order[i % len(order)])
        for i in range(total)
    ]


def assign_sessions(
    games: list[ScheduledGame], lifetime: str, concurrency: int
) -> list[list[ScheduledGame]]:
    if lifetime == "game":
        return [[dataclasses.replace(game, session=i)] for i, game in enumerate(games)]
    count = min(concurrency, len(games))
    return [
        [dataclasses.replace(game, session=s) for game in games[s::count]] for s in range(count)
    ]
