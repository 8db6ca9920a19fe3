"""A run's standings: what ``arena run`` prints at its end and ``arena standings`` prints
from the database later, computed by this one function so that the two cannot differ."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from arena_kernel.model import Standings
from arena_kernel.scoring.base import Scorer
from arena_kernel.scoring.faults import FaultedResult, fault_losses

if TYPE_CHECKING:
    from arena_kernel.scoring.sprt_run import SprtStep


STAGED_FORMATS = ("swiss", "knockout")
"""The formats whose stages add a table (``match.spec.DYNAMIC_FORMATS``, which a test holds
this to: that module is not imported for standings)."""


def needs_every_game(spec: Mapping[str, Any], scorers: Iterable[type[Scorer]]) -> bool:
    """Whether :func:`run_standings` of a run with the stored ``spec``, by ``scorers``,
    needs the run's games one by one rather than its tally of results
    (:class:`~arena_kernel.scoring.base.Tally`): an SPRT and a format's stages follow the
    games in order, and so does a scorer that is not ``order_free``."""
    return (
        bool(spec.get("sprt"))
        or spec.get("format") in STAGED_FORMATS
        or not all(scorer.order_free for scorer in scorers)
    )


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
    their tables. ``results`` may be the run's tally where :func:`needs_every_game` says
    no."""
    tables = [scorer_class(name)().standings(results, bots) for name in scorers]
    spec = spec or {}
    # Imported only for a run that has them: ``arena standings`` of a plain round robin
    # pays nothing for the SPRT's maths or the formats' pairings.
    test = own = None
    if sprt := spec.get("sprt"):
        from arena_kernel.scoring.sprt_run import sprt_standings

        test = sprt_standings(results, bots, sprt, sprt_steps)
    if spec.get("format") in STAGED_FORMATS:
        from arena_kernel.match.stages import Stages

        stages = Stages.of(spec)
        own = stages.table(results) if stages is not None else None
    return RunStandings(tables, fault_losses(results, bots), test, own)
