"""More games at once than cores: what wall-clock limits then measure, and the warning.

A bot that waits for a core is not thinking, but a wall clock charges the wait: with more
games at once than cores, replies get slower with the load, and bots are faulted for what
the machine was doing. The run's header says so, and names the CPU-time clock, which
charges a bot only its own processes' CPU time (docs/clocks.md).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from arena_kernel.referee.clocks import Clocks


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container may narrow)."""
    return len(os.sched_getaffinity(0))


def crowding_note(clocks: Clocks, crowding: Mapping[str, tuple[int, int]]) -> str | None:
    """The header's warning for a run on wall-clock limits whose machines play more games
    at once than they have cores (``crowding``: host -> (games at once, cores)), or None."""
    if clocks.mode != "wall":
        return None
    crowded = [
        f"{games} games at once on {cores} core{'s' if cores != 1 else ''}"
        + (f" ({host})" if len(crowding) > 1 else "")
        for host, (games, cores) in sorted(crowding.items())
        if cores and games > cores
    ]
    if not crowded:
        return None
    return (
        f"warning: wall-clock limits with {', '.join(crowded)}: bots wait for a core, and "
        'the wait counts against their limits; [clock] mode = "cpu" charges a bot only the '
        "CPU time it uses (see docs/clocks.md)"
    )
