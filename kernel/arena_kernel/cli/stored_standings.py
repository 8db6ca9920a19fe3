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

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from arena_kernel.errors import ArenaError

if TYPE_CHECKING:
    from arena_kernel.cli.summary import StoredFaults
    from arena_kernel.match.standings import RunStandings
    from arena_kernel.model import RunInfo, Standings
    from arena_kernel.scoring.base import Scorer, Tally
    from arena_kernel.store.runs import RunReads, TalliedResult
    from arena_kernel.store.sqlite import StoredGame

TALLY_TABLES = ("runs", "result_tallies", "faults", "sprt_steps")
"""The tables the standings of a run read from its tally read, checked before they are read."""


class StoredStandings(NamedTuple):
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
    from arena_kernel.cli.commands import scorer_classes
    from arena_kernel.match.standings import needs_every_game
    from arena_kernel.store.runs import RunReads

    if not database.is_file():
        raise ArenaError(f"{database}: no such database file")
    with RunReads(database) as reads:
        reads.check_intact(TALLY_TABLES[:1])
        run = reads.run(run_ref) if run_ref else reads.latest_run()
        if run is None:
            raise ArenaError(f"{database}: no runs stored yet")
        spec = reads.spec(run.run_id)
        scorers: Sequence[str] = spec.get("scorers", ["wins"])
        classes = scorer_classes(plugins, scorers)
        if spec.get("format") != "league" and not needs_every_game(spec, map(classes, scorers)):
            reads.check_intact(TALLY_TABLES)
            tally = reads.tally(run.run_id)
            if tally is not None:
                return _standings(reads, run, spec, classes, tally, None)
    from arena_kernel.cli.league import ladder_of
    from arena_kernel.store.sqlite import Store

    with Store(database) as store:
        store.check_intact()
        results = store.results(run.run_id)
        ladder = ladder_of(store, run.run_id, spec)
        return _standings(store, run, spec, classes, results, ladder)


def _standings(
    reads: RunReads,
    run: RunInfo,
    spec: dict[str, Any],
    classes: Callable[[str], type[Scorer]],
    results: Tally[TalliedResult] | list[StoredGame],
    ladder: Standings | None,
) -> StoredStandings:
    """The standings of ``run`` from its ``results`` (its games, or its tally)."""
    from arena_kernel.cli.summary import StoredFaults
    from arena_kernel.match.standings import run_standings
    from arena_kernel.store.runs import sandbox_counts

    bots = [b["name"] for b in spec.get("bots", [])]
    scorers = spec.get("scorers", ["wins"])
    steps = reads.sprt_steps(run.run_id)
    return StoredStandings(
        run,
        run_standings(results, bots, scorers, classes, spec, steps),
        ladder,
        StoredFaults.read(reads, run.run_id),
        sandbox_counts(results),
    )
