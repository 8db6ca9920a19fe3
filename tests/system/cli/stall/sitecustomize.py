"""Stops an ``arena`` process at a known moment, for a test to signal it there.

On ``PYTHONPATH``, Python imports this module as it starts. When the module named by
``ARENA_TEST_STALL_AT`` is then first imported, the import creates the file named by
``ARENA_TEST_STALL_FILE`` and waits (two minutes at most), so that the signal lands in
the middle of that import.

Two names are moments of the interpreter's exit, after the command has ended, rather than
modules: ``exit:threads`` (Python waiting for the threads still running) and
``exit:modules`` (Python clearing the modules, after it has given the signals their
default action back). There the process creates the file, then waits until a file of the
same name with ``.go`` added exists (two minutes at most) and goes on exiting.
"""

from __future__ import annotations

import builtins
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

STALL_AT = os.environ.get("ARENA_TEST_STALL_AT")
STALL_FILE = os.environ.get("ARENA_TEST_STALL_FILE")
WAIT = 120.0


class Stall:
    """A finder that finds nothing: it only stalls the import of ``STALL_AT``, once."""

    def __init__(self, module: str, reached: str) -> None:
        self.module = module
        self.reached = reached

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name == self.module:
            sys.meta_path.remove(self)
            hold = Hold(self.reached)
            hold.note()
            hold.wait_for(lambda: False)
        return None


class Hold:
    """Notes that the moment is reached, then waits for the go. It keeps what it calls:
    at the clearing of the modules, this module's names and the built-ins may be gone."""

    def __init__(self, reached: str) -> None:
        self.reached = reached
        self.pid = os.getpid()
        self.open = open
        self.exists = os.path.exists
        self.sleep = time.sleep
        self.monotonic = time.monotonic

    def note(self) -> None:
        with self.open(self.reached, "w") as note:
            note.write(f"{self.pid}\n")

    def __call__(self) -> None:
        self.note()
        self.wait_for(lambda: self.exists(self.reached + ".go"))

    def wait_for(self, done: Callable[[], bool]) -> None:
        """Until ``done()`` or ``WAIT`` s have passed, in sleeps of 10 ms: Python handles
        a signal between two sleeps, where one that came just before a single long sleep
        would wait for its end."""
        deadline = self.monotonic() + WAIT
        while not done() and self.monotonic() < deadline:
            self.sleep(0.01)


class HoldAtModuleClearing:
    """Held only by a name added to the built-ins, it is freed, and holds the exit, as
    Python clears the modules and gives the built-ins back their first names."""

    def __init__(self, hold: Hold) -> None:
        self.hold = hold

    def __del__(self) -> None:
        self.hold()


def hold_after_the_command(hold: Hold) -> None:
    """In a thread that outlives the command, which the exit waits for."""
    threading.main_thread().join()
    hold()


if STALL_AT and STALL_FILE:
    if STALL_AT == "exit:threads":
        threading.Thread(target=hold_after_the_command, args=(Hold(STALL_FILE),)).start()
    elif STALL_AT == "exit:modules":
        builtins.arena_test_stall = HoldAtModuleClearing(Hold(STALL_FILE))  # type: ignore[attr-defined]
    else:
        sys.meta_path.insert(0, Stall(STALL_AT, STALL_FILE))
