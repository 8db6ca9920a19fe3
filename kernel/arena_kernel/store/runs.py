"""What is read of a stored run to show where it stands: the runs themselves, a run's
settings, its tally of results, its SPRT and its faults. :class:`RunReads` is the part of
:class:`~arena_kernel.store.sqlite.Store` that ``arena standings`` opens on its own, so that
it does not import what reading games, their logs and their figures takes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from arena_kernel.errors import ArenaError
from arena_kernel.model import FaultKind, RunInfo
from arena_kernel.scoring.base import Tally, weighted
from arena_kernel.store.database import Database
from arena_kernel.store.outcomes import Result, ResultReader

if TYPE_CHECKING:
    from arena_kernel.model import Fault
    from arena_kernel.scoring.sprt_run import SprtStep


class TalliedResult:
    """One distinct result of a run's games (:meth:`RunReads.tally`): what a
    :class:`~arena_kernel.store.sqlite.StoredGame` holds for scorers, the faults table and
    the sandbox counts (not the scores), and the schedule index of the first game that had
    it."""

    __slots__ = ("disqualified", "first_faults", "index", "ranks", "sandbox", "seating", "void")

    def __init__(
        self,
        index: int,
        seating: tuple[str, ...],
        ranks: tuple[int, ...],
        void: bool,
        disqualified: frozenset[int],
        first_faults: tuple[str | None, ...],
        sandbox: str | None,
    ) -> None:
        self.index = index
        self.seating = seating
        self.ranks = ranks
        self.void = void
        self.disqualified = disqualified
        self.first_faults = first_faults
        self.sandbox = sandbox


class Sandboxed(Protocol):
    """A game as the sandbox counts read it."""

    @property
    def sandbox(self) -> str | None: ...


UNKNOWN_SANDBOX = "unknown"
"""How a game whose sandbox was not recorded is counted and shown."""


def sandbox_counts(games: Iterable[Sandboxed]) -> dict[str, int]:
    """How many of ``games`` ran under each sandbox mode, the modes in the order they first
    appear (what ``arena run`` and ``arena standings`` print under the standings)."""
    counts: Counter[str] = Counter()
    for game, count in weighted(games):
        counts[game.sandbox or UNKNOWN_SANDBOX] += count
    return dict(counts)


class StartupFaults(NamedTuple):
    """A bot's failures to come up in a run (:meth:`RunReads.startup_faults`): in how many
    games, and the first of them (its id, what ``arena replay`` takes) with its fault."""

    bot: str
    games: int
    game_id: int
    fault: Fault


class RunReads(Database):
    """An open arena database, for reading its runs and where each stands. Use as a
    context manager, or call :meth:`close`."""

    def runs(self) -> list[RunInfo]:
        """Every run in the file, oldest first."""
        return [self._run_info(row) for row in self._read(_RUN_QUERY + " ORDER BY r.id")]

    def latest_run(self) -> RunInfo | None:
        """The most recently created run, or None in an empty database."""
        rows = self._read(_RUN_QUERY + " ORDER BY r.id DESC LIMIT 1")
        return self._run_info(rows[0]) if rows else None

    def run(self, run: int | str) -> RunInfo:
        """A run by id or by key.

        A string is looked up as a key first, then (if all digits) as an id, because the
        command line hands over ids as strings.
        """
        found = self.find_run(run) if isinstance(run, str) else None
        if found is None and (isinstance(run, int) or run.isdigit()):
            rows = self._read(_RUN_QUERY + " WHERE r.id = ?", (int(run),))
            found = self._run_info(rows[0]) if rows else None
        if found is None:
            raise ArenaError(f'no run "{run}" in {self.path} (`arena runs` lists them)')
        return found

    def find_run(self, key: str) -> RunInfo | None:
        """The run ``key`` if it is stored: what a run looks at before it creates anything."""
        rows = self._read(_RUN_QUERY + " WHERE r.key = ?", (key,))
        return self._run_info(rows[0]) if rows else None

    def spec(self, run_id: int) -> dict[str, Any]:
        """The match settings the run was created with, as given to :meth:`Store.open_run
        <arena_kernel.store.sqlite.Store.open_run>`."""
        rows = self._read("SELECT spec FROM runs WHERE id = ?", (run_id,))
        if not rows:
            raise ArenaError(f"no run {run_id} in {self.path}")
        spec: dict[str, Any] = json.loads(rows[0][0])
        return spec

    def _run_info(self, row: Sequence[Any]) -> RunInfo:
        run_id, key, name, game, total, done = row
        return RunInfo(run_id, key, name, game, total, done, str(self.path))

    def tally(self, run_id: int) -> Tally[TalliedResult] | None:
        """The run's stored games as their distinct results, each with how many games had
        it (void ones included: scorers skip them), in order of each result's first game:
        what standings that do not depend on the games' order need, a few rows however
        many games. None when the tally does not count every stored game of the run (a
        tool other than arena wrote to the file): then only :meth:`Store.results
        <arena_kernel.store.sqlite.Store.results>` says."""
        read = ResultReader()
        with self._snapshot():
            rows = self._read(
                "SELECT result, void, sandbox, games, first FROM result_tallies"
                " WHERE run_id = ? ORDER BY first",
                (run_id,),
            )
            (stored,) = self._read("SELECT count(*) FROM games WHERE run_id = ?", (run_id,))[0]
        tally = Tally(
            (TalliedResult(first, *_tallied_fields(read(text), bool(void), sandbox)), games)
            for text, void, sandbox, games, first in rows
        )
        return tally if len(tally) == stored else None

    def sprt_steps(self, run_id: int) -> list[SprtStep]:
        """The run's SPRT, a step per completed pair, in the order they were completed."""
        rows = self._read(
            "SELECT seq, pair, total, llr, decision FROM sprt_steps WHERE run_id = ? ORDER BY seq",
            (run_id,),
        )
        if not rows:
            return []
        from arena_kernel.scoring.sprt_run import SprtStep  # only for a run with an SPRT

        return [SprtStep(*row) for row in rows]

    def bot_faults(self, run_id: int) -> dict[str, dict[str, int]]:
        """Per bot with any fault in the run's stored games, its faults counted by kind
        (every fault of its seats): what ``arena run`` and ``arena standings`` print,
        without the reply times :meth:`Store.bot_stats
        <arena_kernel.store.sqlite.Store.bot_stats>` also reads."""
        with self._snapshot():
            return self._bot_faults(run_id)

    def startup_faults(self, run_id: int, kinds: Iterable[str]) -> list[StartupFaults]:
        """Per bot that failed to come up in the run's stored games (a fault of its seat
        of one of ``kinds``, in a game where it answered no request in time: its seat has
        no reply times), in order of its first such game: how many games, and the first
        one's id and fault (of those kinds, the first of its seat)."""
        wanted = sorted(set(kinds))
        marks = ", ".join("?" * len(wanted))
        rows = self._read(
            "SELECT s.bot, f.game_id, f.kind, f.detail, f.seat, f.at FROM faults f"
            " CROSS JOIN games g ON g.id = f.game_id"
            " CROSS JOIN seats s ON s.game_id = f.game_id AND s.seat = f.seat"
            f" WHERE g.run_id = ? AND length(s.reply_times) = 0 AND f.kind IN ({marks})"
            " ORDER BY g.idx, f.rowid",
            (run_id, *wanted),
        )
        games: dict[str, set[int]] = {}
        first: dict[str, tuple[int, str, str, int, float]] = {}
        for bot, game_id, kind, detail, seat, at in rows:
            games.setdefault(bot, set()).add(game_id)
            first.setdefault(bot, (game_id, kind, detail, seat, at))
        if not first:
            return []
        from arena_kernel.model import Fault  # only for a bot that failed to come up

        return [
            StartupFaults(bot, len(games[bot]), game_id, Fault(FaultKind(kind), detail, seat, at))
            for bot, (game_id, kind, detail, seat, at) in first.items()
        ]

    def _bot_faults(self, run_id: int) -> dict[str, dict[str, int]]:
        # Here and in startup_faults, read from the faults (CROSS JOIN keeps SQLite to that
        # order): a file mostly holds far fewer than the run has games, which SQLite
        # would walk instead.
        faults: dict[str, dict[str, int]] = {}
        for bot, kind, count in self._read(
            "SELECT s.bot, f.kind, count(*) FROM faults f"
            " CROSS JOIN games g ON g.id = f.game_id"
            " CROSS JOIN seats s ON s.game_id = f.game_id AND s.seat = f.seat"
            " WHERE g.run_id = ? GROUP BY s.bot, f.kind",
            (run_id,),
        ):
            faults.setdefault(bot, {})[kind] = count
        return faults


_RUN_QUERY = (
    "SELECT r.id, r.key, r.name, r.game, r.total_games,"
    " (SELECT count(*) FROM games g WHERE g.run_id = r.id) FROM runs r"
)


def _tallied_fields(result: Result, void: bool, sandbox: str) -> tuple[Any, ...]:
    """The fields of a :class:`TalliedResult` after its index, from its row's parsed
    ``outcome``, ``void`` and ``sandbox`` ('' when unknown)."""
    seating, ranks, _scores, disqualified, faults = result
    return (seating, ranks, void, disqualified, faults, sandbox or None)
