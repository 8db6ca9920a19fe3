"""The progress bar of ``arena run``: an observer plugin on the run's notification hooks."""

from __future__ import annotations

import sys
from typing import Any

import click

from arena_kernel.markers import hookimpl
from arena_kernel.model import GameRecord, RunInfo, ScheduledGame


class ProgressReport:
    """Registered by the CLI like any third-party observer would be."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None

    @hookimpl
    def arena_run_start(self, run: RunInfo) -> None:
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
