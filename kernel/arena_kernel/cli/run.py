"""``arena run``: play a match file's games, show their progress, print the standings.

A command of its own module (:data:`arena_kernel.cli.commands.LAZY_COMMANDS`): the commands
that play no game pay nothing for its options and their league's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from arena_kernel.cli.league import league_options, prepared_run
from arena_kernel.cli.options import plugin_option


@click.command()
@click.argument("match_file", type=click.Path(path_type=Path), required=False)
@plugin_option
@click.option("--concurrency", "-j", type=click.IntRange(min=1), help="Games at once.")
@click.option("--quiet", "-q", is_flag=True, help="No progress line.")
@click.option(
    "--report",
    "report_dir",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    help="Keep the run's HTML report (arena report) in DIR while it plays: written at the "
    "start, refreshed at most every 5 s as games end, and at the end.",
)
@click.option(
    "--standings-every",
    type=click.IntRange(min=1),
    metavar="N",
    help="Print every scorer's table (on stderr) each time N more games are stored.",
)
@click.option(
    "--executor",
    metavar="NAME",
    help='Where the games are played: "local" (this machine) or "dask" (a Dask cluster); '
    "overrides the match file's executor.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="The Dask scheduler to play on (tcp://HOST:8786): the executor's scheduler option.",
)
@league_options
def run(
    match_file: Path | None,
    plugins: tuple[str, ...],
    concurrency: int | None,
    quiet: bool,
    report_dir: Path | None,
    standings_every: int | None,
    executor: str | None,
    scheduler: str | None,
    games: int | None,
    until: str | None,
    new_ratings: tuple[str, ...],
    from_league: Path | None,
    top: int | None,
) -> None:
    """Play the games of MATCH_FILE that are not stored yet, then print the standings and
    each bot's faults.

    Running the same file again resumes: finished games are skipped, games that were
    interrupted are replayed from their start.

    With --executor dask the games are played by the workers of a Dask cluster (the one
    at --scheduler, or one started on this machine for the run) and stored here; the same
    file plays the same games either way, and a run resumes with either executor.

    On stderr, the progress: games stored of the schedule, games per second, faults so
    far and the leader by the run's ranking scorer. On a terminal it is one line redrawn
    in place; without one (a log, a pipe) it is one line at the end of the run, and one a
    minute before that while a long run plays.

    A league (format = "league") plays until told to stop: --games N, --until TIME or
    Ctrl-C; run again, it goes on where it stopped, with the bots its file has then
    (docs/league.md). --from-league DB --top N plays the final of the league stored in
    DB among the N best bots of its ladder, as a run of its own in DB (no MATCH_FILE).
    """
    # Imported here: arena_kernel.cli.commands imports this module to add the command.
    from arena_kernel.cli.commands import user_errors
    from arena_kernel.cli.interrupts import interrupted
    from arena_kernel.cli.league import sitting_of
    from arena_kernel.cli.progress import ProgressReport, Ranking
    from arena_kernel.cli.summary import StoredFaults, print_summary
    from arena_kernel.runner.api import run_prepared
    from arena_kernel.store.sqlite import Store

    with user_errors():
        prepared = prepared_run(
            match_file,
            plugins,
            from_league,
            top,
            concurrency=concurrency,
            executor=executor,
            executor_options={"scheduler": scheduler} if scheduler is not None else None,
        )
        sitting = sitting_of(games, until, new_ratings)
        ranking = Ranking.of(prepared.spec, prepared.registries)
        spec = prepared.spec
        progress = ProgressReport(
            spec.name,
            bar=not quiet,
            ranking=ranking,
            standings_every=standings_every,
            scorers=[(name, prepared.registries.scorers.cls(name)) for name in spec.scorers],
            bots=[bot.name for bot in spec.bots],
        )
        observers: list[object] = [progress]
        live = None
        if report_dir is not None:
            from arena_kernel.cli.live_report import LiveReport

            live = LiveReport(report_dir, plugins)
            observers.append(live)
        try:
            try:
                summary = run_prepared(prepared, observers, sitting)
            finally:
                # Before any message that follows: it then starts a line of its own.
                progress.finish()
                index = live.finish() if live is not None else None
        except KeyboardInterrupt:
            # The run ended its bots; the entry point prints the line.
            raise interrupted() from None
        with Store(summary.run.database) as store:
            faults = StoredFaults.read(store, summary.run.run_id)
    print_summary(summary, faults, index)
    sys.exit(1 if summary.errors else 0)
