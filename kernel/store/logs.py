"""How a game's event log is kept: one compressed document per game, not a row per event.

A row per event cost SQLite some 40 bytes of its own besides the text (more for long
messages: a clustered table keeps under 1 KiB of a row in the tree), while the text of a
game is repetitive (boards, hands, the same words every turn) and shrinks 10 to 30 times
compressed as a whole. So a game's events are one zlib-compressed JSON object with one
list per :class:`~arena_kernel.model.Event` field (``{"t": [...], "kind": [...], ...}``:
like next to like compresses better than event by event). Any tool reads it back:
inflate, parse JSON, and for the times see :func:`_exponent`.

Once the text is compressed, the times are most of what is left: written as decimals a
time costs some 9 bytes compressed, as the whole number of clock steps since the previous
event (:func:`_exponent`) about 4, and it comes back bit for bit.

What the per-bot figures need of a log (reply times, late replies) is also kept per seat,
uncompressed (:func:`seat_replies`), so that they read a few bytes per seat rather than
inflate every log of a run.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import struct
import zlib
from collections.abc import Iterable, Sequence
from typing import Any

from arena_kernel.model import Event

FIELDS = tuple(field.name for field in dataclasses.fields(Event))
"""The lists of a stored log, in :class:`~arena_kernel.model.Event`'s field order."""


def pack(events: Sequence[Event]) -> bytes:
    """The stored form of a game's ``events``."""
    log: dict[str, Any] = {name: [getattr(e, name) for e in events] for name in FIELDS}
    log["t_step"] = t_step = _exponent(log["t"])
    steps = [_in_steps(t, t_step) for t in log["t"]]
    log["t"] = [now - before for before, now in itertools.pairwise([0, *steps])]
    log["elapsed_step"] = elapsed_step = _exponent(log["elapsed"])
    log["elapsed"] = [None if x is None else _in_steps(x, elapsed_step) for x in log["elapsed"]]
    return zlib.compress(json.dumps(log, ensure_ascii=False, separators=(",", ":")).encode())


def unpack(data: bytes) -> list[Event]:
    """A game's events from their stored form, as :func:`pack` was given them."""
    log = json.loads(zlib.decompress(data))
    t_scale, elapsed_scale = 1 << log["t_step"], 1 << log["elapsed_step"]
    log["t"] = [steps / t_scale for steps in itertools.accumulate(log["t"])]
    log["elapsed"] = [None if n is None else n / elapsed_scale for n in log["elapsed"]]
    return [Event(*values) for values in zip(*(log[name] for name in FIELDS), strict=True)]


def _exponent(times: Iterable[float | None]) -> int:
    """The least e that makes each of ``times`` (None aside) a whole number of steps of
    2**-e seconds.

    A double is a whole number times a power of two, so some e does. Times taken from one
    clock are whole multiples of its resolution at the magnitude it reads (2**-40 s for a
    monotonic clock a few hours after boot), and the numbers of such steps between events
    are short. Back, ``steps / 2**e`` is exactly the time: the quotient of two integers is
    correctly rounded, and here exact.
    """
    return max(
        (x.as_integer_ratio()[1].bit_length() - 1 for x in times if x is not None), default=0
    )


def _in_steps(time: float, exponent: int) -> int:
    numerator, denominator = time.as_integer_ratio()
    return numerator * (1 << exponent) // denominator


@dataclasses.dataclass(frozen=True)
class SeatReplies:
    """What the per-bot figures count of one seat's events in one game: the times of its
    replies that answered a request (``recv`` events with an ``elapsed``), packed by
    :func:`pack_times`, and how many of its replies came late."""

    times: bytes
    late: int


def seat_replies(events: Sequence[Event], seats: int) -> list[SeatReplies]:
    """Per seat of a game of ``seats`` seats, its :class:`SeatReplies` in ``events`` (an
    event of no seat of the game counts for none)."""
    times: list[list[float]] = [[] for _ in range(seats)]
    late = [0] * seats
    for event in events:
        if event.seat is None or not 0 <= event.seat < seats:
            continue
        if event.kind == "recv" and event.elapsed is not None:
            times[event.seat].append(event.elapsed)
        elif event.kind == "late":
            late[event.seat] += 1
    return [SeatReplies(pack_times(t), n) for t, n in zip(times, late, strict=True)]


def pack_times(times: Sequence[float]) -> bytes:
    """Seconds as little-endian IEEE doubles: exact, and 8 bytes each on any machine."""
    return struct.pack(f"<{len(times)}d", *times)


def unpack_times(data: bytes) -> tuple[float, ...]:
    return struct.unpack(f"<{len(data) // 8}d", data)
