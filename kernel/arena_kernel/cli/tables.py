"""Plain-text tables for standings and listings (no terminal library needed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def render(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Columns padded to their widest cell; numbers right-aligned, text left-aligned."""
    text = [[_text(v) for v in row] for row in rows]
    widths = [max([len(col), *(len(r[i]) for r in text)]) for i, col in enumerate(columns)]
    numeric = [
        bool(rows) and all(isinstance(row[i], int | float | None) for row in rows)
        for i in range(len(columns))
    ]

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ).rstrip()

    out = [line(list(columns)), line(["-" * w for w in widths])]
    out.extend(line(r) for r in text)
    return "\n".join(out)


def _text(value: Any) -> str:
    """A cell's text: a string is its own (a listing of plugins, of only strings, pays
    nothing for the model the standings' numbers are formatted by)."""
    if isinstance(value, str):
        return value
    from arena_kernel.model import cell

    return cell(value)
