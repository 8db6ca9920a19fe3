"""The run page's pictures as inline SVG: a dot-and-whisker chart of a table's estimates
and a line plot of ratings over the games played. Inline, so a page opened from disk needs
no file, script or library to show them."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena_kernel.model import Estimate
from arena_kernel.report.html import esc

PALETTE = (
    "#2563eb",
    "#d97706",
    "#059669",
    "#dc2626",
    "#7c3aed",
    "#0891b2",
    "#db2777",
    "#65a30d",
    "#4b5563",
    "#ea580c",
)
"""Line colours, by the bot's place in the run's list (the same bot, the same colour)."""


def color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def number(value: float) -> str:
    """A figure rounded for an axis or a tooltip: ratings in whole points, rates finer."""
    size = abs(value)
    if size >= 100:
        return f"{value:.0f}"
    if size >= 1:
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round values spanning ``[low, high]``."""
    span = high - low
    if span <= 0:
        return [low]
    raw = span / max(1, count)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    values = []
    value = first
    while value <= high + step * 1e-9:
        values.append(round(value, 10))
        value += step
    return values


def _range(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high - low < 1e-9:
        return low - 1, high + 1
    pad = (high - low) * 0.05
    return low - pad, high + pad


def estimate_chart(
    estimates: Mapping[str, Estimate], order: Sequence[str], label: str, roster: Sequence[str]
) -> str:
    """One row per bot (in ``order``, the table's): its figure as a dot, its interval as
    a whisker; ``label`` says what the figure is. A bot's colour is that of its place in
    ``roster``, as in the plot over the games."""
    bots = [bot for bot in order if bot in estimates]
    place = {bot: i for i, bot in enumerate(roster)}
    if not bots:
        return ""
    ends = [
        value
        for bot in bots
        for value in (estimates[bot].value, estimates[bot].low, estimates[bot].high)
        if value is not None and math.isfinite(value)
    ]
    if not ends:
        return ""
    low, high = _range(ends)
    left, right, top, row = 130, 16, 12, 26
    width = 460
    height = top + row * len(bots) + 34
    plot = width - left - right

    def x(value: float) -> float:
        return left + (value - low) / (high - low) * plot

    parts = [
        f'<svg class="chart estimates" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{esc(label)}">'
    ]
    axis_y = top + row * len(bots) + 4
    for tick in ticks(low, high):
        tx = x(tick)
        parts.append(
            f'<line class="grid" x1="{tx:.1f}" y1="{top - 4}" x2="{tx:.1f}" y2="{axis_y}"/>'
            f'<text class="tick" x="{tx:.1f}" y="{axis_y + 16}">{esc(number(tick))}</text>'
        )
    for i, bot in enumerate(bots):
        estimate = estimates[bot]
        cy = top + row * i + row / 2
        interval = ""
        if estimate.low is not None and estimate.high is not None:
            x1, x2 = x(estimate.low), x(estimate.high)
            interval = f" ({number(estimate.low)} to {number(estimate.high)})"
            parts.append(
                f'<line class="whisker" x1="{x1:.1f}" y1="{cy}" x2="{x2:.1f}" y2="{cy}"/>'
                f'<line class="whisker" x1="{x1:.1f}" y1="{cy - 6}" x2="{x1:.1f}" y2="{cy + 6}"/>'
                f'<line class="whisker" x1="{x2:.1f}" y1="{cy - 6}" x2="{x2:.1f}" y2="{cy + 6}"/>'
            )
        parts.append(
            f'<text class="name" x="{left - 10}" y="{cy + 4}">{esc(bot)}</text>'
            f'<circle class="dot" cx="{x(estimate.value):.1f}" cy="{cy}" r="5" '
            f'fill="{color(place.get(bot, i))}"><title>{esc(bot)}: {esc(number(estimate.value))}'
            f"{esc(interval)}</title></circle>"
        )
    parts.append(
        f'<line class="axis" x1="{left}" y1="{axis_y}" x2="{width - right}" y2="{axis_y}"/></svg>'
    )
    return "".join(parts)


@dataclass(frozen=True)
class OverGames:
    """The frame of a plot over the games counted: its values from ``low`` to ``high``
    (padded), its games from ``first`` to ``last``; :meth:`x` and :meth:`y` place a point,
    :meth:`opening` is the SVG up to the lines, grid, ticks and axis drawn."""

    low: float
    high: float
    first: int
    last: int
    height: int = 340
    width: int = 1000
    left: int = 64
    right: int = 20
    top: int = 14
    bottom: int = 40

    @classmethod
    def of(cls, values: Sequence[float], first: int, last: int, height: int = 340) -> OverGames:
        low, high = _range(values)
        return cls(low, high, first, last, height)

    def x(self, games: float) -> float:
        plot_w = self.width - self.left - self.right
        return self.left + (games - self.first) / max(1, self.last - self.first) * plot_w

    def y(self, value: float) -> float:
        plot_h = self.height - self.top - self.bottom
        return self.top + (self.high - value) / (self.high - self.low) * plot_h

    def opening(self, css: str, label: str, counted: str = "games counted") -> list[str]:
        """``counted``: what the horizontal axis counts."""
        left, right, width, height = self.left, self.right, self.width, self.height
        axis = height - self.bottom
        parts = [
            f'<svg class="chart {css}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{esc(label)}">'
        ]
        for tick in ticks(self.low, self.high):
            ty = self.y(tick)
            shown = esc(number(tick))
            parts.append(
                f'<line class="grid" x1="{left}" y1="{ty:.1f}" x2="{width - right}" y2="{ty:.1f}"/>'
                f'<text class="tick left" x="{left - 6}" y="{ty + 4:.1f}">{shown}</text>'
            )
        for tick in ticks(self.first, self.last, 6):
            if tick != int(tick):
                continue
            tx = self.x(int(tick))
            parts.append(f'<text class="tick" x="{tx:.1f}" y="{axis + 16}">{int(tick)}</text>')
        middle = left + (width - left - right) / 2
        parts.append(
            f'<text class="axis-label" x="{middle}" y="{height - 6}">{esc(counted)}</text>'
            f'<line class="axis" x1="{left}" y1="{axis}" x2="{width - right}" y2="{axis}"/>'
        )
        return parts


def legend(bots: Sequence[str], places: Sequence[int]) -> str:
    """The plot's legend: each bot with the colour of its place."""
    items = "".join(
        f'<li><span class="swatch" style="background:{color(i)}"></span>{esc(bot)}</li>'
        for i, bot in zip(places, bots, strict=True)
    )
    return f'<ul class="legend">{items}</ul>'


def history_chart(
    points: Sequence[tuple[int, Mapping[str, float]]], bots: Sequence[str], label: str
) -> str:
    """A line per bot through its figure after each checkpoint: ``points`` are (games
    counted, {bot: figure}); ``bots`` fixes the colours and the legend's order."""
    values = [v for _, figures in points for v in figures.values() if math.isfinite(v)]
    if len(points) < 2 or not values:
        return ""
    frame = OverGames.of(values, points[0][0], points[-1][0])
    parts = frame.opening("history", label)
    for i, bot in enumerate(bots):
        line = [
            f"{frame.x(games):.1f},{frame.y(figures[bot]):.1f}"
            for games, figures in points
            if bot in figures and math.isfinite(figures[bot])
        ]
        if line:
            parts.append(
                f'<polyline class="series" points="{" ".join(line)}" stroke="{color(i)}">'
                f"<title>{esc(bot)}</title></polyline>"
            )
    parts.append("</svg>")
    return f'<figure class="history">{"".join(parts)}{legend(bots, range(len(bots)))}</figure>'


def llr_chart(llrs: Sequence[float], lower: float, upper: float, decided_at: int | None) -> str:
    """An SPRT's log-likelihood ratio after each pair (``llrs[i]`` after ``i + 1`` pairs)
    between its two bounds; the pairs completed after the test decided at pair
    ``decided_at`` are drawn apart (dashed), after a mark at the decision. Long tests are
    drawn through at most about a thousand of their points, the decision among them."""
    if not llrs:
        return ""
    every = max(1, len(llrs) // 1000)
    shown = sorted(
        {0, len(llrs) - 1, *range(0, len(llrs), every)}
        | ({decided_at - 1} if decided_at is not None else set())
    )
    low, high = _range([lower, upper, *(llrs[i] for i in shown)])
    frame = OverGames(low, high, 0, len(llrs), height=300, right=48)
    parts = frame.opening("llr", "LLR after each pair of games", "pairs of games")
    for name, bound in (("H1", upper), ("H0", lower)):
        y = frame.y(bound)
        parts.append(
            f'<line class="bound" x1="{frame.left}" y1="{y:.1f}" '
            f'x2="{frame.width - frame.right}" y2="{y:.1f}"/><text class="tick bound-name" '
            f'x="{frame.width - frame.right + 6}" y="{y + 4:.1f}">{name}</text>'
        )
    end = len(llrs) if decided_at is None else decided_at
    counted = [(0, 0.0)] + [(i + 1, llrs[i]) for i in shown if i < end]
    after = [(i + 1, llrs[i]) for i in shown if i >= end - 1] if decided_at is not None else []
    for points, kind in ((counted, "series"), (after, "series after")):
        if len(points) > 1:
            line = " ".join(f"{frame.x(n):.1f},{frame.y(v):.1f}" for n, v in points)
            parts.append(f'<polyline class="{kind}" points="{line}"/>')
    if decided_at is not None:
        value = llrs[decided_at - 1]
        parts.append(
            f'<circle class="decision" cx="{frame.x(decided_at):.1f}" cy="{frame.y(value):.1f}" '
            f'r="5"><title>decided after {decided_at} pairs: LLR {esc(number(value))}</title>'
            "</circle>"
        )
    parts.append("</svg>")
    return "".join(parts)
