"""Per-bot figures of a run beyond its standings: games, faults by kind, reply times (and
their CPU times on a CPU-time clock), timeouts and late replies, in the order the match
file lists the bots.

One function for the run page of the report, ``arena run``'s summary and ``arena export``,
so that they cannot disagree; the store does the counting (:meth:`Store.bot_stats
<arena_kernel.store.sqlite.Store.bot_stats>`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from arena_kernel.report.fault_counts import bot_faults, by_count, fault_kinds
from arena_kernel.store.sqlite import BotStats, Store

__all__ = ["BotStats", "bot_faults", "bot_stats", "by_count", "fault_kinds"]


def bot_stats(store: Store, run_id: int) -> list[BotStats]:
    """One :class:`BotStats` per bot of run ``run_id``: the match file's bots in its order
    (a bot that played no stored game yet has zeros), then any other bot seated in its
    games (a renamed or removed bot of a resumed run) in order of appearance; each bot's
    faults most frequent first."""
    measured = {
        stats.bot: dataclasses.replace(stats, faults=by_count(Counter(stats.faults)))
        for stats in store.bot_stats(run_id)
    }
    named = [str(bot["name"]) for bot in store.spec(run_id).get("bots", [])]
    order = list(dict.fromkeys([*named, *measured]))
    return [measured.get(bot) or _idle(bot) for bot in order]


def _idle(bot: str) -> BotStats:
    return BotStats(bot, 0, {}, 0, None, None, None, late=0)
