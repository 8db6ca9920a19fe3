"""Event logs spoilt every way a damaged store or a hostile bot could spoil them, for the
test that a renderer draws any log at all (see :func:`arena_kernel.testkit.spoilt_logs`)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence

from arena_kernel.model import Event
from arena_kernel.report.renderer import Replay

SEATS_OUT_OF_RANGE = (None, -1, 7, 99)
"""Seats no game has (None is the referee's own)."""

KINDS = ("send", "recv", "late", "fault", "note")
"""The kinds of event a log holds."""


def spoilt_logs(
    replay: Replay, garbage: Sequence[str], *, seed: int = 0, trials: int = 300
) -> Iterator[Replay]:
    """``trials`` copies of ``replay`` whose event log has one to six spoils each: an event
    dropped, repeated elsewhere, swapped with another, its text replaced by one of
    ``garbage`` (half the time one of the referee's own messages is hit, whose text a
    renderer trusts most; a third of the time its kind changes too), its seat put out of
    range, or the log cut after it. The rest of
    the game (seats, ranks, reason) stays as stored: a renderer's last step must still say
    how the game ended."""
    rng = random.Random(seed)
    sent = [i for i, e in enumerate(replay.events) if e.kind == "send"]
    for _ in range(trials):
        events = list(replay.events)
        for _ in range(rng.randint(1, 6)):
            if not events:
                break
            events = _spoil(events, rng, sent, garbage)
        yield dataclasses.replace(replay, events=tuple(events))


def _spoil(
    events: list[Event], rng: random.Random, sent: Sequence[int], garbage: Sequence[str]
) -> list[Event]:
    i = rng.randrange(len(events))
    how = rng.randrange(6)
    if how == 0:
        del events[i]
    elif how == 1:
        events.insert(i, events[rng.randrange(len(events))])
    elif how == 2:
        j = rng.randrange(len(events))
        events[i], events[j] = events[j], events[i]
    elif how == 3:
        if sent and rng.random() < 0.5:
            i = min(rng.choice(sent), len(events) - 1)
        kind = rng.choice(KINDS) if rng.random() < 1 / 3 else events[i].kind
        events[i] = dataclasses.replace(events[i], kind=kind, text=rng.choice(garbage))
    elif how == 4:
        events[i] = dataclasses.replace(events[i], seat=rng.choice(SEATS_OUT_OF_RANGE))
    else:
        events = events[: i + 1]
    return events
