"""A league's run page in a real headless Chromium: the ladder in its order with the
retired bot and the newcomer, and the ratings after each block, one line and band per
bot, each point's tooltip naming its figures. No console error, no request."""

from __future__ import annotations

from pathlib import Path

from arena_kernel.runner.api import run_match
from arena_kernel.runner.league import Sitting
from arena_kernel.store import Store
from arena_kernel.testkit import write_report

FIRST = ("elo100", "elo400", "elo700", "elo1000")


def league(bots: tuple[str, ...], retired: tuple[str, ...] = ()) -> str:
    text = (
        'game = "duel"\nplugins = ["arena_kernel.testing.duel"]\nformat = "league"\nseed = 3\n'
        "[league]\nblock = 8\n"
    )
    for bot in bots:
        text += f'[[bots]]\nname = "{bot}"\nbuiltin = "{bot}"\ninproc = true\n'
        text += "retired = true\n" if bot in retired else ""
    return text


def test_the_ladder_and_the_ratings_over_the_blocks(report_browser, write_match, tmp_path):
    run_match(write_match(league(FIRST)), sitting=Sitting(games=48))
    summary = run_match(
        write_match(league((*FIRST, "elo1300"), retired=("elo100",))), sitting=Sitting(games=64)
    )
    with Store(summary.run.database) as store:
        history = store.rating_history(1)
    index = write_report(summary.run.database, tmp_path / "site")

    with report_browser.open(index) as seen:
        page = seen.page
        rows = page.locator("#league table.ladder tbody tr")
        ladder = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(rows.count())]
        assert ladder == ["elo1300", "elo1000", "elo700", "elo400", "elo100"]
        status = {
            rows.nth(i).locator("td").nth(1).inner_text(): rows.nth(i).locator("td").nth(5)
            for i in range(rows.count())
        }
        assert status["elo100"].inner_text() == "retired"
        assert status["elo1300"].inner_text() == "plays"
        assert "league, 2 seats, blocks of 8 games" in page.inner_text("body")
        chart = page.locator("#league svg.league-history")
        assert chart.is_visible()
        lines = chart.locator("polyline.series")
        drawn = {lines.nth(i).get_attribute("data-bot") for i in range(lines.count())}
        assert drawn == {*FIRST, "elo1300"}
        assert chart.locator("polygon.band").count() == 5
        points = chart.locator("circle.point")
        assert points.count() == len(history)
        newcomer = [p for p in history if p.bot == "elo1300"]
        tips = [points.nth(i).locator("title").text_content() for i in range(points.count())]
        first = newcomer[0]
        assert (
            f"elo1300 after block {first.block + 1} ({first.games} games): "
            f"{round(first.rating)} ± {round(first.error)}"
        ) in [tip.split(",")[0] for tip in tips]
        legend = page.locator("#league ul.legend li")
        assert [legend.nth(i).inner_text() for i in range(legend.count())] == [
            *FIRST,
            "elo1300",
        ]
        chart.screenshot(path=str(report_browser.artifacts / "league_history.png"))
        assert seen.console_errors == [] and seen.requests == []
    assert (report_browser.artifacts / "league_history.png").stat().st_size > 10_000


def test_a_run_that_is_no_league_has_no_league_section(write_match, tmp_path: Path) -> None:
    text = 'game = "nim"\nrounds = 1\n[[bots]]\nname = "a"\nbuiltin = "optimal"\ninproc = true\n'
    text += '[[bots]]\nname = "b"\nbuiltin = "random"\ninproc = true\n'
    summary = run_match(write_match(text))
    html = write_report(summary.run.database, tmp_path / "site").read_text()
    assert 'id="league"' not in html
