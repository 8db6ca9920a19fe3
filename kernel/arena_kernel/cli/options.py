"""Options that several ``arena`` commands share, declared once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

Command = TypeVar("Command", bound=Callable[..., Any])


def plugin_option(f: Command) -> Command:
    """``-p/--plugin MODULE`` (repeatable): plugin modules to load beyond the installed."""
    return click.option(
        "-p",
        "--plugin",
        "plugins",
        multiple=True,
        metavar="MODULE",
        help="Also load this plugin module (repeatable), e.g. arena_kernel.testing.games.",
    )(f)
