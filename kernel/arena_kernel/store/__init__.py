"""The results store: runs, games, seats, faults and event logs in one SQLite file."""

from arena_kernel.store.schema import SCHEMA_VERSION
from arena_kernel.store.sqlite import (
    GameDetail,
    Store,
    StoredGame,
    sandbox_counts,
)

__all__ = ["SCHEMA_VERSION", "GameDetail", "Store", "StoredGame", "sandbox_counts"]
