"""The progress report of ``arena run``: an observer plugin on the run's notification hooks.

It shows what an organiser asks of a running contest: how far it is (games stored of the
schedule), how fast it goes (games per second, and on a terminal the time left), how many
faults the bots made so far, and who leads by the run's ranking scorer (``ranking`` in the
match file).

On a terminal that is one line on stderr, redrawn in place. Without one (stderr piped to a
log file, a CI job) a redrawn line would fill the log with copies of itself, so the report
is one line when the run ends (or stops), plus one line a minute while a long run plays:
a log shows the run is alive without growing by more than a line a minute.

Asked to (``arena run --standings-every N``, as fastchess's ``-ratinginterval``), it also
prints every scorer's table over the games stored so far each time N more are stored,
above the progress line.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from arena_kernel.markers import hookimpl
from arena_kernel.model import GameRecord, RunInfo, ScheduledGame
from arena_kernel.scoring.played import played

if TYPE_CHECKING:
    from arena_kernel.match.spec import MatchSpec
    from arena_kernel.model import Standings
    from arena_kernel.registries.registry import Registries
    from arena_kernel.scoring.base import GameResult, Scorer

SANDBOX_MEANS = {
    "bwrap": "every bot the arena starts runs in a bubblewrap sandbox",
    "none": 'bots run with your rights, as [sandbox] mode = "none" asks',
}
"""The run header's line for a run's sandbox that comes with no warning."""

LOG_EVERY = 60.0
"""Seconds between two lines without a terminal: sparse enough for a log of a day-long
contest (1440 lines), frequent enough that a CI job that kills silent jobs lets it live."""

REDRAW_EVERY = 0.2
"""Seconds between two redraws on a terminal: faster is flicker a reader cannot follow."""

LEADER_EVERY = 1.0
"""Seconds between two computations of the leader while the run plays (at least; see
:meth:`ProgressReport._leader`): a rating over thousands of games takes a good part of a
second, on the event loop that plays the games."""

LEADER_COST_SHARE = 20
"""The leader is computed again no sooner than this many times as long as it took last
time, so that the progress line costs the games at most about 1/20 of the loop's time."""

BAR_WIDTH = 20


@dataclass(frozen=True)
class Ranking:
    """The run's ranking scorer: what names the leader while the run plays (``scorer``
    over the games stored so far, for ``bots``) and at its end (the run's own table,
    ``position`` in the standings the run ends with)."""

    name: str
    position: int
    scorer: Callable[[], Scorer]
    bots: tuple[str, ...]

    @classmethod
    def of(cls, spec: MatchSpec, registries: Registries) -> Ranking | None:
        """The ranking of a validated match file: its ``ranking`` key, the first scorer
        when it has none; None for a match with no scorer."""
        name = spec.ranking or (spec.scorers[0] if spec.scorers else None)
        if name is None or name not in spec.scorers:
            return None
        return cls(
            name,
            list(spec.scorers).index(name),
            registries.scorers.cls(name),
            tuple(bot.name for bot in spec.bots),
        )


class ProgressReport:
    """Registered by the CLI like any third-party observer would be: on stderr, the run's
    header (its sandbox), then the progress (see the module's docstring). Without ``bar``
    (``arena run --quiet``) the header keeps only a warning: bots that run unsandboxed,
    or uncapped, must not pass unnoticed; and there is no progress at all.

    ``stream`` (stderr) and ``clock`` are what the tests replace; whether ``stream`` is
    a terminal decides between the redrawn line and the log's lines.
    """

    def __init__(
        self,
        label: str,
        *,
        bar: bool = True,
        ranking: Ranking | None = None,
        standings_every: int | None = None,
        scorers: Sequence[tuple[str, Callable[[], Scorer]]] = (),
        bots: Sequence[str] = (),
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.wants_bar = bar
        self.ranking = ranking
        self.standings_every = standings_every
        self.scorers = list(scorers)
        """``(name, scorer class)`` of the tables printed every ``standings_every`` games."""
        self.bots = tuple(bots)
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.terminal = self.stream.isatty()
        self.run: RunInfo | None = None
        self.started = 0.0
        self.stored = 0
        self.played = 0
        self.faults = 0
        self.results: list[GameResult] = []
        self.last_line = 0.0
        self.leader: str | None = None
        self.leader_at: float | None = None
        self.leader_cost = 0.0
        self.leader_stale = False
        self.unread = False
        """Whether the games a resumed run had stored are still to be read into
        :attr:`results` (see :meth:`_read_stored`)."""
        self.done = False

    # -- the hooks ------------------------------------------------------------------------

    @hookimpl
    def arena_run_start(self, run: RunInfo) -> None:
        if run.executor_note is not None:
            click.echo(f"arena: {run.executor_note}", err=True)
        if run.clock_note is not None:
            click.echo(f"arena: {run.clock_note}", err=True)
        if run.sandbox_note is not None:
            click.echo(f"arena: {run.sandbox_note}", err=True)
        elif run.sandbox is not None and self.wants_bar:
            click.echo(f"sandbox: {run.sandbox} ({SANDBOX_MEANS[run.sandbox]})", err=True)
        if not self.wants_bar and not self.standings_every:
            return
        self.run = run
        self.started = self.last_line = self.clock()
        self.stored = run.done_games
        if run.done_games:
            self.faults += self._stored_faults(run)
            self.unread = True
        if self.terminal and self.wants_bar:
            self._draw()

    @hookimpl
    def arena_game_end(self, run: RunInfo, game: ScheduledGame, record: GameRecord) -> None:
        if self.run is None:
            return
        self.played += 1
        self.stored += 1
        self.faults += len(record.faults)
        self.results.append(played(record))
        self.leader_stale = True
        if self.standings_every and self.stored % self.standings_every == 0:
            self._aside(self.tables())
        if not self.wants_bar:
            return
        now = self.clock()
        if self.terminal and now - self.last_line >= REDRAW_EVERY:
            self._draw()
        elif not self.terminal and now - self.last_line >= LOG_EVERY:
            self._log()

    @hookimpl
    def arena_run_end(self, run: RunInfo, standings: list[Standings]) -> None:
        if self.run is None:
            return
        ranking = self.ranking
        self._read_stored()
        counted = any(not result.void for result in self.results)
        if ranking is not None and counted and ranking.position < len(standings):
            rows = standings[ranking.position].rows
            self.leader = str(rows[0][0]) if rows else None
            self.leader_stale = False
        # Games of a disqualified bot are stored void without a game_end: count them.
        self.stored = max(self.stored, self._stored_count(run))
        self.finish()

    def finish(self) -> None:
        """The last line (idempotent): at the end of the run, and also when it stops on an
        interrupt or an error, so that the message that follows starts a line of its own
        and a log still says how far the run got."""
        if self.run is None or self.done:
            return
        self.done = True
        if not self.wants_bar:
            return
        if self.terminal:
            self._draw(final=True)
            self.stream.write("\n")
            self.stream.flush()
        else:
            self._log(final=True)

    # -- what is shown --------------------------------------------------------------------

    def status(self, *, final: bool = False) -> str:
        """``league: 120/400 games, 3.20 games/s, eta 1:33, 7 faults, leader optimal (elo)``;
        at the end the run's duration instead of the time left, ``in 2:05 (3.20 games/s)``.
        """
        run = self.run
        assert run is not None
        parts = [f"{self.stored}/{run.total_games} games"]
        elapsed = self.clock() - self.started
        rate = self.played / elapsed if self.played and elapsed > 0 else None
        if self.played == 0:
            if final or self.stored == run.total_games:
                parts.append("none played now")
        elif final:
            parts[0] += f" in {duration(elapsed)}" + (f" ({speed(rate)})" if rate else "")
        elif rate is not None:
            parts.append(speed(rate))
            left = run.total_games - self.stored
            if left > 0:
                parts.append(f"eta {duration(left / rate)}")
        parts.append(f"{self.faults} fault{'' if self.faults == 1 else 's'}")
        leader = self._leader(final)
        if leader is not None and self.ranking is not None:
            parts.append(f"leader {leader} ({self.ranking.name})")
        return f"{self.label}: " + ", ".join(parts)

    def tables(self) -> list[str]:
        """Every scorer's table over the games stored so far, under a line that says how
        many; a scorer that fails is one line saying so (the run's own standings will
        report it too)."""
        from arena_kernel.cli.tables import render

        self._read_stored()
        lines = [f"{self.label}: standings after {self.stored} games"]
        for name, scorer in self.scorers:
            try:
                table = scorer().standings(self.results, self.bots)
            except Exception as exc:
                lines += ["", f"{name}: failed: {type(exc).__name__}: {exc}"]
                continue
            lines += ["", table.title, render(table.columns, table.rows)]
        return lines

    def _aside(self, lines: list[str]) -> None:
        """``lines`` above the progress line: on a terminal the line is cleared first and
        drawn again below them."""
        redraw = self.terminal and self.wants_bar
        if redraw:
            self.stream.write("\r\x1b[K")
        self.stream.write("\n".join(lines) + "\n\n")
        self.stream.flush()
        if redraw:
            self._draw()

    def _draw(self, *, final: bool = False) -> None:
        """The terminal's line, redrawn over the previous one: with a bar where the
        terminal is wide enough, else without (the figures say as much), cut to its width
        as a last resort (a line that wraps cannot be redrawn in place)."""
        run = self.run
        assert run is not None
        width = max(shutil.get_terminal_size().columns - 1, 20)
        filled = BAR_WIDTH * self.stored // run.total_games if run.total_games else BAR_WIDTH
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        text = self.status(final=final)
        label, _, rest = text.partition(": ")
        line = f"{label}: [{bar}] {rest}"
        if len(line) > width:
            line = text[:width]
        self.stream.write(f"\r\x1b[K{line}")
        self.stream.flush()
        self.last_line = self.clock()

    def _log(self, *, final: bool = False) -> None:
        self.stream.write(self.status(final=final) + "\n")
        self.stream.flush()
        self.last_line = self.clock()

    def _leader(self, final: bool) -> str | None:
        """The ranking scorer's first bot over the games stored so far (None before a game
        that counts), computed again only when games ended since, and at most as often
        as :data:`LEADER_EVERY` and :data:`LEADER_COST_SHARE` allow (at the end, always).
        A scorer that fails leaves the line without a leader; the run's own standings
        will report the failure."""
        ranking = self.ranking
        if ranking is None or not (self.leader_stale or self.unread):
            return self.leader
        if self.unread and not self.played and not final:
            return self.leader  # a resumed run plays its next game first
        now = self.clock()
        wait = max(LEADER_EVERY, LEADER_COST_SHARE * self.leader_cost)
        if not final and self.leader_at is not None and now - self.leader_at < wait:
            return self.leader
        self._read_stored()
        self.leader_stale = False
        self.leader_at = now
        if not any(not result.void for result in self.results):
            return self.leader
        try:
            rows = ranking.scorer().standings(self.results, ranking.bots).rows
        except Exception:
            self.ranking = None
            self.leader = None
            return None
        self.leader = str(rows[0][0]) if rows else None
        self.leader_cost = self.clock() - now
        return self.leader

    # -- what the database says -----------------------------------------------------------

    def _stored_faults(self, run: RunInfo) -> int:
        """A resumed run: the faults of the games stored before count from the start (SQL
        counts them)."""
        from arena_kernel.errors import ArenaError
        from arena_kernel.store.sqlite import Store

        try:
            with Store(run.database) as store:
                return store.fault_count(run.run_id)
        except ArenaError:
            return 0  # the runner has the file open: it would have said so

    def _read_stored(self) -> None:
        """A resumed run: the games stored before count in the leader and the tables, read
        the first time either is wanted once a game was played (or at the end), so that
        the next game starts first; read lean (:meth:`Store.played
        <arena_kernel.store.sqlite.Store.played>`), for the hundred thousand games of a
        long run. They go before the games played since, in schedule order."""
        from arena_kernel.errors import ArenaError
        from arena_kernel.store.sqlite import Store

        run = self.run
        if not self.unread or run is None:
            return
        self.unread = False
        played = [result.index for result in self.results]
        try:
            with Store(run.database) as store:
                stored = store.played(run.run_id)
        except ArenaError:
            return  # the runner has the file open: it would have said so
        # The store holds the games played since too: each is kept once, as played.
        since = set(played)
        self.results[:0] = [game for game in stored if game.index not in since]
        self.leader_stale = True

    @staticmethod
    def _stored_count(run: RunInfo) -> int:
        """The games of the run in its database (0 for a database that is not there:
        opening it would create it)."""
        from arena_kernel.errors import ArenaError
        from arena_kernel.store.sqlite import Store

        if not Path(run.database).is_file():
            return 0
        try:
            with Store(run.database) as store:
                return store.run(run.run_id).done_games
        except ArenaError:
            return 0


def speed(rate: float) -> str:
    """Games per second to three significant figures at most: ``41.2 games/s``."""
    if rate >= 100:
        return f"{rate:.0f} games/s"
    if rate >= 10:
        return f"{rate:.1f} games/s"
    return f"{rate:.2f} games/s"


def duration(seconds: float) -> str:
    """``4.2 s`` under a minute, else ``m:ss`` or ``h:mm:ss``."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
