"""A run's standings: what ``arena run`` prints at its end and ``arena standings`` prints
from the database later, computed by this one function so that the two cannot differ."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from arena_kernel.scoring.base import Scorer, Standings
from arena_kernel.scoring.faults import FaultedResult, fault_losses


class RunStandings(NamedTuple):
    """One table per scorer, in the order the match file names them, and the games each
    bot lost with a fault of its own (None when no bot lost a game to a fault)."""

    tables: list[Standings]
    faults: Standings | None


def run_standings(
    results: Sequence[FaultedResult],
    bots: Sequence[str],
    scorers: Sequence[str],
    scorer_class: Callable[[str], type[Scorer]],
) -> RunStandings:
    """The standings of a run's stored ``results`` for its ``bots`` (in the match file's
    order), by each of ``scorers``; ``scorer_class`` finds a scorer by name (a registry's
    ``cls``, which names the installed ones when one is missing)."""
    tables = [scorer_class(name)().standings(results, bots) for name in scorers]
    return RunStandings(tables, fault_losses(results, bots))
