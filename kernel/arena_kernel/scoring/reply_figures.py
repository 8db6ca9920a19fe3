"""The figures of a bot's reply times: how quick it was, and on a CPU-time clock whether it
was slow or starved (the per-bot figures of :meth:`Store.bot_stats
<arena_kernel.store.sqlite.Store.bot_stats>`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple


class TimeFigures(NamedTuple):
    """How many reply times (``replies``), their mean, 95th percentile and longest (None
    without any)."""

    replies: int
    mean: float | None
    p95: float | None
    longest: float | None


def time_figures(times: list[float]) -> TimeFigures:
    """The figures of ``times`` (sorted in place); the 95th percentile by nearest rank, the
    ceil(0.95 n)-th smallest: a time one of the replies really took."""
    if not times:
        return TimeFigures(0, None, None, None)
    times.sort()
    n = len(times)
    return TimeFigures(n, math.fsum(times) / n, times[math.ceil(0.95 * n) - 1], times[-1])


@dataclass(frozen=True)
class CpuFigures:
    """The CPU times of replies whose CPU time was measured (:func:`cpu_figures`).

    ``share`` is their CPU time over their wall time: below 1 the bot waited for a core,
    slept or blocked; above 1 it ran on several cores at once (None when every reply was
    measured as instant). ``idle_mean`` is their mean wall time less CPU time, the time
    each reply spent not running (negative on several cores).
    """

    cpu: TimeFigures
    share: float | None
    idle_mean: float


def cpu_figures(pairs: Sequence[tuple[float, float]]) -> CpuFigures | None:
    """The CPU figures of replies' ``(wall, cpu)`` times; None without any."""
    cpu = time_figures([cpu for _wall, cpu in pairs])
    if not cpu.replies:
        return None
    wall = math.fsum(wall for wall, _cpu in pairs)
    return CpuFigures(
        cpu,
        # Replies measured as instant (a coarse clock) leave no time to share.
        math.fsum(cpu for _wall, cpu in pairs) / wall if wall else None,
        math.fsum(wall - cpu for wall, cpu in pairs) / cpu.replies,
    )
