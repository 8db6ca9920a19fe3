"""The ``arena`` commands (click): run matches, list plugins, show standings and replays,
write starter files. :mod:`arena_kernel.cli.main` is the entry point that runs them.

Each command imports what it needs when it runs: ``arena --help`` or ``arena replay`` load
no plugin, no game and no runner (see benchmarks/cli_startup.py).
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from arena_kernel import __version__
from arena_kernel.cli.options import plugin_option
from arena_kernel.cli.tables import render
from arena_kernel.cli.usage_errors import ArenaGroup
from arena_kernel.errors import ArenaError
from arena_kernel.registries.report import DISABLE_VARIABLE, PluginWarning

if TYPE_CHECKING:
    from arena_kernel.registries.manager import ArenaPluginManager
    from arena_kernel.registries.registry import Registries
    from arena_kernel.scoring.base import Scorer


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn an ArenaError into one line on stderr and exit status 2, never a traceback."""
    try:
        yield
    except ArenaError as exc:
        click.echo(f"arena: error: {exc}", err=True)
        sys.exit(2)


def registries_with(
    plugins: tuple[str, ...], *, installed: bool = True, kinds: Sequence[str] | None = None
) -> tuple[ArenaPluginManager, Registries]:
    """The built-ins, ``plugins`` and (``installed``) the installed plugins, loaded: every
    kind of class they register, or only ``kinds``."""
    from arena_kernel.registries.manager import get_plugin_manager, load_registries

    pm = get_plugin_manager(entry_points=installed, extra=plugins)
    return pm, load_registries(pm, kinds)


def scorer_registries(plugins: tuple[str, ...], scorers: Sequence[str]) -> Registries:
    """Registries that have ``scorers`` (and nothing else registered): the built-ins and
    ``plugins`` have the usual ones, and only a scorer none of them has makes the
    installed plugins load."""
    _pm, registries = registries_with(plugins, installed=False, kinds=("scorer",))
    if all(name in registries.scorers for name in scorers):
        return registries
    return registries_with(plugins, kinds=("scorer",))[1]


def scorer_classes(
    plugins: tuple[str, ...], scorers: Sequence[str]
) -> Callable[[str], type[Scorer]]:
    """How ``scorers`` are found by name: the built-in ones straight from their modules
    when no ``plugins`` are given (the registries of :func:`scorer_registries` would hold
    the built-ins alone), else a registry's ``cls``."""
    from arena_kernel.scoring.builtin_classes import BUILTIN_SCORERS, builtin_scorer

    if not plugins and all(name in BUILTIN_SCORERS for name in scorers):
        return builtin_scorer
    return scorer_registries(plugins, scorers).scorers.cls


LAZY_COMMANDS = {
    "run": "arena_kernel.cli.run:run",
    "new-game": "arena_kernel.cli.new_game:new_game",
    "runs": "arena_kernel.cli.listings:runs",
    "games": "arena_kernel.cli.listings:games",
    "export": "arena_kernel.cli.export:export",
    "report": "arena_kernel.cli.report:report",
    "check-bot": "arena_kernel.cli.check_bot:check_bot",
}
"""The commands of modules of their own, imported when they are named (or listed)."""


@click.group(
    cls=ArenaGroup,
    lazy=LAZY_COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="arena")
def cli() -> None:
    """arena: a referee and tournament runner for game-playing programs."""


@cli.command(
    epilog=f"{DISABLE_VARIABLE}: a comma-separated list of entry point or distribution names "
    f"(e.g. {DISABLE_VARIABLE}=stones,arena-liarsdice) of installed plugins that no arena "
    "command loads; this command lists them as disabled. It silences a broken plugin."
)
@plugin_option
def plugins(plugins: tuple[str, ...]) -> None:
    """List every registered game, codec, transport and scorer, and who supplied it.

    Installed plugins that are left out are listed last: broken ones (they failed to
    load; the reason is shown, and every command works without them) and disabled ones.
    """
    from arena_kernel.cli.plugin_listing import plugin_listing
    from arena_kernel.sandbox.trial import sandbox_works

    with user_errors():
        listing = plugin_listing(plugins)
    for kind, rows in listing.kinds.items():
        click.echo(f"{kind}s:")
        click.echo(render(("name", "from", "summary"), rows) if rows else "  (none)")
        click.echo("")
    if listing.left_out:
        click.echo("plugins left out:")
        click.echo(render(("entry point", "from", "status"), listing.left_out))
        click.echo("")
    if not sandbox_works():
        from arena_kernel.sandbox.probe import probe

        click.echo(f"warning: {probe().describe()}")


@cli.command()
@click.argument("database", type=click.Path(path_type=Path))
@click.option("--run", "run_ref", help="Run id or key (default: the latest run).")
@plugin_option
def standings(database: Path, run_ref: str | None, plugins: tuple[str, ...]) -> None:
    """Print the standings of a run stored in DATABASE, and each bot's faults."""
    from arena_kernel.cli.stored_standings import stored_standings
    from arena_kernel.cli.summary import print_standings

    with user_errors():
        stored = stored_standings(database, run_ref, plugins)
    run = stored.run
    click.echo(
        f"run {run.run_id} ({run.name}, game {run.game}): "
        f"{run.done_games} of {run.total_games} games stored"
    )
    print_standings(stored.tables, stored.standings.faults, stored.faults, stored.sandboxes)


@cli.command()
@click.argument("database", type=click.Path(path_type=Path))
@click.argument("game_id", type=int)
def replay(database: Path, game_id: int) -> None:
    """Print the transcript of game GAME_ID stored in DATABASE: every message, with times.

    DATABASE may also be a file of game records (arena export --format records)."""
    from arena_kernel.cli.database import is_database, open_database
    from arena_kernel.cli.transcript import record_transcript, transcript

    with user_errors():
        if database.is_file() and not is_database(database):
            click.echo(record_transcript(database, game_id))
            return
        with open_database(database) as store:
            click.echo(transcript(store, game_id))


@cli.command()
@click.argument("game")
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Write here instead of stdout."
)
@plugin_option
def init(game: str, output: Path | None, plugins: tuple[str, ...]) -> None:
    """Write a commented starter match file for GAME."""
    from arena_kernel.match.starter import starter_file

    with user_errors():
        _pm, registries = registries_with(plugins)
        text = starter_file(game, registries, plugins)
        if output is None:
            click.echo(text, nl=False)
            return
        if output.exists():
            raise ArenaError(f"{output} already exists; not overwriting it")
        if not output.parent.is_dir():
            raise ArenaError(f"cannot write {output}: there is no folder {output.parent}")
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ArenaError(f"cannot write {output}: {exc.strerror or exc}") from None
    click.echo(f"wrote {output}; run it with: arena run {output}")


@cli.command()
def doctor() -> None:
    """Check whether this machine can run bots sandboxed.

    It says whether bwrap works here (and its version), what caps a sandboxed bot's
    processes, whether the commands bots are started through are installed, and how
    many plugins are installed.

    Exits 0 when a run with [sandbox] mode = "required" would start here (bwrap works,
    each sandboxed bot's processes can be capped, setpriv and prlimit are installed),
    1 otherwise.
    """
    from arena_kernel.cli.doctor import checkup

    with user_errors():
        pm, _registries = registries_with(())
    sys.exit(0 if checkup(pm) else 1)


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
    *,
    _default: Any = warnings.showwarning,
) -> None:
    """A plugin's failure is one line, like the command's own errors; other warnings keep
    Python's form (with the place that issued them)."""
    if issubclass(category, PluginWarning):
        # On a terminal, over the progress line (redrawn when a game ends next).
        clear = "\r\x1b[K" if sys.stderr.isatty() else ""
        click.echo(f"{clear}arena: warning: {message}", err=True)
    else:
        _default(message, category, filename, lineno, file, line)


def run_cli() -> None:
    """Run the command line: plugin warnings as one line each (see :func:`_show_warning`)."""
    warnings.showwarning = _show_warning
    cli(prog_name="arena")
