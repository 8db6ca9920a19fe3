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

What the per-bot figures need of a log (reply times and their CPU times, late replies) is
also kept per seat, uncompressed (:func:`seat_replies`), so that they read a few bytes per
seat rather than inflate every log of a run.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import operator
import struct
import zlib
from collections.abc import Iterable, Sequence
from typing import Any

from arena_kernel.codecs import compiled
from arena_kernel.model import Event, make_event

FIELDS = tuple(field.name for field in dataclasses.fields(Event))
"""The lists of a stored log, in :class:`~arena_kernel.model.Event`'s field order."""

_DURATIONS = ("elapsed", "cpu")
"""The fields that are measured durations (None: not measured), each list stored in whole
steps of its own (``elapsed_step``, ``cpu_step``: see :func:`_exponent`). A log without a
field's list and step reads as never measured: one stored before the field was added
(``cpu`` before version 5 of the database), or one on a wall clock, which measures no CPU
time (its log is then as it always was)."""


COMPRESSION_LEVEL = 1
"""zlib's level for a stored log. A game's log is compressed on the path of every game a
run stores: at level 1 a stones game's takes a third of the time of zlib's default level 6
for about a quarter more bytes (each level inflates the same way: any log reads back)."""

_fields = operator.attrgetter(*FIELDS)


def pack(events: Sequence[Event]) -> bytes:
    """The stored form of a game's ``events`` (on the path of every game a run stores)."""
    extension = compiled.COMPILED
    log = None if extension is None else extension.log_columns(events)
    if log is None:
        log = columns(events)
    text = json.dumps(log, ensure_ascii=False, separators=(",", ":")).encode()
    return zlib.compress(text, COMPRESSION_LEVEL)


def columns(events: Sequence[Event]) -> dict[str, Any]:
    """The JSON object a stored log is, before it is compressed: one list per field, the
    times in steps (the fields are read a row at a time). The kernel's extension makes
    the same object in one step (``log_columns``, for the usual events)."""
    columns = list(zip(*map(_fields, events), strict=True)) or [()] * len(FIELDS)
    log: dict[str, Any] = {name: list(col) for name, col in zip(FIELDS, columns, strict=True)}
    log["t_step"] = t_step = _exponent(log["t"])
    steps = _in_steps(log["t"], t_step)
    log["t"] = [now - before for before, now in itertools.pairwise([0, *steps])]
    for name in _DURATIONS:
        if name != "elapsed" and all(x is None for x in log[name]):
            del log[name]  # never measured (a wall clock's CPU): read back as such
            continue
        log[f"{name}_step"] = step = _exponent(log[name])
        log[name] = _in_steps(log[name], step)
    return log


def unpack(data: bytes) -> list[Event]:
    """A game's events from their stored form, as :func:`pack` was given them."""
    log = json.loads(zlib.decompress(data))
    t_scale = 1 << log["t_step"]
    log["t"] = [steps / t_scale for steps in itertools.accumulate(log["t"])]
    for name in _DURATIONS:
        if name not in log:  # stored before arena measured it: not measured
            log[name] = [None] * len(log["t"])
            continue
        scale = 1 << log[f"{name}_step"]
        log[name] = [None if n is None else n / scale for n in log[name]]
    return [make_event(*values) for values in zip(*(log[name] for name in FIELDS), strict=True)]


def _exponent(times: Iterable[float | None]) -> int:
    """The least e that makes each of ``times`` (None aside) a whole number of steps of
    2**-e seconds.

    A double is a whole number times a power of two, so some e does. Times taken from one
    clock are whole multiples of its resolution at the magnitude it reads (2**-40 s for a
    monotonic clock a few hours after boot), and the numbers of such steps between events
    are short. Back, ``steps / 2**e`` is exactly the time: the quotient of two integers is
    correctly rounded, and here exact.
    """
    # The denominators are powers of two: the largest says the exponent.
    known = [x for x in times if x is not None]
    largest = max(map(_denominator, map(_ratio, known)), default=1)
    return largest.bit_length() - 1


_ratio = operator.methodcaller("as_integer_ratio")
_denominator = operator.itemgetter(1)


def _in_steps(times: Sequence[Any], exponent: int) -> list[Any]:
    """``times`` (None aside) as whole numbers of steps of 2**-``exponent`` s.

    ``time * 2**exponent`` computed with floats is exact: a product by a power of two
    only moves a double's exponent, and by the choice of ``exponent`` it lands on a whole
    number, which ``int`` then reads exactly. Where the product (or the power of two)
    would not be a finite double, ``int`` refuses it, and each time is scaled as the
    fraction it is (ten times slower)."""
    try:
        scale = float(1 << exponent)
        return [None if x is None else int(x * scale) for x in times]
    except OverflowError:
        return [
            None
            if x is None
            else x.as_integer_ratio()[0] * (1 << exponent) // x.as_integer_ratio()[1]
            for x in times
        ]


@dataclasses.dataclass(frozen=True)
class SeatReplies:
    """What the per-bot figures count of one seat's events in one game: the times of its
    replies that answered a request (``recv`` events with an ``elapsed``), packed by
    :func:`pack_times`, how many of its replies came late, and the CPU times of the same
    replies (``cpu``).

    ``cpu`` is empty when none of them was measured (a wall-time clock), else one time per
    reply, in the order of ``times``, NaN for one not measured: so that each CPU time is
    read beside the wall time of its reply (:func:`reply_pairs`).
    """

    times: bytes
    late: int
    cpu: bytes


def seat_replies(events: Sequence[Event], seats: int) -> list[SeatReplies]:
    """Per seat of a game of ``seats`` seats, its :class:`SeatReplies` in ``events`` (an
    event of no seat of the game counts for none)."""
    times: list[list[float]] = [[] for _ in range(seats)]
    cpu: list[list[float | None]] = [[] for _ in range(seats)]
    late = [0] * seats
    for event in events:
        if event.seat is None or not 0 <= event.seat < seats:
            continue
        if event.kind == "recv" and event.elapsed is not None:
            times[event.seat].append(event.elapsed)
            cpu[event.seat].append(event.cpu)
        elif event.kind == "late":
            late[event.seat] += 1
    return [
        SeatReplies(pack_times(t), n, _pack_measured(c))
        for t, n, c in zip(times, late, cpu, strict=True)
    ]


def _pack_measured(times: Sequence[float | None]) -> bytes:
    """``times`` packed, NaN for None; nothing when none was measured."""
    if all(time is None for time in times):
        return b""
    return pack_times([math.nan if time is None else time for time in times])


def reply_pairs(times: bytes, cpu: bytes) -> list[tuple[float, float]]:
    """The ``(wall, cpu)`` times of the replies of a :class:`SeatReplies` whose CPU time
    was measured (or of several with a ``cpu``, each field joined in the same order)."""
    if not cpu:
        return []
    return [
        (wall, used)
        for wall, used in zip(unpack_times(times), unpack_times(cpu), strict=True)
        if not math.isnan(used)
    ]


def pack_times(times: Sequence[float]) -> bytes:
    """Seconds as little-endian IEEE doubles: exact, and 8 bytes each on any machine."""
    return struct.pack(f"<{len(times)}d", *times)


def unpack_times(data: bytes) -> tuple[float, ...]:
    return struct.unpack(f"<{len(data) // 8}d", data)
