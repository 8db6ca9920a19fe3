"""A league's own records beside its run's games: its bots as it knows them, its blocks
as planned, and each bot's rating after each block (the tables are in
:mod:`arena_kernel.store.schema`).

A league bot is keyed by what it runs, not only by its name: its ``identity`` is a digest
of its command and files (:mod:`arena_kernel.match.league`), and a new version under the
same name is a bot of its own, its games stored under a seat name of its own (``alice
v2``), so that every standings, report and export tells the two apart without knowing
of leagues.

A block's games are stored as planned, before the first of them is played: a league
stopped in the middle of a block finishes that very block when it goes on, whoever joined
meanwhile, and what was planned stays readable beside what was played.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from arena_kernel.store.runs import RunReads

if TYPE_CHECKING:
    from arena_kernel.scoring.league_ratings import RatingPoint


@dataclass(frozen=True)
class LeagueBot:
    """One bot of a league: ``seat`` names it in the games (its ``[[bots]]`` ``name``,
    with `` vN`` from its second version on); ``runs`` says what it runs (its command,
    its files with their digests), ``identity`` is the digest of that. It may play from
    block ``joined`` on, and no more from block ``retired`` (None: it plays)."""

    number: int
    seat: str
    name: str
    version: int
    identity: str
    runs: dict[str, Any]
    joined: int
    retired: int | None


@dataclass(frozen=True)
class LeagueBlock:
    """One block of a league as planned: its games are the indexes from ``first_index``
    on, one per seating of ``games`` (the bots in seat order); ``bots`` are those that
    could play in it."""

    block: int
    first_index: int
    bots: tuple[str, ...]
    games: tuple[tuple[str, ...], ...]

    @property
    def indexes(self) -> range:
        return range(self.first_index, self.first_index + len(self.games))


class LeagueRecords(RunReads):
    """The league tables of an arena database (:class:`~arena_kernel.store.sqlite.Store`
    has them)."""

    def league_bots(self, run_id: int) -> list[LeagueBot]:
        """The league's bots in the order it registered them."""
        rows = self._read(
            "SELECT number, seat, name, version, identity, runs, joined, retired"
            " FROM league_bots WHERE run_id = ? ORDER BY number",
            (run_id,),
        )
        return [
            LeagueBot(number, seat, name, version, identity, json.loads(runs), joined, retired)
            for number, seat, name, version, identity, runs, joined, retired in rows
        ]

    def add_league_bots(self, run_id: int, bots: Iterable[LeagueBot]) -> None:
        """Register ``bots`` (numbered by the caller, after those stored)."""
        with self._write() as db:
            db.executemany(
                "INSERT INTO league_bots VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        run_id,
                        bot.number,
                        bot.seat,
                        bot.name,
                        bot.version,
                        bot.identity,
                        json.dumps(bot.runs, sort_keys=True),
                        bot.joined,
                        bot.retired,
                    )
                    for bot in bots
                ],
            )

    def retire_league_bots(self, run_id: int, retired: dict[str, int | None]) -> None:
        """Set each seat's ``retired`` block (None: it plays again)."""
        with self._write() as db:
            db.executemany(
                "UPDATE league_bots SET retired = ? WHERE run_id = ? AND seat = ?",
                [(block, run_id, seat) for seat, block in retired.items()],
            )

    def league_blocks(self, run_id: int) -> list[LeagueBlock]:
        """The league's blocks, first first."""
        rows = self._read(
            "SELECT block, first_index, bots, games FROM league_blocks"
            " WHERE run_id = ? ORDER BY block",
            (run_id,),
        )
        return [
            LeagueBlock(
                block,
                first,
                tuple(json.loads(bots)),
                tuple(tuple(seating) for seating in json.loads(games)),
            )
            for block, first, bots, games in rows
        ]

    def add_league_block(self, run_id: int, block: LeagueBlock, total_games: int) -> None:
        """Store a block as planned, and the run's ``total_games`` (every game planned)."""
        with self._write() as db:
            db.execute(
                "INSERT INTO league_blocks VALUES (?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    block.block,
                    block.first_index,
                    json.dumps(list(block.bots)),
                    json.dumps([list(seating) for seating in block.games]),
                    time.time(),
                ),
            )
            db.execute("UPDATE runs SET total_games = ? WHERE id = ?", (total_games, run_id))

    def rating_history(self, run_id: int) -> list[RatingPoint]:
        """Every bot's rating after each block, by block, best first within one."""
        rows = self._read(
            "SELECT block, games, bot, rating, error, bot_games FROM league_ratings"
            " WHERE run_id = ? ORDER BY block, rating DESC, bot",
            (run_id,),
        )
        from arena_kernel.scoring.league_ratings import RatingPoint  # only for a league

        return [RatingPoint(*row) for row in rows]

    def add_ratings(self, run_id: int, points: Sequence[RatingPoint]) -> None:
        """Store the ratings after a block (kept as they are if already stored: they are
        a function of the block's games)."""
        with self._write() as db:
            db.executemany(
                "INSERT INTO league_ratings VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [(run_id, p.block, p.bot, p.games, p.rating, p.error, p.bot_games) for p in points],
            )

    def games_by_seat(self, run_id: int) -> dict[str, int]:
        """How many of the run's stored games each seat name sat in (void ones too)."""
        rows = self._read(
            "SELECT s.bot, count(DISTINCT s.game_id) FROM games g"
            " JOIN seats s ON s.game_id = g.id WHERE g.run_id = ? GROUP BY s.bot",
            (run_id,),
        )
        return {bot: count for bot, count in rows}

    def update_spec(self, run_id: int, spec: dict[str, Any]) -> None:
        """Replace the run's stored settings: a league's match file gains and retires bots
        between its runs, and its record says what the latest run played with."""
        with self._write() as db:
            db.execute(
                "UPDATE runs SET spec = ? WHERE id = ?",
                (json.dumps(spec, sort_keys=True, default=str), run_id),
            )
