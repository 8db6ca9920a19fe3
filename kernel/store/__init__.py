"""The results store: runs, games, seats, faults and event logs in one SQLite file."""

from arena_kernel.store.sqlite import (
    SCHEMA_VERSION,
    GameDetail,
    Store,
    StoredGame,
    sandbox_counts,
)

__all__ = ["SCHEMA_VERSION", "GameDetail", "Store", "StoredGame", "sandbox_counts"]
