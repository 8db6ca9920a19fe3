"""A bot that fails to come up usually says why on its stderr (a Java bot's
``ClassNotFoundException``, a Python bot's ``ImportError``), while its fault can only say
how it ended (``exited with status 1``). So the fault of a failed start-up quotes the end
of the bot's stderr log in its reason.

This is done to a finished game's record, when its stderr logs are complete (a bot's
stderr is still being read when its exit is seen) and where they are kept (a cluster's
workers send theirs back first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from arena_kernel.model import FaultKind

if TYPE_CHECKING:
    from arena_kernel.model import Event, Fault, GameRecord

STARTUP_KINDS = frozenset({FaultKind.EXIT, FaultKind.CONNECT, FaultKind.TIMEOUT})
"""The faults of a bot that did not come up: it exited, never connected, or never
answered."""

FIRST_GAMES = 2
"""The games of a run a bot may fail to come up in before it stops the run
(``startup_failures = "stop"``): more than one, so that a single start-up lost to a loaded
machine does not."""


def startup_fault_indexes(faults: Sequence[Fault], events: Sequence[Event]) -> list[int]:
    """The positions in ``faults`` of the start-up faults of a game: per seat that
    answered no request in time in ``events``, its first fault of a
    :data:`STARTUP_KINDS` kind."""
    if not faults:
        return []  # the usual game: its log need not be read
    answered = {e.seat for e in events if e.kind == "recv" and e.elapsed is not None}
    seen: set[int] = set()
    found = []
    for position, fault in enumerate(faults):
        seat = fault.seat
        if seat is None or seat in answered or seat in seen:
            continue
        if fault.kind in STARTUP_KINDS:
            seen.add(seat)
            found.append(position)
    return found


def with_stderr_tails(record: GameRecord) -> GameRecord:
    """``record`` with the end of each failed bot's stderr in its start-up fault's reason
    (:func:`~arena_kernel.transports.stderr_log.stderr_tail`): ``exited with status 1;
    the end of its stderr: ... | Caused by: java.lang.ClassNotFoundException: Bot``.
    The record itself when no start-up fault has a stderr log to quote."""
    import dataclasses  # the records of games are; not for the standings' STARTUP_KINDS

    from arena_kernel.transports.stderr_log import stderr_tail  # asyncio: not for a listing

    faults = list(record.faults)
    changed = False
    for position in startup_fault_indexes(faults, record.events):
        fault = faults[position]
        assert fault.seat is not None
        log = record.stderr_logs.get(fault.seat)
        tail = stderr_tail(log) if log is not None else ""
        if tail:
            detail = f"{fault.detail}; the end of its stderr: {tail}"
            faults[position] = dataclasses.replace(fault, detail=detail)
            changed = True
    return dataclasses.replace(record, faults=faults) if changed else record
