"""``arena report``: a database's runs as a static HTML site, each game with its replay.

The command imports the report's code only when it runs, so ``arena --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path

import click

from arena_kernel.cli.options import plugin_option


@click.command()
@click.argument("database", type=click.Path(path_type=Path))
@click.option("--run", "run_ref", help="Only this run (id or key); default: every run.")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    required=True,
    help="The folder to write the site into (made if missing; open its index.html).",
)
@plugin_option
def report(database: Path, run_ref: str | None, output: Path, plugins: tuple[str, ...]) -> None:
    """Write DATABASE's runs as a static HTML site in OUTPUT: a page per run (standings
    with error bars, cross-table, faults, reply times, ratings over the games, the games
    list) and a page per game with its replay, move by move.

    DATABASE may also be a file of game records (arena export --format records): its
    games keep their ids, and the run pages show what records hold (no clocks, limits,
    scorers' settings or stderr logs: those stay in the database). A game of a plugin
    module its match file named is drawn with that module given by --plugin.

    The site needs no server and no network: open OUTPUT/index.html in a browser.
    """
    from arena_kernel.cli.commands import user_errors
    from arena_kernel.cli.database import is_database, open_database
    from arena_kernel.report.site import write_report
    from arena_kernel.store.records import records_database

    with user_errors():
        if database.is_file() and not is_database(database):
            with records_database(database) as copy:
                index = write_report(copy, output, run=run_ref, plugins=plugins, shown_as=database)
        else:
            open_database(database).close()
            index = write_report(database, output, run=run_ref, plugins=plugins)
    click.echo(f"wrote {index}")
