"""``arena runs`` and ``arena games``: what a database holds, as tables to find a run's id
or a game's id (for ``arena standings --run``, ``arena replay``, ``arena report``).

The store is imported when a command runs, so ``arena --help`` stays fast.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena_kernel.cli.tables import render

if TYPE_CHECKING:
    from arena_kernel.store.sqlite import GameDetail, RunRecord, Store

RESULT_WIDTH = 48
"""A game's result (its reason) is cut to this many characters in the games table."""


def timestamp(when: float) -> str:
    """A Unix time as the local date and time to the second, as ``arena replay`` shows it."""
    return datetime.datetime.fromtimestamp(when).isoformat(sep=" ", timespec="seconds")


def runs_rows(records: Sequence[RunRecord]) -> list[tuple[Any, ...]]:
    """The rows of ``arena runs``, in the order of :data:`RUNS_COLUMNS`."""
    return [
        (
            r.info.run_id,
            r.info.name,
            r.info.game,
            f"{r.info.done_games}/{r.info.total_games}",
            "no" if r.finished is None else "yes",
            timestamp(r.created),
            r.info.key,
        )
        for r in records
    ]


RUNS_COLUMNS = ("id", "name", "game", "games", "finished", "created", "key")


def fault_summary(game: GameDetail) -> str | None:
    """``3 (illegal 2, timeout 1)``: a game's faults, counted by kind; None without."""
    from arena_kernel.report.stats import by_count, fault_kinds

    if not game.faults:
        return None
    kinds = fault_kinds(by_count(str(fault.kind) for fault in game.faults))
    return f"{len(game.faults)} ({kinds})"


def result_text(game: GameDetail) -> str:
    """The game's reason, marked when it counts in no standings, cut to a table cell."""
    text = f"(void) {game.reason}" if game.void else game.reason
    return text if len(text) <= RESULT_WIDTH else text[: RESULT_WIDTH - 3] + "..."


GAMES_COLUMNS = (
    "id",
    "run",
    "index",
    "seating",
    "ranks",
    "result",
    "faults",
    "seconds",
    "sandbox",
)


def games_rows(games: Sequence[GameDetail]) -> list[tuple[Any, ...]]:
    """The rows of ``arena games``, in the order of :data:`GAMES_COLUMNS`."""
    from arena_kernel.store.runs import UNKNOWN_SANDBOX

    return [
        (
            g.game_id,
            g.run_id,
            g.index,
            ", ".join(g.seating),
            " ".join(str(rank) for rank in g.ranks),
            result_text(g),
            fault_summary(g),
            round(g.duration, 3),
            g.sandbox or UNKNOWN_SANDBOX,
        )
        for g in games
    ]


def check_bot(store: Store, bot: str, run_id: int | None) -> None:
    """Raise ArenaError unless ``bot`` is a bot of run ``run_id`` (or of any run): named
    by its match file or seated in one of its games."""
    from arena_kernel.errors import ArenaError

    runs = [run_id] if run_id is not None else [r.run_id for r in store.runs()]
    known: dict[str, None] = {}
    for run in runs:
        known.update(dict.fromkeys(str(b["name"]) for b in store.spec(run).get("bots", [])))
        known.update(dict.fromkeys(store.seated_bots(run)))
    if bot not in known:
        where = f"run {run_id} of {store.path}" if run_id is not None else str(store.path)
        names = ", ".join(known) or "none"
        raise ArenaError(f'no bot "{bot}" in {where} (its bots: {names})')


@click.command()
@click.argument("database", type=click.Path(path_type=Path))
def runs(database: Path) -> None:
    """List the runs stored in DATABASE: id, name, game, games stored of the schedule,
    whether every game was played, when the run was created, and its key.

    A run's id or key is what --run of the other commands takes.
    """
    # Imported here: arena_kernel.cli.commands imports this module to add the command.
    from arena_kernel.cli.commands import user_errors
    from arena_kernel.cli.database import open_database

    with user_errors(), open_database(database) as store:
        records = store.run_records()
    if not records:
        click.echo(f"no runs in {database}")
        return
    click.echo(render(RUNS_COLUMNS, runs_rows(records)))


@click.command()
@click.argument("database", type=click.Path(path_type=Path))
@click.option("--run", "run_ref", help="Only this run's games (id or key); default: every run.")
@click.option("--bot", help="Only the games this bot played.")
@click.option("--faults", is_flag=True, help="Only the games with a fault.")
@click.option("--limit", type=click.IntRange(min=1), help="At most this many (the first ones).")
def games(
    database: Path, run_ref: str | None, bot: str | None, faults: bool, limit: int | None
) -> None:
    """List the games stored in DATABASE by run and schedule index: id (what arena
    replay takes), run, index in the run's schedule, the bots in seat order, their
    ranks (1 wins), the result, the faults by kind, how long the game took (seconds) and
    the sandbox its bots ran under.
    """
    from arena_kernel.cli.commands import user_errors
    from arena_kernel.cli.database import open_database

    with user_errors(), open_database(database) as store:
        run_id = store.run(run_ref).run_id if run_ref else None
        if bot is not None:
            check_bot(store, bot, run_id)
        found = store.games(run_id, bot=bot, faulted=faults, limit=limit)
    if not found:
        click.echo("no games match")
        return
    click.echo(render(GAMES_COLUMNS, games_rows(found)))
