"""The results store: runs, games, seats, faults and event logs in one SQLite file.

Each name is imported from its module on first use, so that a command importing one
module of the store (``arena standings`` reads a run's tally) does not pay for the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from arena_kernel.lazy_names import served_on_first_use

if TYPE_CHECKING:  # _EXPORTS for type checkers: the same names from the same modules
    from arena_kernel.store.runs import sandbox_counts as sandbox_counts
    from arena_kernel.store.schema import SCHEMA_VERSION as SCHEMA_VERSION
    from arena_kernel.store.sqlite import GameDetail as GameDetail
    from arena_kernel.store.sqlite import Store as Store
    from arena_kernel.store.sqlite import StoredGame as StoredGame

_EXPORTS: Final = {
    "SCHEMA_VERSION": "arena_kernel.store.schema",
    "GameDetail": "arena_kernel.store.sqlite",
    "Store": "arena_kernel.store.sqlite",
    "StoredGame": "arena_kernel.store.sqlite",
    "sandbox_counts": "arena_kernel.store.runs",
}

__all__ = ["SCHEMA_VERSION", "GameDetail", "Store", "StoredGame", "sandbox_counts"]

__getattr__ = served_on_first_use(__name__, _EXPORTS)
