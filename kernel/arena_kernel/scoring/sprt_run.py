"""A run's SPRT (``[sprt]`` in its match file): the pairs of games its store holds, the test
on them, the table that shows it, and the tracker that stops the run once it decides.

The games of such a run come in pairs with the colours swapped: games ``2k`` and
``2k + 1`` (:class:`~arena_kernel.match.schedule.Schedule`). A pair counts once both of its
games are stored and neither is void; its score is the first bot's total over the two
games (a win 1, a draw 0.5), which :mod:`arena_kernel.scoring.sprt` tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arena_kernel.model import Standings
from arena_kernel.scoring.base import GameResult
from arena_kernel.scoring.sprt import SprtResult, SprtSettings, pentanomial_column, sprt

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


class SprtTracker:
    """The test over the pairs stored so far, fed one game at a time: what the runner asks
    after each game, to stop handing out games once the test has decided."""

    def __init__(self, settings: SprtSettings, first: str) -> None:
        self.settings = settings
        self.first = first
        self._halves: dict[int, float] = {}
        """Pair number -> the first bot's score in its one game stored so far."""
        self.counts = [0, 0, 0, 0, 0]
        """The pentanomial: pairs by the first bot's total (0, 0.5, 1, 1.5, 2)."""
        self.result: SprtResult = sprt(self.counts, settings)

    def add(self, game: GameResult) -> None:
        score = None if game.void else first_bot_score(game, self.first)
        if score is None:
            return
        pair = game.index // 2
        other = self._halves.pop(pair, None)
        if other is None:
            self._halves[pair] = score
            return
        self.counts[pentanomial_column(other + score)] += 1
        self.result = sprt(self.counts, self.settings)

    def extend(self, games: Iterable[GameResult]) -> None:
        for game in games:
            self.add(game)

    @property
    def decided(self) -> bool:
        return self.result.decision is not None

    def table(self, bots: Sequence[str]) -> Standings:
        return sprt_table(self.result, self.counts, self.settings, bots)


def sprt_standings(
    results: Sequence[GameResult], bots: Sequence[str], table: Mapping[str, Any]
) -> Standings:
    """The SPRT of the first of ``bots`` against the second over a run's stored games, as
    the table ``arena run``, ``arena standings`` and the report show."""
    tracker = SprtTracker(settings_of(table), bots[0])
    tracker.extend(results)
    return tracker.table(bots)


def sprt_table(
    result: SprtResult, counts: Sequence[int], settings: SprtSettings, bots: Sequence[str]
) -> Standings:
    """The test as a table."""
    first, second = bots[0], bots[1]
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
    return Standings(
        f"SPRT: {first} against {second}, H0 elo <= {settings.elo0:g}, "
        f"H1 elo >= {settings.elo1:g} ({settings.model}, alpha {settings.alpha:g}, "
        f"beta {settings.beta:g})",
        ("llr", "bounds", "decision", "pairs", "elo", "95% interval"),
        [row],
        notes=[
            f"pentanomial, pairs of games by {first}'s score over the pair "
            f"({', '.join(PAIR_TOTALS)}): {', '.join(str(n) for n in counts)}"
        ],
    )
