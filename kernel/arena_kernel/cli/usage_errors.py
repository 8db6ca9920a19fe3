"""A command line arena cannot read (a missing option, an unknown command, a bad value)
is said as every other user error is: one ``arena: error: ...`` line and exit status 2,
naming the command and where its help is, instead of click's block of usage lines."""

from __future__ import annotations

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
    """The ``arena`` group: its own and its commands' usage errors on one line."""

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
