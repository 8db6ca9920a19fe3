"""What the replay viewer shows of one game, as one JSON record: who sat where and how it
ended, its faults, its bots' stderr logs, the renderer's steps and the whole event log.

The viewer builds the page from it with ``textContent`` only: everything a bot made (its
messages, its stderr, a reason quoting it) stays text.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena_kernel.model import RunInfo
from arena_kernel.report.renderer import Replay
from arena_kernel.report.replay import RenderedSteps
from arena_kernel.store.runs import UNKNOWN_SANDBOX
from arena_kernel.store.sqlite import GameDetail

LOG_CHARS = 64 * 1024
"""The most of a stderr log a record keeps: its end, where a crash says why."""


@dataclass(frozen=True)
class Log:
    """A seat's stderr log as the run recorded it: ``source`` is its path, ``text`` what
    it holds (None when the file is no longer on disk)."""

    source: str
    text: str | None


def read_log(source: str) -> Log:
    """The log at ``source``, its end when it is longer than :data:`LOG_CHARS`."""
    try:
        with open(source, "rb") as file:
            data = file.read()
    except OSError:
        return Log(source, None)
    text = data.decode("utf-8", errors="replace")
    if len(text) > LOG_CHARS:
        text = f"[the first {len(text) - LOG_CHARS} characters are not shown]\n" + text[-LOG_CHARS:]
    return Log(source, text)


def game_record(
    run: RunInfo,
    detail: GameDetail,
    replay: Replay,
    rendered: RenderedSteps,
    drawer: str | None,
    logs: Mapping[int, Log],
) -> dict[str, Any]:
    """The viewer's record of ``detail`` (``drawer``: the drawing script's game, or None
    when it has none)."""
    started = datetime.datetime.fromtimestamp(detail.started_at).isoformat(" ", "seconds")
    return {
        "id": detail.game_id,
        "run": [run.run_id, run.name],
        "game": run.game,
        "index": detail.index,
        "seed": detail.seed,
        "started": started,
        "duration": round(detail.duration, 3),
        "sandbox": detail.sandbox or UNKNOWN_SANDBOX,
        "reason": detail.reason,
        "void": detail.void,
        "result": result_line(replay),
        "seating": list(detail.seating),
        "ranks": list(detail.ranks),
        "scores": None if detail.scores is None else list(detail.scores),
        "disqualified": sorted(detail.disqualified),
        "faults": [[round(f.at, 3), f.seat, str(f.kind), f.detail] for f in detail.faults],
        "logs": {str(seat): [log.source, log.text] for seat, log in logs.items()},
        "drawer": drawer,
        "problem": rendered.problem,
        "steps": [
            {
                "label": step.label,
                "caption": step.caption,
                "picture": step.picture,
                "start": step.events[0],
                "stop": step.events[1],
            }
            for step in rendered.steps
        ],
        "events": [
            [round(e.t, 6), e.kind, e.seat, e.text, e.elapsed, e.cpu] for e in replay.events
        ],
    }


def result_line(replay: Replay) -> str:
    """How the game ended in one line, naming the winners."""
    winners = replay.winners()
    if replay.void:
        return f"void: {replay.reason}"
    if len(winners) == 1:
        return f"{winners[0]} won: {replay.reason}"
    if winners:
        return f"{' and '.join(winners)} shared first place: {replay.reason}"
    return replay.reason
