"""A league's part of its run page: the ladder, and each bot's rating with its 95 %
interval after each block, drawn as a line in a band over the games played (inline SVG,
like the page's other pictures)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena_kernel.match.ladder import Rung, stored_ladder
from arena_kernel.model import Standings
from arena_kernel.report.charts import OverGames, color, legend, number
from arena_kernel.report.html import esc, table
from arena_kernel.scoring.league_ratings import RatingPoint
from arena_kernel.store.sqlite import Store

MOST_BLOCKS = 150
"""The most blocks the plot draws: a long league's are thinned to every n-th, counted back
from the latest, so that the page stays light however long the league runs."""


@dataclass(frozen=True)
class LeagueView:
    """What the page shows of a league, read from the store once: its ladder (as rungs
    and as a table), every bot in the league's order, and the ratings after each block."""

    rungs: Sequence[Rung]
    ladder: Standings
    bots: Sequence[str]
    history: Sequence[RatingPoint]


def league_view(store: Store, run_id: int) -> LeagueView:
    rungs, ladder = stored_ladder(store, run_id)
    bots = [bot.seat for bot in store.league_bots(run_id)]
    return LeagueView(rungs, ladder, bots, store.rating_history(run_id))


def league_section(view: LeagueView | None) -> str:
    """The ladder and the ratings over the blocks (nothing for a run that is no league)."""
    if view is None:
        return ""
    ladder = view.ladder
    notes = "".join(f'<p class="note">{esc(note)}</p>' for note in ladder.notes)
    chart = history_chart(view.history, view.bots)
    if not chart:
        chart = '<p class="note">no plot yet: the league has not finished a block</p>'
    return (
        f'<section class="panel" id="league"><h2>{esc(ladder.title)}</h2>'
        f'<div class="scroll">{table(ladder.columns, ladder.rows, cls="ladder")}</div>{notes}'
        "<h3>Ratings after each block</h3>"
        f"{chart}"
        '<p class="note">each line: a bot\'s Plackett-Luce rating after each block of the '
        "league, over the games counted then; the band: its 95% interval. A bot's line "
        "starts with its first rated block; a retired bot's goes on, its games still "
        "counting, without a game more.</p>"
        "</section>"
    )


def history_chart(points: Sequence[RatingPoint], bots: Sequence[str]) -> str:
    """A line per bot through its rating after each block (at most :data:`MOST_BLOCKS` of
    them), in a band of its interval; each point names the bot, the block, the games and
    the rating in its tooltip.
    ``bots`` fixes the colours (the league's order) and the legend."""
    blocks = sorted({p.block for p in points})
    if len(blocks) < 2:
        return ""
    step = -(-len(blocks) // MOST_BLOCKS)
    shown = set(blocks[::-1][::step])
    points = [p for p in points if p.block in shown]
    series: dict[str, list[RatingPoint]] = {}
    for point in points:
        series.setdefault(point.bot, []).append(point)
    values = [v for p in points for v in (p.rating - p.error, p.rating + p.error)]
    frame = OverGames.of(
        [v for v in values if math.isfinite(v)],
        min(p.games for p in points),
        max(p.games for p in points),
        height=360,
    )
    x, y = frame.x, frame.y
    parts = frame.opening("league-history", "ratings after each block")
    order = [*bots, *(bot for bot in series if bot not in bots)]
    for i, bot in enumerate(order):
        line = series.get(bot)
        if not line:
            continue
        hue = color(i)
        upper = [f"{x(p.games):.1f},{y(p.rating + p.error):.1f}" for p in line]
        lower = [f"{x(p.games):.1f},{y(p.rating - p.error):.1f}" for p in reversed(line)]
        parts.append(
            f'<polygon class="band" points="{" ".join(upper + lower)}" fill="{hue}" '
            'fill-opacity="0.12" stroke="none"/>'
        )
        path = " ".join(f"{x(p.games):.1f},{y(p.rating):.1f}" for p in line)
        parts.append(
            f'<polyline class="series" data-bot="{esc(bot)}" points="{path}" stroke="{hue}">'
            f"<title>{esc(bot)}</title></polyline>"
        )
        for p in line:
            parts.append(
                f'<circle class="point" cx="{x(p.games):.1f}" cy="{y(p.rating):.1f}" r="3" '
                f'fill="{hue}"><title>{esc(bot)} after block {p.block + 1} ({p.games} games): '
                f"{number(p.rating)} ± {number(p.error)}, {p.bot_games} games of its own"
                "</title></circle>"
            )
    parts.append("</svg>")
    drawn = [bot for bot in order if bot in series]
    places = [order.index(bot) for bot in drawn]
    return f'<figure class="history">{"".join(parts)}{legend(drawn, places)}</figure>'
