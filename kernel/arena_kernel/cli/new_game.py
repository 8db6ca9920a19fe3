"""``arena new-game NAME``: a new game plugin project, rendered from the kernel's template."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("new-game")
@click.argument("name")
@click.option(
    "-o",
    "--output",
    "parent",
    type=click.Path(path_type=Path),
    default=Path("."),
    help="The folder to create the project in (default: the current one).",
)
def new_game(name: str, parent: Path) -> None:
    """Write arena-NAME/, a game plugin project to start from.

    The game NAME is a small working game (guess the number) to replace with yours, with
    two built-in bots, the report's renderer, an example match file, tests, a README for
    bot authors and a tox set-up to test against any kernel version. It installs, plays
    and passes its tests as it is.
    """
    # Imported here: arena_kernel.cli.commands imports this module to add the command.
    from arena_kernel.cli.commands import user_errors
    from arena_kernel.scaffold.render import PluginNames, render_plugin

    with user_errors():
        names = PluginNames(name)
        project = render_plugin(names, parent)
    click.echo(
        f'wrote {project}: game "{names.name}", distribution {names.distribution}, '
        f"import package {names.package}. Try it:\n"
        f"  cd {project}\n"
        "  pip install -e '.[test]'\n"
        "  arena plugins\n"
        "  arena run examples/match.toml\n"
        "  pytest"
    )
