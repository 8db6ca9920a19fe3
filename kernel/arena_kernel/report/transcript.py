"""The viewer's steps of a game whose plugin has no renderer (or whose renderer failed):
its transcript, one step per request answered."""

from __future__ import annotations

from collections.abc import Sequence

from arena_kernel.report.renderer import Replay, Step


def transcript_steps(replay: Replay) -> list[Step]:
    """One step per reply (a ``recv`` that answered a request: it has an ``elapsed``) with
    the messages that led to it; the rest of the log, the game's end, is the last step.
    A game with no reply at all is one step."""
    events = replay.events
    steps: list[Step] = []
    start = 0
    for index, event in enumerate(events):
        if event.kind == "recv" and event.elapsed is not None:
            who = replay.seating[event.seat] if event.seat is not None else "referee"
            steps.append(Step(f"{len(steps) + 1}. {who}", (start, index + 1)))
            start = index + 1
    if start < len(events) or not steps:
        steps.append(Step("end", (start, len(events))))
    last = steps[-1]
    steps[-1] = Step(last.label, last.events, caption=ending(replay))
    return steps


def ending(replay: Replay) -> str:
    """How the game ended, naming the bots: what a last step's caption says by default."""
    winners: Sequence[str] = replay.winners()
    if replay.void:
        head = "void game"
    elif len(winners) == 1:
        head = f"{winners[0]} wins"
    elif len(winners) == len(replay.seating):
        head = f"draw between {' and '.join(winners)}"
    else:
        head = f"{' and '.join(winners)} share first place"
    return f"{head}: {replay.reason}"
