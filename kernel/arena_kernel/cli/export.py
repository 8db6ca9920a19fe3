"""``arena export``: a database's runs, games, seats, faults and per-bot figures as JSON or
CSV, for spreadsheets, notebooks and other tools (event logs stay in the database).

The rows are the same in both formats: :func:`export_tables` builds them, one flat dict
per row with the columns of :data:`COLUMNS`; JSON keeps their types, CSV writes booleans
as ``true``/``false``, a missing value as an empty cell and a game's ``details`` and
``extra`` as JSON text.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena_kernel.cli.league import LADDER_COLUMNS, RATINGS_COLUMNS, export_rows
from arena_kernel.errors import ArenaError
from arena_kernel.model import FaultKind

if TYPE_CHECKING:
    from arena_kernel.store.sqlite import Store

FAULT_COLUMNS = tuple(f"faults_{kind.value}" for kind in FaultKind)
"""A bot's faults by kind: one column per kind, so that every bot row has the same ones."""

COLUMNS: dict[str, tuple[str, ...]] = {
    "runs": (
        "id",
        "key",
        "name",
        "game",
        "total_games",
        "stored_games",
        "created",
        "finished",
        "spec",
    ),
    "games": (
        "id",
        "run_id",
        "index",
        "session",
        "seed",
        "started_at",
        "duration",
        "reason",
        "void",
        "details",
        "extra",
        "sandbox",
    ),
    "seats": ("game_id", "seat", "bot", "rank", "score", "disqualified", "stderr_log"),
    "faults": ("game_id", "seat", "bot", "kind", "detail", "at"),
    "bots": (
        "run_id",
        "bot",
        "games",
        "faults",
        *FAULT_COLUMNS,
        "replies",
        "reply_mean",
        "reply_p95",
        "reply_max",
        "cpu_replies",
        "cpu_mean",
        "cpu_p95",
        "cpu_max",
        "cpu_share",
        "idle_mean",
        "timeouts",
        "late",
    ),
    "ladder": LADDER_COLUMNS,
    "ratings": RATINGS_COLUMNS,
}
"""Each table's columns, in order: the JSON objects' keys, the CSV files' header rows."""


def export_tables(store: Store, run_id: int | None) -> dict[str, list[dict[str, Any]]]:
    """The rows of every table of :data:`COLUMNS`, for run ``run_id`` or every run: runs by
    id, games by run and schedule index, seats in seat order, faults in the order they
    happened, bots in each run's match-file order, a league's ladder best first and its
    ratings by block."""
    from arena_kernel.report.stats import bot_stats

    records = [r for r in store.run_records() if run_id in (None, r.info.run_id)]
    tables: dict[str, list[dict[str, Any]]] = {name: [] for name in COLUMNS}
    for record in records:
        info = record.info
        tables["runs"].append(
            {
                "id": info.run_id,
                "key": info.key,
                "name": info.name,
                "game": info.game,
                "total_games": info.total_games,
                "stored_games": info.done_games,
                "created": record.created,
                "finished": record.finished,
                "spec": store.spec(info.run_id),
            }
        )
        for stats in bot_stats(store, info.run_id):
            tables["bots"].append(
                {
                    "run_id": info.run_id,
                    "bot": stats.bot,
                    "games": stats.games,
                    "faults": stats.fault_count,
                    **{
                        f"faults_{kind.value}": stats.faults.get(kind.value, 0)
                        for kind in FaultKind
                    },
                    "replies": stats.replies,
                    "reply_mean": stats.reply_mean,
                    "reply_p95": stats.reply_p95,
                    "reply_max": stats.reply_max,
                    "cpu_replies": stats.cpu_replies,
                    "cpu_mean": stats.cpu_mean,
                    "cpu_p95": stats.cpu_p95,
                    "cpu_max": stats.cpu_max,
                    "cpu_share": stats.cpu_share,
                    "idle_mean": stats.idle_mean,
                    "timeouts": stats.timeouts,
                    "late": stats.late,
                }
            )
    for name, rows in export_rows(store, [r.info.run_id for r in records]).items():
        tables[name] += rows
    for game in store.games(run_id):
        tables["games"].append(
            {
                "id": game.game_id,
                "run_id": game.run_id,
                "index": game.index,
                "session": game.session,
                "seed": game.seed,
                "started_at": game.started_at,
                "duration": game.duration,
                "reason": game.reason,
                "void": game.void,
                "details": game.details,
                "extra": game.extra,
                "sandbox": game.sandbox,
            }
        )
        for seat, bot in enumerate(game.seating):
            tables["seats"].append(
                {
                    "game_id": game.game_id,
                    "seat": seat,
                    "bot": bot,
                    "rank": game.ranks[seat],
                    "score": None if game.scores is None else game.scores[seat],
                    "disqualified": seat in game.disqualified,
                    "stderr_log": game.stderr_logs.get(seat),
                }
            )
        for fault in game.faults:
            tables["faults"].append(
                {
                    "game_id": game.game_id,
                    "seat": fault.seat,
                    "bot": None if fault.seat is None else game.seating[fault.seat],
                    "kind": str(fault.kind),
                    "detail": fault.detail,
                    "at": fault.at,
                }
            )
    return tables


def csv_cell(value: Any) -> Any:
    """How a value is written in a CSV cell (floats as Python writes them: exact)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True)
    return value


def write_csv(tables: dict[str, list[dict[str, Any]]], folder: Path) -> None:
    """One ``<table>.csv`` per table in ``folder`` (made if missing), header row first."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, rows in tables.items():
            path = folder / f"{name}.csv"
            with path.open("w", newline="", encoding="utf-8") as out:
                writer = csv.writer(out)
                writer.writerow(COLUMNS[name])
                writer.writerows(_cells(rows, COLUMNS[name]))
    except OSError as exc:
        raise ArenaError(f"cannot write the export into {folder}: {exc.strerror or exc}") from None


def _cells(rows: Iterable[dict[str, Any]], columns: tuple[str, ...]) -> Iterable[list[Any]]:
    for row in rows:
        yield [csv_cell(row[column]) for column in columns]


def write_json(tables: dict[str, list[dict[str, Any]]], output: Path | None) -> None:
    """One JSON document: to ``output``, or to stdout."""
    if output is None:
        json.dump(tables, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return
    try:
        with output.open("w", encoding="utf-8") as out:
            json.dump(tables, out, indent=1)
            out.write("\n")
    except OSError as exc:
        raise ArenaError(f"cannot write {output}: {exc.strerror or exc}") from None


@click.command()
@click.argument("database", type=click.Path(path_type=Path))
@click.option("--run", "run_ref", help="Only this run (id or key); default: every run.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "csv"]),
    required=True,
    help="json: one document; csv: a folder of files, one per table.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="json: the file to write (default: stdout); csv: the folder (required).",
)
def export(database: Path, run_ref: str | None, fmt: str, output: Path | None) -> None:
    """Export DATABASE's runs, games, seats, faults and per-bot figures, and each league's
    ladder and ratings over time.

    json writes one document {"runs": [...], "games": [...], "seats": [...], "faults":
    [...], "bots": [...], "ladder": [...], "ratings": [...]}; csv writes runs.csv,
    games.csv, seats.csv, faults.csv, bots.csv, ladder.csv and ratings.csv, each with a
    header row. A bot's row holds its games, its faults (all, and
    per kind), its replies with their mean, 95th percentile and longest time (seconds),
    on a CPU-time clock the same of their CPU times, its share of CPU time in its reply
    time and its mean time not running, its timeouts and late replies. A league's ladder
    row holds each bot's place, rating and interval, games and status; its ratings rows
    hold each bot's rating and interval after each block. Existing files of the same
    names are replaced.
    """
    # Imported here: arena_kernel.cli.commands imports this module to add the command.
    from arena_kernel.cli.commands import user_errors
    from arena_kernel.cli.database import open_database

    with user_errors():
        if fmt == "csv" and output is None:
            raise ArenaError("--format csv writes a folder of files: name it with -o DIR")
        with open_database(database) as store:
            run_id = store.run(run_ref).run_id if run_ref else None
            tables = export_tables(store, run_id)
        if fmt == "json":
            write_json(tables, output)
        else:
            assert output is not None  # refused above
            write_csv(tables, output)
    if output is not None:
        counts = ", ".join(f"{len(rows)} {name}" for name, rows in tables.items())
        click.echo(f"wrote {output}: {counts}")
