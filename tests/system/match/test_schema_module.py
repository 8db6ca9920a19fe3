"""The key table in the README is what ``python -m arena_kernel.match.schema --markdown``
prints, in a fresh interpreter as a writer of the docs runs it."""

from __future__ import annotations

import subprocess
import sys

from arena_kernel.match.schema import declared, markdown
from arena_kernel.match.spec import MatchSpec


def test_the_key_table_is_printed_by_the_schema_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arena_kernel.match.schema", "--markdown"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == markdown(MatchSpec)
    lines = done.stdout.splitlines()

    def rows(spec_class: type) -> int:
        """A row per key, per key of its table, and per key of each table of an array."""
        return sum(
            1 + len(e.key.table or {}) + (rows(e.key.items) if e.key.items else 0)
            for e in declared(spec_class)
        )

    assert len(lines) == 2 + rows(MatchSpec)
    assert "| `[bots.sandbox] writable` |" in done.stdout
