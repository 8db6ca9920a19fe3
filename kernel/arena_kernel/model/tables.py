"""The standings tables the scorers make, and how their values read as text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Estimate:
    """A bot's figure in a table with, where the scorer knows it, the interval it is
    likely in: what the report draws as a bar with error bars and plots over the games."""

    value: float
    low: float | None = None
    high: float | None = None


@dataclass
class Standings:
    """One scorer's table: plain data, printed (and exported) by the CLI.

    ``rows`` are sorted best first, one value per column; a value is None where it is
    undefined (a rate of a bot that played no counted game). ``notes`` tell the reader
    what was left out and why. ``estimates`` hold, per bot that has one, the figure the
    table ranks by (or its natural scale) with its interval, and ``estimate`` says what
    it is ("Elo, 95% interval").
    """

    title: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    notes: list[str] = field(default_factory=list)
    estimate: str = ""
    estimates: dict[str, Estimate] = field(default_factory=dict)


def cell(value: Any) -> str:
    """A standings value as text, in a terminal and in the report alike. Scorers round their
    numbers for display already; None means "undefined"."""
    if isinstance(value, float):
        return f"{value:g}"
    return "-" if value is None else str(value)
