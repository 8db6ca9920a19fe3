"""Stops an ``arena`` process at a known moment, for a test to signal it there.

On ``PYTHONPATH``, Python imports this module as it starts. When the module named by
``ARENA_TEST_STALL_AT`` is then first imported, the import creates the file named by
``ARENA_TEST_STALL_FILE`` and sleeps (two minutes at most), so that the signal lands in
the middle of that import.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

STALL_AT = os.environ.get("ARENA_TEST_STALL_AT")
STALL_FILE = os.environ.get("ARENA_TEST_STALL_FILE")


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
            with open(self.reached, "w") as note:
                note.write(f"{os.getpid()}\n")
            time.sleep(120)
        return None


if STALL_AT and STALL_FILE:
    sys.meta_path.insert(0, Stall(STALL_AT, STALL_FILE))
