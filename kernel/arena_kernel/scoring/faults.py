"""Games lost to faults: why a bot lost, when it was not outplayed.

A bot that never connects and a bot that plays badly both show as losses in the standings;
this table tells them apart. Like the standings it is a pure function of the stored games,
so ``arena run`` and ``arena standings`` print the same one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from arena_kernel.model import Standings
from arena_kernel.scoring.base import GameResult, roster, weighted


class FaultedResult(GameResult, Protocol):
    """A game result that also says each seat's first fault (a stored game does)."""

    @property
    def first_faults(self) -> Sequence[str | None]: ...


def fault_losses(games: Sequence[FaultedResult], bots: Sequence[str]) -> Standings | None:
    """Per bot, the counted games it lost (any rank but first) with a fault of its own,
    and how many by the kind of its first fault in the game; None when there are none.

    Void games are left out, as in the standings, and so are results that do not know
    their faults (an empty ``first_faults``). ``games`` may be a
    :class:`~arena_kernel.scoring.base.Tally`.
    """
    kinds: dict[str, Counter[str]] = {}
    for game, count in weighted(games):
        faults = game.first_faults
        if game.void or not faults or faults.count(None) == len(faults):
            continue
        for bot, rank, fault in zip(game.seating, game.ranks, faults, strict=True):
            if fault is not None and rank > 1:
                kinds.setdefault(bot, Counter())[fault] += count
    if not kinds:
        return None
    order = sorted(
        (bot for bot in roster(games, bots) if bot in kinds),
        key=lambda bot: (-kinds[bot].total(), bot),
    )
    rows = [
        (
            bot,
            kinds[bot].total(),
            ", ".join(f"{kind} {count}" for kind, count in _by_count(kinds[bot])),
        )
        for bot in order
    ]
    return Standings(
        title="Games lost to faults",
        columns=("bot", "lost to faults", "by kind of first fault"),
        rows=rows,
    )


def _by_count(kinds: Counter[str]) -> list[tuple[str, int]]:
    return sorted(kinds.items(), key=lambda item: (-item[1], item[0]))
