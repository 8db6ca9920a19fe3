"""A league's final: a fixed-format event among the top bots of its ladder, played as a
run of its own in the league's database (``arena run --from-league DB --top N``).

The final is the league's match file with its format replaced by ``[league] final`` (a
round robin of ``final_rounds`` rounds, or a knockout seeded by the ladder) and its bots
by the ``N`` best rated bots that still play, each under its name on the ladder (``alice
v2``), with the table the match file gives it. Its bots and format are its identity: run
again while the ladder's top is the same, it resumes; once the top has changed, it is
another final.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from arena_kernel.errors import ArenaError
from arena_kernel.match.ladder import Rung, top
from arena_kernel.match.spec import KNOCKOUT_KEYS, MatchSpec


def final_spec(league: MatchSpec, rungs: Sequence[Rung], count: int, database: Path) -> MatchSpec:
    """The final among the ``count`` best of ``rungs`` (the ladder of ``league``, the
    league's match file as it reads now), stored in ``database``. Raise
    :class:`ArenaError` when the ladder has too few bots that play, or when a knockout
    final is asked of a league of more than two seats."""
    chosen = top(rungs, count)
    seats = league.seats[0]
    if len(chosen) < count:
        raise ArenaError(
            f"{database}: the league has {len(chosen)} rated bots that still play, "
            f"fewer than the top {count} asked for"
        )
    if count < seats:
        raise ArenaError(f"{database}: a final of {seats}-seat games needs at least {seats} bots")
    fmt = league.league["final"]
    if fmt == "knockout" and seats != 2:
        raise ArenaError(
            f'{league.path}: [league] final = "knockout" plays two-player ties, but the '
            f"league has seats = {seats}; use a round-robin final"
        )
    tables = {bot.name: bot for bot in league.bots}
    bots = []
    for bot in chosen:
        table = tables.get(bot.name)
        if table is None or table.retired:
            raise ArenaError(
                f'{league.path}: bot "{bot.name}" is among the top {count} but has no '
                "[[bots]] table that plays"
            )
        bots.append(dataclasses.replace(table, name=bot.seat))
    knockout = {key: option.default for key, option in KNOCKOUT_KEYS.items()}
    return dataclasses.replace(
        league,
        name=f"{league.name}-final",
        format=fmt,
        bots=tuple(bots),
        rounds=league.league["final_rounds"] if fmt == "round-robin" else 1,
        knockout=knockout if fmt == "knockout" else {},
        league={},
        database=database,
    )
