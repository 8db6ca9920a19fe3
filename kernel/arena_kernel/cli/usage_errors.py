"""A command line arena cannot read (a missing option, an unknown command, a bad value)
is said as every other user error is: one ``arena: error: ...`` line and exit status 2,
naming the command and where its help is, instead of click's block of usage lines."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import IO, Any

import click


class OneLineUsageError(click.UsageError):
    """A :class:`click.UsageError` shown on one line."""

    def show(self, file: IO[Any] | None = None) -> None:
        command = self.ctx.command_path if self.ctx is not None else "arena"
        message = self.format_message().strip().rstrip(".")
        message = message[:1].lower() + message[1:].replace(". (Did you mean", " (did you mean")
        click.echo(f"arena: error: {command}: {message} (see {command} --help)", err=True)


def one_line(exc: click.UsageError) -> OneLineUsageError:
    """``exc`` as a :class:`OneLineUsageError` of the same command."""
    return OneLineUsageError(exc.format_message(), exc.ctx)


class ArenaGroup(click.Group):
    """The ``arena`` group: its own and its commands' usage errors on one line.

    ``lazy`` commands (name to ``module:attribute``) are imported when named, or listed
    by ``--help``: a command pays for no other command's module (``arena plugins`` for
    no ``arena export``, its CSV and its model of faults). An unknown name loads them all,
    so that "did you mean" knows every command.
    """

    def __init__(self, *args: Any, lazy: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            for name in [cmd_name] if cmd_name in self.lazy else list(self.lazy):
                module, _, attribute = self.lazy.pop(name).partition(":")
                self.add_command(getattr(importlib.import_module(module), attribute), name)
        return super().get_command(ctx, cmd_name)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except OneLineUsageError:
            raise
        except click.UsageError as exc:
            raise one_line(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OneLineUsageError:
            raise
        except click.UsageError as exc:
            raise one_line(exc) from None
