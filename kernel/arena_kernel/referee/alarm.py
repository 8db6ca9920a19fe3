"""The referee's deadlines on a kernel timer, so that the event loop keeps no timer for them.

While an asyncio loop has a timer scheduled, every iteration of the loop works out how long
it may wait, and its wait for events (``epoll_wait`` with a timeout) arms and cancels a
kernel timer. Each channel keeps its request's deadline scheduled, so that cost was paid
on every round trip with a bot: measured with ``benchmarks/echo_throughput.py``'s echo bot,
5 to 15 % of the CPU time of a whole bare asyncio round trip (and 14 % more instructions).
Here the deadlines of all channels of one event loop share one ``timerfd``, armed for the
earliest of them: the loop waits for it as for any file, without a timeout, and nothing is
paid per iteration.

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
    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], object]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


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
        loop.add_reader(fd, self._ring)

    def call_at(self, when: float, callback: Callable[[], object]) -> _Call:
        call = _Call(callback)
        heapq.heappush(self._due, (when, next(self._order), call))
        if when < self._armed:
            self._arm(when)
        return call

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
            if not call.cancelled:
                loop.call_soon(call.callback)  # as a loop's timer: its errors are the loop's
        while due and due[0][2].cancelled:
            heapq.heappop(due)
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
