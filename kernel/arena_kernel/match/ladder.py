"""A league's ladder: every bot it has had, ranked by its Plackett-Luce rating over every
counted game, with its interval, its games and whether it still plays. What ``arena run``
and ``arena standings`` print for a league, ``arena export`` writes, the report shows
and a final is seeded by."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena_kernel.model import Standings
from arena_kernel.scoring.base import GameResult
from arena_kernel.scoring.league_ratings import LeagueTally, fit_league
from arena_kernel.store.league import LeagueBlock, LeagueBot
from arena_kernel.store.sqlite import Store


@dataclass(frozen=True)
class Rung:
    """One bot's place on the ladder: ``place`` from 1 (None: no rating yet), its rating
    and the half-width of its 95 % interval (None without a rating), its counted games,
    and its status: ``"plays"``, ``"retired"``, ``"out"`` (disqualified) or ``"joins"``
    (no block of the league has been planned since it joined)."""

    place: int | None
    bot: LeagueBot
    rating: float | None
    error: float | None
    games: int
    status: str


def ladder(
    results: Sequence[GameResult],
    bots: Sequence[LeagueBot],
    blocks: Sequence[LeagueBlock],
    disqualified: set[str],
) -> list[Rung]:
    """The ladder of a league's stored ``results``: rated bots best first (ties by the
    league's order), then those without a rating in the league's order."""
    tally = LeagueTally()
    tally.add(results)
    ratings = fit_league(tally).ratings()
    planned = len(blocks)

    def status(bot: LeagueBot) -> str:
        if bot.seat in disqualified:
            return "out"
        if bot.retired is not None:
            return "retired"
        return "plays" if bot.joined < planned else "joins"

    rated = sorted((b for b in bots if b.seat in ratings), key=lambda b: -ratings[b.seat].elo)
    rungs = [
        Rung(
            place,
            bot,
            ratings[bot.seat].elo,
            ratings[bot.seat].error,
            tally.games.get(bot.seat, 0),
            status(bot),
        )
        for place, bot in enumerate(rated, 1)
    ]
    rungs += [
        Rung(None, bot, None, None, tally.games.get(bot.seat, 0), status(bot))
        for bot in bots
        if bot.seat not in ratings
    ]
    return rungs


def ladder_table(rungs: Sequence[Rung], blocks: Sequence[LeagueBlock], games: int) -> Standings:
    """The ladder as a standings table, titled with how far the league is."""
    rows = [
        (
            rung.place,
            rung.bot.seat,
            None if rung.rating is None else round(rung.rating, 1),
            None if rung.error is None else round(rung.error, 1),
            rung.games,
            rung.status,
            _first_index(rung.bot, blocks),
        )
        for rung in rungs
    ]
    return Standings(
        f"League: {games} games stored, {len(blocks)} block" + ("" if len(blocks) == 1 else "s"),
        ("place", "bot", "rating", "±95%", "games", "status", "joined at game"),
        rows,
        notes=[
            "rating: Plackett-Luce over every counted game (Elo scale, 95% interval); a "
            "retired bot keeps its rating and its place"
        ],
    )


def _first_index(bot: LeagueBot, blocks: Sequence[LeagueBlock]) -> int | None:
    """The index of the first game of the block ``bot`` joined in (None: not planned)."""
    if bot.joined < len(blocks):
        return blocks[bot.joined].first_index
    return None


def top(rungs: Sequence[Rung], count: int) -> list[LeagueBot]:
    """The ``count`` best rated bots that still play (a final's bots, in seed order)."""
    return [rung.bot for rung in rungs if rung.place is not None and rung.status == "plays"][:count]


def stored_ladder(store: Store, run_id: int) -> tuple[list[Rung], Standings]:
    """The ladder of the league stored as run ``run_id``, and its table."""
    results = store.results(run_id)
    blocks = store.league_blocks(run_id)
    rungs = ladder(results, store.league_bots(run_id), blocks, store.disqualified(run_id))
    return rungs, ladder_table(rungs, blocks, len(results))
