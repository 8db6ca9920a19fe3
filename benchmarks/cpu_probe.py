"""A plugin module for timing ``arena run`` from the outside: ``arena run -p cpu_probe`` with
this folder on ``PYTHONPATH``.

As the process exits it writes, as one JSON line on stdout, its own CPU seconds
(``RUSAGE_SELF``: the run's process alone, not the processes it started) at its first
game's start and at its exit, and the seconds its main thread (the event loop's) spent
ready to run but waiting for a CPU that other processes held (``/proc``'s schedstat: 0
where the kernel keeps none). A referee process of the run, which loads the same plugins,
writes its own line before it exits: the run's is the last.
"""

from __future__ import annotations

import atexit
import json
import os
import resource

from arena_kernel.markers import hookimpl

_seen: dict[str, float] = {}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@hookimpl
def arena_game_start() -> None:
    _seen.setdefault("first game", _cpu())


def _waited() -> float:
    try:
        with open(f"/proc/self/task/{os.getpid()}/schedstat") as stats:
            return int(stats.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


@atexit.register
def _report() -> None:
    print(json.dumps({**_seen, "exit": _cpu(), "waited": _waited()}), flush=True)
