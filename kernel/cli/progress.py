"""The progress report of ``arena run``: an observer plugin on the run's notification hooks."""

from __future__ import annotations

import sys
from typing import Any

import click

from arena_kernel.markers import hookimpl
from arena_kernel.model import GameRecord, RunInfo, ScheduledGame

SANDBOX_MEANS = {
    "bwrap": "every bot the arena starts runs in a bubblewrap sandbox",
    "none": 'bots run with your rights, as [sandbox] mode = "none" asks',
}
"""The run header's line for a run's sandbox that comes with no warning."""


class ProgressReport:
    """Registered by the CLI like any third-party observer would be: on stderr, the run's
    header (its sandbox), then a progress bar. Without ``bar`` (``arena run --quiet``) the
    header keeps only a warning: bots that run unsandboxed, or uncapped, must not pass
    unnoticed."""

    def __init__(self, label: str, *, bar: bool = True) -> None:
        self.label = label
        self.wants_bar = bar
        self.bar: Any = None

    @hookimpl
    def arena_run_start(self, run: RunInfo) -> None:
        if run.sandbox_note is not None:
            click.echo(f"arena: {run.sandbox_note}", err=True)
        elif run.sandbox is not None and self.wants_bar:
            click.echo(f"sandbox: {run.sandbox} ({SANDBOX_MEANS[run.sandbox]})", err=True)
        if not self.wants_bar:
            return
        todo = run.total_games - run.done_games
        self.bar = click.progressbar(
            length=max(todo, 1),
            label=f"{self.label}: {todo} games",
            file=sys.stderr,
        )
        self.bar.__enter__()

    @hookimpl
    def arena_game_end(self, run: RunInfo, game: ScheduledGame, record: GameRecord) -> None:
        if self.bar is not None:
            self.bar.update(1)

    @hookimpl
    def arena_run_end(self, run: RunInfo, standings: list[Any]) -> None:
        self.finish()

    def finish(self) -> None:
        """End the bar (idempotent): also when the run stops on an error, so that the
        error's line starts a line of its own."""
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
