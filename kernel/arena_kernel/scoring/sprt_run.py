"""A run's SPRT (``[sprt]`` in its match file): the pairs of games its store holds, the test
on them, the table that shows it, and the tracker that stops the run once it decides.

The games of such a run come in pairs with the colours swapped: games ``2k`` and
``2k + 1`` (:class:`~arena_kernel.match.schedule.Schedule`). A pair counts once both of its
games are stored and neither is void; its score is the first bot's total over the two
games (a win 1, a draw 0.5), which :mod:`arena_kernel.scoring.sprt` tests.

The test runs over the pairs in the order they were completed, one :class:`SprtStep` each,
and the first step whose LLR leaves the bounds is the decision, as fishtest and fastchess
decide: the games in play at that moment still end and are stored, but a pair they
complete cannot undo the decision (with them the LLR may well be back inside the bounds).
The runner stores each step with the game that completes its pair, so the history, the
decision and the pair at which it came are what the run saw, whatever reads them later.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena_kernel.model import Standings
from arena_kernel.scoring.base import GameResult
from arena_kernel.scoring.sprt import (
    Decision,
    SprtResult,
    SprtSettings,
    pentanomial,
    pentanomial_column,
    sprt,
)

PAIR_TOTALS = ("0", "0.5", "1", "1.5", "2")
"""The first bot's possible scores over a pair, as the pentanomial's columns."""


def settings_of(table: Mapping[str, Any]) -> SprtSettings:
    """The ``[sprt]`` table (as the match file and the stored spec hold it) as settings."""
    return SprtSettings(
        elo0=float(table["elo0"]),
        elo1=float(table["elo1"]),
        alpha=float(table.get("alpha", 0.05)),
        beta=float(table.get("beta", 0.05)),
        model=table.get("model", "logistic"),
    )


def first_bot_score(game: GameResult, bot: str) -> float | None:
    """``bot``'s score in ``game``: 1 for a better rank than the other seat, 0.5 for the
    same, 0 for a worse one; None when it did not play it."""
    if bot not in game.seating:
        return None
    mine = game.ranks[list(game.seating).index(bot)]
    other = min(rank for seat, rank in enumerate(game.ranks) if game.seating[seat] != bot)
    return 1.0 if mine < other else 0.5 if mine == other else 0.0


@dataclass(frozen=True)
class SprtStep:
    """One pair of a run's test, as it was completed: ``seq`` its place among the pairs
    (1 for the first one completed), ``pair`` its number (games ``2 * pair`` and
    ``2 * pair + 1``), ``total`` the first bot's score over it, ``llr`` the test's LLR
    over every pair up to it, and ``decision`` the hypothesis accepted at this pair
    (``"H0"``, ``"H1"``) on the one pair at which the test decided, else None."""

    seq: int
    pair: int
    total: float
    llr: float
    decision: Decision | None = None


class SprtTracker:
    """The test over the pairs stored so far, fed one game at a time: what the runner asks
    after each game, to stop handing out games once the test has decided.

    :attr:`steps` is the history, a step per completed pair. Once a step decides,
    :attr:`result` is the test at that step for good (its LLR, pairs and Elo), and the
    pairs completed after it (:meth:`after`) are kept apart."""

    def __init__(self, settings: SprtSettings, first: str) -> None:
        self.settings = settings
        self.first = first
        self.clear()

    def clear(self) -> None:
        """Forget every pair: a bot of the test is out of the run, and with it every game
        the test counted (the store forgets its steps with them)."""
        self._halves: dict[int, float] = {}
        """Pair number -> the first bot's score in its one game stored so far."""
        self.steps: list[SprtStep] = []
        self.counts = [0, 0, 0, 0, 0]
        """The pentanomial of every completed pair (0, 0.5, 1, 1.5, 2)."""
        self.decided_at: int | None = None
        """The number of pairs at the decision (the deciding step's ``seq``), or None."""
        self.result: SprtResult = sprt(self.counts, self.settings)
        """The test at its decision once it has decided, else over every pair so far."""

    @classmethod
    def resume(
        cls,
        settings: SprtSettings,
        first: str,
        steps: Sequence[SprtStep],
        games: Iterable[GameResult],
    ) -> SprtTracker:
        """The test of a run whose store holds ``steps`` and ``games``: the stored steps
        as they are (their LLRs and decision as the run saw them), then the pairs of
        ``games`` that have no step, in the order given (games stored without their
        steps, by an arena that did not keep them: their order of storage is what the
        run saw). The steps made so, ``steps[len(stored):]``, are for the caller to
        store."""
        tracker = cls(settings, first)
        for step in steps:
            tracker._take(step)
        if tracker.decided_at is None:
            tracker.result = tracker._now()
        stepped = {step.pair for step in steps}
        for game in games:
            if game.index // 2 not in stepped:
                tracker.add(game)
        return tracker

    def add(self, game: GameResult) -> SprtStep | None:
        """Count ``game``; the step it makes when it completes a pair (for the store),
        else None."""
        score = None if game.void else first_bot_score(game, self.first)
        if score is None:
            return None
        pair = game.index // 2
        other = self._halves.pop(pair, None)
        if other is None:
            self._halves[pair] = score
            return None
        total = other + score
        self.counts[pentanomial_column(total)] += 1
        now = sprt(self.counts, self.settings)
        decision = now.decision if self.decided_at is None else None
        step = SprtStep(len(self.steps) + 1, pair, total, now.llr, decision)
        self.steps.append(step)
        if decision is not None:
            self.decided_at = step.seq
        if self.decided_at is None or decision is not None:
            self.result = now
        return step

    def _take(self, step: SprtStep) -> None:
        """Count a stored ``step`` as it was made."""
        self.steps.append(step)
        self.counts[pentanomial_column(step.total)] += 1
        if step.decision is not None and self.decided_at is None:
            self.decided_at = step.seq
            self.result = dataclasses.replace(self._now(), llr=step.llr, decision=step.decision)

    def _now(self) -> SprtResult:
        return sprt(self.counts, self.settings)

    @property
    def decided(self) -> bool:
        return self.decided_at is not None

    def after(self) -> list[SprtStep]:
        """The pairs completed after the decision (none before it): games that were in
        play when the test decided."""
        return [] if self.decided_at is None else self.steps[self.decided_at :]

    def table(self, bots: Sequence[str]) -> Standings:
        """The test as a table: at its decision once it has decided, the pairs after it
        in a note of their own."""
        first, second = bots[0], bots[1]
        settings, result = self.settings, self.result
        if result.decision == "H1":
            verdict = f"H1 accepted: {first} is at least {settings.elo1:g} Elo better"
        elif result.decision == "H0":
            verdict = f"H0 accepted: {first} is at most {settings.elo0:g} Elo better"
        else:
            verdict = "no decision yet"
        row = (
            round(result.llr, 3),
            f"[{result.lower:.3f}, {result.upper:.3f}]",
            verdict,
            result.pairs,
            round(result.elo, 1),
            f"[{result.elo_low:.1f}, {result.elo_high:.1f}]",
        )
        counted = self.steps[: result.pairs]
        notes = [
            f"pentanomial, pairs of games by {first}'s score over the pair "
            f"({', '.join(PAIR_TOTALS)}): "
            + ", ".join(str(n) for n in pentanomial(s.total for s in counted))
        ]
        after = self.after()
        if after:
            notes.append(
                f"{len(after)} pair{'s' if len(after) > 1 else ''} completed after the "
                "decision by games already in play, stored and not counted: pentanomial "
                + ", ".join(str(n) for n in pentanomial(s.total for s in after))
                + f"; with them the LLR is {after[-1].llr:.3f}"
            )
        return Standings(
            f"SPRT: {first} against {second}, H0 elo <= {settings.elo0:g}, "
            f"H1 elo >= {settings.elo1:g} ({settings.model}, alpha {settings.alpha:g}, "
            f"beta {settings.beta:g})",
            ("llr", "bounds", "decision", "pairs", "elo", "95% interval"),
            [row],
            notes=notes,
        )


def sprt_standings(
    results: Sequence[GameResult],
    bots: Sequence[str],
    table: Mapping[str, Any],
    steps: Sequence[SprtStep] = (),
) -> Standings:
    """The SPRT of the first of ``bots`` against the second over a run's stored games and
    ``steps``, as the table ``arena run``, ``arena standings`` and the report show."""
    return SprtTracker.resume(settings_of(table), bots[0], steps, results).table(bots)
