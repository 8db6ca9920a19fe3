"""``arena run --report DIR``: the run's HTML report (``arena report``'s site), written at
the start of the run, refreshed while it plays and written once more at its end, so that
an organiser can follow a long contest in a browser by reloading ``DIR/index.html``.

An observer plugin, like the progress display. A refresh reads the whole run and writes a
page per game: on the run's event loop it would stall every game in progress (and the
clocks of their bots), so each refresh runs in a thread of its own, one at a time. The
thread still shares the interpreter (its lock) with the loop: it slows the referee down
while it writes, never stops it, hence the spacing. The first refresh starts with the
run; after that a game's end starts one when the last started :data:`REFRESH_EVERY`
seconds ago or more, and no sooner than :data:`COST_SHARE` times as long as the last one
took, so that a report of thousands of games costs a bounded share of the run. The last
write, from every stored game, comes after the run has ended (a run that stops early, on
Ctrl-C or an error, keeps its last refresh).

A report that cannot be written is a warning, once per distinct reason, never the run's
failure: the games matter more than their pictures.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from arena_kernel.errors import ArenaError
from arena_kernel.markers import hookimpl
from arena_kernel.model import GameRecord, RunInfo, ScheduledGame
from arena_kernel.registries.report import one_line, warn

if TYPE_CHECKING:
    from arena_kernel.model import Standings

REFRESH_EVERY = 5.0
"""Seconds between the starts of two refreshes, at least."""

COST_SHARE = 4
"""A refresh starts no sooner than this many times as long as the last one took after
it started: writing the report takes at most a fifth of the time."""

Writer = Callable[..., Path]
"""How a report is written: :func:`arena_kernel.report.site.write_report`'s signature."""


class LiveReport:
    """The report of the run being played, kept in ``out``.

    ``plugins`` are the ``-p`` modules of the command (the renderers of a game that is not
    installed); ``write`` and ``clock`` are what tests replace.
    """

    def __init__(
        self,
        out: Path,
        plugins: Sequence[str] = (),
        *,
        write: Writer | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if write is None:
            from arena_kernel.report.site import write_report

            write = write_report
        self.out = out
        self.plugins = tuple(plugins)
        self.write = write
        self.clock = clock
        self.run: RunInfo | None = None
        self.ended = False
        self.index: Path | None = None
        self.last_start: float | None = None
        self.last_cost = 0.0
        self.warned: set[str] = set()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    @hookimpl
    def arena_run_start(self, run: RunInfo) -> None:
        self.run = run
        self._refresh()

    @hookimpl
    def arena_game_end(self, run: RunInfo, game: ScheduledGame, record: GameRecord) -> None:
        if self.run is None or self.last_start is None:
            return
        with self.lock:
            wait = max(REFRESH_EVERY, COST_SHARE * self.last_cost)
        if self.clock() - self.last_start >= wait:
            self._refresh()

    @hookimpl
    def arena_run_end(self, run: RunInfo, standings: list[Standings]) -> None:
        self.ended = True

    def finish(self) -> Path | None:
        """Wait for the refresh in progress; after a run that ended, write the report of
        every stored game. Returns the report's ``index.html`` when that last write
        succeeded, else None."""
        if self.thread is not None:
            self.thread.join()
            self.thread = None
        if self.run is None or not self.ended:
            return None
        self.index = None
        self._write(self.run)
        return self.index

    def _refresh(self) -> None:
        """Start a refresh in a thread, unless one is still writing."""
        run = self.run
        if run is None or (self.thread is not None and self.thread.is_alive()):
            return
        self.last_start = self.clock()
        self.thread = threading.Thread(
            target=self._write, args=(run,), name="arena-live-report", daemon=False
        )
        self.thread.start()

    def _write(self, run: RunInfo) -> None:
        started = self.clock()
        try:
            index = self.write(run.database, self.out, run=run.run_id, plugins=self.plugins)
        except ArenaError as exc:
            self._failed(str(exc))
        except Exception as exc:  # a renderer's bug costs the report, never the run
            self._failed(one_line(exc))
        else:
            self.index = index
        with self.lock:
            self.last_cost = self.clock() - started

    def _failed(self, reason: str) -> None:
        with self.lock:
            if reason in self.warned:
                return
            self.warned.add(reason)
        warn(f"the report in {os.fspath(self.out)} was not written: {reason}; the run goes on")
