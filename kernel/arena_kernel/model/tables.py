"""The standings tables the scorers make, and how their values read as text."""

from __future__ import annotations

from typing import Any

from arena_kernel.model.values import FrozenValue, Value, set_fields


class Estimate(FrozenValue):
    """A bot's figure in a table with, where the scorer knows it, the interval it is
    likely in: what the report draws as a bar with error bars and plots over the games."""

    __slots__ = ("value", "low", "high")  # noqa: RUF023 - the fields, in order

    value: float
    low: float | None
    high: float | None

    def __init__(self, value: float, low: float | None = None, high: float | None = None) -> None:
        set_fields(self, value=value, low=low, high=high)


class Standings(Value):
    """One scorer's table: plain data, printed (and exported) by the CLI.

    ``rows`` are sorted best first, one value per column; a value is None where it is
    undefined (a rate of a bot that played no counted game). ``notes`` tell the reader
    what was left out and why. ``estimates`` hold, per bot that has one, the figure the
    table ranks by (or its natural scale) with its interval, and ``estimate`` says what
    it is ("Elo, 95% interval").
    """

    __slots__ = ("title", "columns", "rows", "notes", "estimate", "estimates")  # noqa: RUF023

    title: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    notes: list[str]
    estimate: str
    estimates: dict[str, Estimate]

    def __init__(
        self,
        title: str,
        columns: tuple[str, ...],
        rows: list[tuple[Any, ...]],
        notes: list[str] | None = None,
        estimate: str = "",
        estimates: dict[str, Estimate] | None = None,
    ) -> None:
        self.title = title
        self.columns = columns
        self.rows = rows
        self.notes = [] if notes is None else notes
        self.estimate = estimate
        self.estimates = {} if estimates is None else estimates


def cell(value: Any) -> str:
    """A standings value as text, in a terminal and in the report alike. Scorers round their
    numbers for display already; None means "undefined"."""
    if isinstance(value, float):
        return f"{value:g}"
    return "-" if value is None else str(value)
