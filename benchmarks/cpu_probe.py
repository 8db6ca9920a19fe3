"""A plugin module for timing ``arena run`` from the outside: ``arena run -p cpu_probe`` with
this folder on ``PYTHONPATH``.

As the process exits it writes, as one JSON line on stdout, its own CPU seconds
(``RUSAGE_SELF``: the run's process alone, not the processes it started) at its first
game's start and at its exit.
"""

from __future__ import annotations

import atexit
import json
import resource

from arena_kernel.markers import hookimpl

_seen: dict[str, float] = {}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@hookimpl
def arena_game_start() -> None:
    _seen.setdefault("first game", _cpu())


@atexit.register
def _report() -> None:
    print(json.dumps({**_seen, "exit": _cpu()}), flush=True)
