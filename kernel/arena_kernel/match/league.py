"""A league's bots: the match file's ``[[bots]]`` against the bots the league has stored.

Each run of a league's match file brings its bots up to date with the file:

- a bot the league has not seen joins, from the next block to be planned on;
- a bot that runs what it ran (the same digest, :mod:`arena_kernel.match.bot_identity`)
  goes on as it was;
- a bot that runs something else under the same name is refused, in one line saying
  what changed, unless the organiser asks for a new rating for it (``arena run
  --new-rating NAME``): then its new version joins as a bot of its own, ``NAME v2``, and
  the old one is retired;
- a bot marked ``retired = true`` plays no more (and one no longer marked so plays again);
- a bot that has left the file is refused: its games and history stay in the league, so
  its table stays in the file, marked retired.

A bot retires from the game after the last one stored: games of the block in progress
that seat a bot retired in that block are not played (:func:`playable`). Everything here
reads stored state and the file only, so that a league resumed or played elsewhere finds
the same bots, and the same games to play.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena_kernel.errors import ArenaError
from arena_kernel.games.base import Game
from arena_kernel.match.bot_identity import differences, digest, what_it_runs
from arena_kernel.match.spec import BotSpec, MatchSpec
from arena_kernel.store.league import LeagueBlock, LeagueBot


def seat_name(name: str, version: int) -> str:
    """The name the games of version ``version`` of bot ``name`` are stored under."""
    return name if version == 1 else f"{name} v{version}"


def plays_in(bot: LeagueBot, block: int) -> bool:
    """Whether ``bot`` may play in ``block``."""
    return bot.joined <= block and (bot.retired is None or bot.retired > block)


def playable(block: LeagueBlock, bots: Sequence[LeagueBot]) -> list[int]:
    """The indexes of ``block``'s games whose every bot may still play in it."""
    out = {bot.seat for bot in bots if not plays_in(bot, block.block)}
    return [
        index
        for index, seating in zip(block.indexes, block.games, strict=True)
        if not out.intersection(seating)
    ]


@dataclass(frozen=True)
class Roster:
    """The league's bots after this run's file: every one in the league's order (those
    stored, then those joining), the ones to register, the retirements to store (seat ->
    block, None: plays again) and the file's table of each bot that plays, named by its
    seat."""

    bots: tuple[LeagueBot, ...]
    added: tuple[LeagueBot, ...]
    retired: Mapping[str, int | None]
    tables: Mapping[str, BotSpec]

    def playing(self, block: int) -> list[str]:
        """The seats of the bots that may play in ``block``, in the league's order."""
        return [bot.seat for bot in self.bots if plays_in(bot, block) and bot.seat in self.tables]


def roster(
    spec: MatchSpec,
    game_cls: type[Game[Any]],
    stored: Sequence[LeagueBot],
    games: Mapping[str, int],
    next_block: int,
    current_block: int | None,
    new_ratings: Collection[str] = (),
) -> Roster:
    """Bring the league's ``stored`` bots up to date with ``spec``'s (see the module).

    ``games`` counts each seat's stored games (for messages), ``next_block`` is the block
    a joining bot starts in and ``current_block`` the block in progress, the one a bot
    retires in (None: none is). Raise :class:`ArenaError` naming the file for a bot whose
    version changed, or that left the file, and for a ``new_ratings`` name that is not
    one of the file's bots."""
    names = {bot.name for bot in spec.bots}
    unknown = sorted(set(new_ratings) - names)
    if unknown:
        raise ArenaError(
            f"{spec.path}: --new-rating {unknown[0]}: there is no bot of that name in the file"
        )
    latest: dict[str, LeagueBot] = {}
    for bot in stored:
        latest[bot.name] = bot
    gone = [bot for name, bot in latest.items() if name not in names]
    if gone:
        bot = gone[0]
        raise ArenaError(
            f'{spec.path}: bot "{bot.name}" has {_games(games.get(bot.seat, 0))} in this league '
            "but no [[bots]] table: its games and ratings stay in the league, so keep its "
            "table, with retired = true"
        )
    retire_at = current_block if current_block is not None else next_block
    seats = {bot.seat for bot in stored}
    bots = {bot.seat: bot for bot in stored}
    added: list[LeagueBot] = []
    retired: dict[str, int | None] = {}
    tables: dict[str, BotSpec] = {}
    for table in spec.bots:
        known = latest.get(table.name)
        if known is None and table.retired:
            continue
        runs = what_it_runs(table, spec, game_cls) if not table.retired else None
        if known is not None and (runs is None or digest(runs) == known.identity):
            want = retire_at if table.retired else None
            if (known.retired is None) != (want is None):
                retired[known.seat] = want
                bots[known.seat] = dataclasses.replace(known, retired=want)
            if not table.retired:
                tables[known.seat] = dataclasses.replace(table, name=known.seat)
            continue
        assert runs is not None
        version = 1
        if known is not None:
            if table.name not in new_ratings:
                raise ArenaError(_changed(spec, table.name, known, runs, games))
            version = known.version + 1
            if known.retired is None:
                retired[known.seat] = retire_at
                bots[known.seat] = dataclasses.replace(known, retired=retire_at)
        seat = seat_name(table.name, version)
        if seat in seats or (version > 1 and seat in names):
            raise ArenaError(
                f'{spec.path}: bot "{table.name}" version {version} would play as "{seat}", '
                "which is another bot's name in this league; rename one of them"
            )
        seats.add(seat)
        bot = LeagueBot(
            len(stored) + len(added) + 1,
            seat,
            table.name,
            version,
            digest(runs),
            runs,
            next_block,
            None,
        )
        added.append(bot)
        bots[seat] = bot
        tables[seat] = dataclasses.replace(table, name=seat)
    return Roster(tuple(bots.values()), tuple(added), retired, tables)


def _changed(
    spec: MatchSpec, name: str, known: LeagueBot, runs: Mapping[str, Any], games: Mapping[str, int]
) -> str:
    what = differences(known.runs, runs)
    shown = ", ".join(what[:3]) + (f" and {len(what) - 3} more" if len(what) > 3 else "")
    return (
        f'{spec.path}: bot "{name}" runs something else than the one its '
        f"{_games(games.get(known.seat, 0))} in this league were played by ({shown}): give "
        f"the new version a name of its own, or run with --new-rating {name} to rate it "
        f'afresh as "{seat_name(name, known.version + 1)}"'
    )


def _games(count: int) -> str:
    return f"{count} stored game" + ("" if count == 1 else "s")
