"""The referee's deadlines on a kernel timer, so that the event loop keeps no timer for them.

While an asyncio loop has a timer scheduled, every iteration of the loop works out how long
it may wait, and its wait for events (``epoll_wait`` with a timeout) arms and cancels a
kernel timer. Each channel keeps its request's deadline scheduled, so that cost was paid
on every round trip with a bot: measured with ``benchmarks/echo_throughput.py``'s echo bot,
5 to 15 % of the CPU time of a whole bare asyncio round trip (and 14 % more instructions).
Here the deadlines of all channels of one event loop share one ``timerfd``, armed for the
earliest of them: the loop waits for it as for any file, without a timeout, and nothing is
paid per iteration.

A cancelled call lets go of its callback at once (a channel's timer holds the channel, its
connection and its game's log), and the heap is rid of cancelled entries whenever they are
most of it: a timer cancelled long before it is due costs nothing after its game, however
long the run (as asyncio does with its own timers).

Where no timerfd can be made (not Linux, out of file descriptors), the loop's own
``call_at`` does the same work.
"""

from __future__ import annotations

import asyncio
import ctypes
import heapq
import itertools
import math
import os
import time
import weakref
from collections.abc import Callable
from typing import Protocol

CLOCK_MONOTONIC = 1
TFD_TIMER_ABSTIME = 1
_TFD_FLAGS = os.O_NONBLOCK | os.O_CLOEXEC  # TFD_NONBLOCK, TFD_CLOEXEC

COMPACT_AFTER = 64
"""Cancelled entries the heap may hold before it is rid of them (once they are also more
than half of it): few enough to be nothing, many enough that rebuilding the heap is rare."""

NEVER = 1e9
"""Seconds of the monotonic clock (some 30 years) from which a call is never made: no
timer is armed for it (a game may give a bot an infinite clock)."""


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("it_interval", _Timespec), ("it_value", _Timespec)]


class Cancellable(Protocol):
    """What :meth:`Alarm.call_at` returns, as ``asyncio.TimerHandle`` does."""

    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """An :class:`Alarm`, or the event loop itself where there is none."""

    def call_at(self, when: float, callback: Callable[[], object]) -> Cancellable: ...


class _Call:
    """One scheduled call: its callback until it is made or cancelled (then None), and the
    alarm that holds it while it waits in the heap."""

    __slots__ = ("alarm", "callback")

    def __init__(self, alarm: Alarm, callback: Callable[[], object]) -> None:
        self.alarm: Alarm | None = alarm
        self.callback: Callable[[], object] | None = callback

    def cancel(self) -> None:
        alarm = self.alarm
        self.callback = None
        if alarm is not None:
            self.alarm = None
            alarm.cancelled()


class Alarm:
    """Calls back at ``time.monotonic()`` instants (as ``loop.call_at`` does, the loop's
    clock being the same), from one timerfd the event loop reads."""

    def __init__(self, loop: asyncio.AbstractEventLoop, fd: int, libc: ctypes.CDLL) -> None:
        self._fd = fd  # the alarm keeps no reference to its loop, which owns it
        self._settime = libc.timerfd_settime
        self._due: list[tuple[float, int, _Call]] = []
        self._order = itertools.count()
        self._armed = math.inf
        """When the timerfd rings next (infinity: disarmed)."""
        self._cancelled = 0
        """Cancelled entries still in the heap."""
        loop.add_reader(fd, self._ring)

    def call_at(self, when: float, callback: Callable[[], object]) -> _Call:
        call = _Call(self, callback)
        heapq.heappush(self._due, (when, next(self._order), call))
        if when < self._armed:
            self._arm(when)
        return call

    def cancelled(self) -> None:
        """A call in the heap was cancelled: once such entries are most of the heap, it is
        made again without them."""
        self._cancelled += 1
        due = self._due
        if self._cancelled > COMPACT_AFTER and 2 * self._cancelled > len(due):
            due[:] = [entry for entry in due if entry[2].callback is not None]
            heapq.heapify(due)
            self._cancelled = 0

    def _arm(self, when: float) -> None:
        if when >= NEVER:
            return
        # Rounded up: rung, the alarm finds every call due at that instant due.
        nanoseconds = math.ceil(when * 1e9)
        value = _Timespec(nanoseconds // 1_000_000_000, nanoseconds % 1_000_000_000)
        spec = _Itimerspec(_Timespec(0, 0), value)
        if self._settime(self._fd, TFD_TIMER_ABSTIME, ctypes.byref(spec), None) != 0:
            raise OSError(ctypes.get_errno(), "timerfd_settime failed")
        self._armed = when

    def _ring(self) -> None:
        try:
            os.read(self._fd, 8)
        except BlockingIOError:
            return  # re-armed for later since it rang
        self._armed = math.inf
        loop = asyncio.get_running_loop()
        now = time.monotonic()
        due = self._due
        while due and due[0][0] <= now:
            call = heapq.heappop(due)[2]
            callback = call.callback
            if callback is None:
                self._cancelled -= 1
            else:
                call.alarm = None  # made: a cancel from now on is too late to count
                loop.call_soon(callback)  # as a loop's timer: its errors are the loop's
        while due and due[0][2].callback is None:
            heapq.heappop(due)
            self._cancelled -= 1
        if due:
            self._arm(due[0][0])


_alarms: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Alarm] = weakref.WeakKeyDictionary()


def alarm(loop: asyncio.AbstractEventLoop) -> Scheduler:
    """The alarm of ``loop`` (made at its first use; its timerfd is closed when the loop is
    gone), or the loop itself where no timerfd can be made."""
    found = _alarms.get(loop)
    if found is not None:
        return found
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.timerfd_create(CLOCK_MONOTONIC, _TFD_FLAGS)
    except (OSError, AttributeError):
        return loop
    if fd < 0:
        return loop
    weakref.finalize(loop, os.close, fd)
    found = _alarms[loop] = Alarm(loop, fd, libc)
    return found
