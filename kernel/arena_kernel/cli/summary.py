"""What ``arena run`` prints when it ends, and ``arena standings`` later from the database:
the scorers' tables, the games lost to faults, each bot's faults, the bots that failed to
come up (with the end of their stderr, which says why), and what the games' bots ran under.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import click

from arena_kernel.cli.tables import render

if TYPE_CHECKING:
    from arena_kernel.model import Standings
    from arena_kernel.runner.run import RunSummary
    from arena_kernel.store.runs import RunReads, StartupFaults

BOT_FAULTS_TITLE = "Faults by bot (every fault in the stored games)"

STARTUP_TITLE = "Start-up failures (games in which a bot answered nothing), the first of each bot"


class StoredFaults(NamedTuple):
    """A run's faults as the summary shows them, read from its database (as the report
    and ``arena export`` count them): each bot's by kind, and each bot's failures to come
    up."""

    by_bot: Sequence[tuple[str, Mapping[str, int]]]
    startup: Sequence[StartupFaults]

    @classmethod
    def read(cls, store: RunReads, run_id: int) -> StoredFaults:
        from arena_kernel.referee.startup import STARTUP_KINDS
        from arena_kernel.report.fault_counts import bot_faults

        return cls(bot_faults(store, run_id), store.startup_faults(run_id, STARTUP_KINDS))


def print_summary(summary: RunSummary, faults: StoredFaults, index: Path | None) -> None:
    """What ``arena run`` prints at its end: its line, the report's index (``index``, or
    None), why it stopped early, its errors (on stderr), then :func:`print_standings`."""
    run = summary.run
    click.echo(
        f"run {run.run_id} ({run.name}): {summary.played} games played now, "
        f"{summary.skipped} already stored, {run.total_games} in the schedule; "
        f"results in {run.database}"
    )
    if index is not None:
        click.echo(f"report: {index}")
    if summary.stopped is not None:
        click.echo(summary.stopped)
    for error in summary.errors:
        click.echo(f"arena: {error}", err=True)
    extra = [table for table in (summary.sprt, summary.format) if table is not None]
    tables = [*summary.standings, *extra]
    print_standings(tables, summary.faults, faults, summary.sandboxes)


def print_standings(
    standings: Sequence[Standings],
    lost: Standings | None,
    faults: StoredFaults,
    sandboxes: Mapping[str, int],
) -> None:
    """The scorers' tables, then (when any bot lost a game to a fault) the games lost to
    faults (``lost``), then every fault of each bot and its failures to come up
    (``faults``), then what the games' bots ran under (``sandboxes``: games per sandbox
    mode)."""
    for table in [*standings, *([lost] if lost else [])]:
        click.echo("")
        click.echo(table.title)
        click.echo(render(table.columns, table.rows))
        for note in table.notes:
            click.echo(f"  note: {note}")
    click.echo("")
    click.echo("\n".join(bot_fault_lines(faults.by_bot)))
    if faults.startup:
        click.echo("")
        click.echo("\n".join(startup_lines(faults.startup)))
    if sandboxes:
        counts = (f"{mode} ({n} game{_s(n)})" for mode, n in sandboxes.items())
        click.echo("")
        click.echo(f"sandbox: {', '.join(counts)}")


def bot_fault_lines(bot_faults: Sequence[tuple[str, Mapping[str, int]]]) -> list[str]:
    """Each bot's faults, of every kind and however many a game held: the bots with any,
    most first (ties in the order given: the match file's), with their count by kind;
    ``faults: none`` when no bot made one. The games lost to faults say what the faults
    cost; this says how unreliable each bot was, also in games it won or that went on."""
    from arena_kernel.report.fault_counts import fault_kinds

    counted = [(bot, sum(kinds.values()), kinds) for bot, kinds in bot_faults]
    faulty = sorted((row for row in counted if row[1]), key=lambda row: -row[1])
    if not faulty:
        return ["faults: none"]
    rows = [(bot, count, fault_kinds(kinds)) for bot, count, kinds in faulty]
    return [BOT_FAULTS_TITLE, render(("bot", "faults", "by kind"), rows)]


def startup_lines(startup: Sequence[StartupFaults]) -> list[str]:
    """Each bot that failed to come up: in how many games, and the first one's id (what
    ``arena replay`` takes) and fault, whose reason ends with the end of the bot's
    stderr. A count by kind cannot tell a missing class from a wrong path; this can."""
    return [STARTUP_TITLE] + [
        f"{f.bot} ({f.games} game{_s(f.games)}), game {f.game_id}: {f.fault}" for f in startup
    ]


def _s(count: int) -> str:
    return "" if count == 1 else "s"
