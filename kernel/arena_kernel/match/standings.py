"""A run's standings: what ``arena run`` prints at its end and ``arena standings`` prints
from the database later, computed by this one function so that the two cannot differ."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from arena_kernel.match.stages import Stages
from arena_kernel.model import Standings
from arena_kernel.scoring.base import Scorer
from arena_kernel.scoring.faults import FaultedResult, fault_losses
from arena_kernel.scoring.sprt_run import SprtStep, sprt_standings


class RunStandings(NamedTuple):
    """One table per scorer, in the order the match file names them, the games each bot
    lost with a fault of its own (None when no bot lost a game to a fault), the run's SPRT
    and its format's own table (a Swiss's scores, a knockout's bracket), None where the
    run has none."""

    tables: list[Standings]
    faults: Standings | None
    sprt: Standings | None = None
    format: Standings | None = None


def run_standings(
    results: Sequence[FaultedResult],
    bots: Sequence[str],
    scorers: Sequence[str],
    scorer_class: Callable[[str], type[Scorer]],
    spec: Mapping[str, Any] | None = None,
    sprt_steps: Sequence[SprtStep] = (),
) -> RunStandings:
    """The standings of a run's stored ``results`` for its ``bots`` (in the match file's
    order), by each of ``scorers``; ``scorer_class`` finds a scorer by name (a registry's
    ``cls``, which names the installed ones when one is missing). ``spec`` is the run's
    stored spec: its ``[sprt]`` (with the run's stored ``sprt_steps``) and its format add
    their tables."""
    tables = [scorer_class(name)().standings(results, bots) for name in scorers]
    spec = spec or {}
    sprt = spec.get("sprt")
    test = sprt_standings(results, bots, sprt, sprt_steps) if sprt else None
    stages = Stages.of(spec) if spec.get("format") else None
    own = stages.table(results) if stages is not None else None
    return RunStandings(tables, fault_losses(results, bots), test, own)
