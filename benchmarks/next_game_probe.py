"""A plugin module for timing ``arena run`` from the outside: ``arena run -p next_game_probe``
with this folder on ``PYTHONPATH``.

At the run's next game's start it writes, as one JSON line on stdout, the CPU seconds and
the peak resident memory of the process so far (the interpreter's start, the plugins, the
match file, the runner, the progress display: all a user waits for), then ends the process
at once, unless ``ARENA_PROBE_PLAY`` says to play on for that many seconds: then it writes
the line at the first game end after them (what the run holds once it is under way) and
ends the process then (or at the run's end, if that comes first).
"""

from __future__ import annotations

import json
import os
import resource
import time

from arena_kernel.markers import hookimpl

PLAY_ON = float(os.environ.get("ARENA_PROBE_PLAY", "0"))

_first_start: float | None = None


def _report_and_end() -> None:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    figures = {"cpu": usage.ru_utime + usage.ru_stime, "MB": usage.ru_maxrss / 1024}
    print(json.dumps(figures), flush=True)
    os._exit(0)


@hookimpl
def arena_game_start() -> None:
    global _first_start
    if _first_start is None:
        _first_start = time.monotonic()
        if not PLAY_ON:
            _report_and_end()


@hookimpl
def arena_game_end() -> None:
    if _first_start is not None and time.monotonic() - _first_start >= PLAY_ON:
        _report_and_end()


@hookimpl
def arena_run_end() -> None:
    if _first_start is not None:
        _report_and_end()
