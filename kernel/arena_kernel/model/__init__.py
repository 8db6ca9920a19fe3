"""The values that flow through arena: a game's outcome, a bot's faults, the event log, the
records of runs and games, and the standings tables the scorers make of them.

This package imports nothing else of the kernel (but :mod:`arena_kernel.lazy_names`), so
that the referee, the runner, the store, the scorers and the games all speak of the same
things without importing one another. Each name is served from its module on first use: a
command that reads a run's standings pays for its tables, not for the records of games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from arena_kernel.lazy_names import served_on_first_use

if TYPE_CHECKING:  # _EXPORTS for type checkers: the same names from the same modules
    from arena_kernel.model.fault_kinds import FaultKind as FaultKind
    from arena_kernel.model.faults import Fault as Fault
    from arena_kernel.model.games import Event as Event
    from arena_kernel.model.games import GameRecord as GameRecord
    from arena_kernel.model.games import Outcome as Outcome
    from arena_kernel.model.games import ScheduledGame as ScheduledGame
    from arena_kernel.model.games import make_event as make_event
    from arena_kernel.model.runs import RunInfo as RunInfo
    from arena_kernel.model.tables import Estimate as Estimate
    from arena_kernel.model.tables import Standings as Standings
    from arena_kernel.model.tables import cell as cell

_EXPORTS: Final = {
    "Event": "arena_kernel.model.games",
    "Estimate": "arena_kernel.model.tables",
    "Fault": "arena_kernel.model.faults",
    "FaultKind": "arena_kernel.model.fault_kinds",
    "GameRecord": "arena_kernel.model.games",
    "Outcome": "arena_kernel.model.games",
    "RunInfo": "arena_kernel.model.runs",
    "ScheduledGame": "arena_kernel.model.games",
    "Standings": "arena_kernel.model.tables",
    "cell": "arena_kernel.model.tables",
    "make_event": "arena_kernel.model.games",
}

__all__ = sorted(_EXPORTS)

__getattr__ = served_on_first_use(__name__, _EXPORTS)
