"""The plot of a league's ratings after each block: a line, a band and a point per bot and
block drawn, a long league thinned to the latest block and every n-th before it, bot text
escaped."""

from __future__ import annotations

import itertools
import re

from arena_kernel.report.league import MOST_BLOCKS, history_chart
from arena_kernel.scoring.league_ratings import RatingPoint


def points(blocks: int, bots: tuple[str, ...]) -> list[RatingPoint]:
    return [
        RatingPoint(b, 10 * (b + 1), bot, 1500 + 10 * i + b % 7, 40 + 100 / (b + 1), 5 * (b + 1))
        for b in range(blocks)
        for i, bot in enumerate(bots)
    ]


def test_one_line_band_and_point_per_bot_and_block() -> None:
    svg = history_chart(points(5, ("a", "<b>")), ["a", "<b>"])
    assert svg.count('<polyline class="series"') == 2 and svg.count('class="band"') == 2
    assert svg.count('<circle class="point"') == 10
    assert "<b>" not in svg and "&lt;b&gt; after block 5 (50 games): 1514 ± 60" in svg
    assert history_chart(points(1, ("a", "b")), ["a", "b"]) == ""


def test_a_long_league_is_thinned_to_the_latest_block_and_every_nth_before() -> None:
    svg = history_chart(points(1000, ("a", "b", "c")), ["a", "b", "c"])
    drawn = [int(n) for n in re.findall(r"<title>a after block (\d+) ", svg)]
    assert len(drawn) <= MOST_BLOCKS and drawn[-1] == 1000
    steps = {b - a for a, b in itertools.pairwise(drawn)}
    assert steps == {7}
