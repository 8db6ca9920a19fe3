"""What ``arena standings DB`` reads of a stored run, and how it checks what it reads.

A run whose standings do not follow its games in order (every scorer ``order_free``, no
SPRT, no stages, not a league) is read from its tally of results (``Store.tally``): a few
rows however many games, and SQLite checks (``quick_check``) the tables those reads come
from, not the whole file: the run's row, its tally, its faults and SPRT steps. Any other
run is read game by game, after the whole file is checked, as every other reading command
does (:mod:`arena_kernel.cli.database`). docs/architecture.md ("Damaged files") says why
that is enough.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from arena_kernel.errors import ArenaError

if TYPE_CHECKING:
    from arena_kernel.cli.summary import StoredFaults
    from arena_kernel.match.standings import RunStandings
    from arena_kernel.model import RunInfo, Standings

TALLY_TABLES = ("runs", "result_tallies", "faults", "sprt_steps")
"""The tables the standings of a run read from its tally read, checked before they are read."""


@dataclass(frozen=True)
class StoredStandings:
    """A stored run's standings as ``arena standings`` prints them: the run, its tables,
    its league's ladder (None for other runs), its faults and its games per sandbox."""

    run: RunInfo
    standings: RunStandings
    ladder: Standings | None
    faults: StoredFaults
    sandboxes: dict[str, int]

    @property
    def tables(self) -> list[Standings]:
        """Every table after the scorers': the SPRT's, the format's, the ladder."""
        extra = (self.standings.sprt, self.standings.format, self.ladder)
        return [*self.standings.tables, *(table for table in extra if table is not None)]


def stored_standings(
    database: Path, run_ref: str | None, plugins: tuple[str, ...]
) -> StoredStandings:
    """The standings of run ``run_ref`` (default: the latest) stored in ``database``, its
    scorers from the built-ins and ``plugins`` (the installed plugins only for a scorer
    none of them has); raise :class:`ArenaError` for a missing, damaged or empty file."""
    from arena_kernel.cli.commands import scorer_registries
    from arena_kernel.cli.league import ladder_of
    from arena_kernel.cli.summary import StoredFaults
    from arena_kernel.match.standings import needs_every_game, run_standings
    from arena_kernel.store.sqlite import Store, sandbox_counts

    if not database.is_file():
        raise ArenaError(f"{database}: no such database file")
    with Store(database) as store:
        store.check_intact(TALLY_TABLES[:1])
        run = store.run(run_ref) if run_ref else store.latest_run()
        if run is None:
            raise ArenaError(f"{database}: no runs stored yet")
        spec = store.spec(run.run_id)
        bots = [b["name"] for b in spec.get("bots", [])]
        scorers: Sequence[str] = spec.get("scorers", ["wins"])
        classes = scorer_registries(plugins, scorers).scorers.cls
        tally = None
        if spec.get("format") != "league" and not needs_every_game(spec, map(classes, scorers)):
            store.check_intact(TALLY_TABLES)
            tally = store.tally(run.run_id)
        if tally is None:
            store.check_intact()
        results = tally if tally is not None else store.results(run.run_id)
        standings = run_standings(
            results, bots, scorers, classes, spec, store.sprt_steps(run.run_id)
        )
        return StoredStandings(
            run,
            standings,
            ladder_of(store, run.run_id, spec),
            StoredFaults.read(store, run.run_id),
            sandbox_counts(results),
        )
