"""The report in a real headless Chromium, opened from disk: the Nim replay viewer stepped by
keys, buttons and slider, the run page's filters, a transcript page of a game with no
renderer, and bot text that never runs as script. No console error, no request."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena_kernel.plugin import Register, Renderer, Replay, Step, hookimpl
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store
from arena_kernel.testing.nim_render import NimRenderer
from arena_kernel.testkit import load_replay, write_report


@pytest.fixture
def site(nim_run: Path, tmp_path: Path) -> Path:
    return write_report(nim_run, tmp_path / "site").parent


def test_a_nim_replay_steps_to_the_winner(report_browser, nim_run, site):
    with Store(nim_run) as store:
        replays = [load_replay(store, g.game_id) for g in store.games(1)]
    clean = next(r for r in replays if not r.faults)
    check = report_browser.assert_replay_shows_winner(site, clean, screenshot="nim")
    assert check.steps == len(NimRenderer().steps(clean))
    assert check.screenshot is not None and check.screenshot.stat().st_size > 10_000
    faulted = next(r for r in replays if r.faults)
    report_browser.assert_replay_shows_winner(site, faulted, screenshot="nim_fault")


def test_the_viewer_steps_by_keys_buttons_slider_and_list(report_browser, nim_run, site):
    with Store(nim_run) as store:
        clean = next(g for g in store.games(1) if not g.faults)
        replay = load_replay(store, clean.game_id)
    steps = NimRenderer().steps(replay)
    assert len(steps) >= 4
    with report_browser.open(site / "games" / f"{replay.game_id}.html") as seen:
        page = seen.page

        def shown() -> tuple[str, str, str]:
            return (
                page.input_value("#slider"),
                page.inner_text("#label"),
                page.inner_text("#position"),
            )

        assert shown() == ("0", steps[0].label, f"1 / {len(steps)}")
        assert page.locator("#picture svg").count() == 1  # Nim's own drawing
        page.locator("body").press("ArrowRight")
        assert shown() == ("1", steps[1].label, f"2 / {len(steps)}")
        # The step's messages: the request and the reply that made the move.
        rows = page.locator("#messages tbody tr")
        first, last = steps[1].events
        assert rows.count() == last - first
        assert replay.events[first].text in rows.nth(0).inner_text()
        page.click("#last")
        assert shown()[0] == str(len(steps) - 1)
        assert page.inner_text("#caption") == steps[-1].caption
        assert page.is_disabled("#next") and not page.is_disabled("#prev")
        page.click("#prev")
        assert shown()[0] == str(len(steps) - 2)
        page.locator("body").press("Home")
        assert shown()[0] == "0" and page.is_disabled("#first")
        page.fill("#slider", "2")
        assert shown()[1] == steps[2].label
        page.locator("#steplist li button").nth(1).click()
        assert shown()[1] == steps[1].label
        assert seen.console_errors == [] and seen.requests == []


def test_the_run_page_lists_bots_and_scorers_and_filters_games(report_browser, site):
    index = site / "index.html"
    report_browser.assert_run_page_lists(index, ["optimal", "random", "cheat"], ["Wins", "Elo"])
    with report_browser.open(index) as seen:
        page = seen.page
        visible = page.locator("#games tbody tr:visible")
        assert page.inner_text("#games-shown") == "6 of 6 games"
        page.select_option("#filter-bot", "cheat")
        assert page.inner_text("#games-shown") == "4 of 6 games"
        page.select_option("#filter-fault", "none")
        assert page.inner_text("#games-shown") == "0 of 6 games" and visible.count() == 0
        page.select_option("#filter-fault", "illegal")
        assert page.inner_text("#games-shown") == "4 of 6 games"
        page.select_option("#filter-bot", "")
        page.select_option("#filter-result", "draw")
        assert page.inner_text("#games-shown") == "0 of 6 games"
        page.select_option("#filter-result", "win")
        assert visible.count() == 4
        # A game's link leads to its page.
        page.locator("#games tbody tr:visible a").first.click()
        page.wait_for_selector("#steplist li")
        assert "/games/" in page.url
        assert seen.console_errors == [] and seen.requests == []


def test_bot_text_shows_as_text_and_runs_nothing(report_browser, nim_run, site, hostile_text):
    with Store(nim_run) as store:
        game = next(g for g in store.games(1) if g.faults)
    with report_browser.open(site / "games" / f"{game.game_id}.html") as seen:
        page = seen.page
        body = page.inner_text("body")
        assert hostile_text in body  # the fault's reason, as written
        page.locator("body").press("End")
        messages = page.inner_text("#messages")
        page.locator("body").press("Home")
        for _ in range(len(page.locator("#steplist li").all())):
            messages += page.inner_text("#messages")
            page.locator("body").press("ArrowRight")
        assert "take 9 " + hostile_text in messages
        assert page.locator("#messages img, #messages script").count() == 0
        assert seen.console_errors == [] and seen.requests == []
        log = page.locator("a", has_text="stderr").first
        log.click()
        assert page.inner_text("body").startswith(hostile_text)


def test_a_game_without_a_renderer_is_its_transcript(report_browser, write_match, tmp_path):
    path = write_match(
        """
        game = "rps"
        [[bots]]
        name = "a"
        builtin = "random"
        [[bots]]
        name = "b"
        builtin = "rock"
        """
    )
    summary = run_match(path)
    assert not summary.errors
    site = write_report(summary.run.database, tmp_path / "rps").parent
    with Store(summary.run.database) as store:
        game = store.games(summary.run.run_id)[0]
        replay = load_replay(store, game.game_id)
    # A win or a draw (the random bot is not seeded): either way the bots ranked first are
    # named at the end.
    check = report_browser.assert_replay_shows_winner(site, replay, screenshot="rps")
    assert check.steps >= 2


class FailsAtItsSecondStep:
    """A plugin whose rock-paper-scissors drawing throws at the second step only."""

    class Renderer(Renderer):
        name = "rps"
        summary = "a step per event, drawn until the second"

        def steps(self, replay: Replay) -> list[Step]:
            return [Step(str(i), (i, i + 1)) for i in range(len(replay.events))]

        def script(self) -> str:
            return (
                "arenaReport.drawers.rps = function (element, picture, context) {\n"
                '  if (context.step === 1) throw new Error("no picture here");\n'
                '  element.textContent = "step " + context.step;\n'
                "};\n"
            )

    @staticmethod
    @hookimpl
    def arena_register_renderers(register: Register) -> None:
        register(FailsAtItsSecondStep.Renderer)


def test_a_drawing_that_fails_at_any_step_is_a_console_error(report_browser, write_match, tmp_path):
    path = write_match(
        """
        game = "rps"
        [[bots]]
        name = "a"
        builtin = "rock"
        [[bots]]
        name = "b"
        builtin = "random"
        """
    )
    summary = run_match(path)
    assert not summary.errors
    site = write_report(
        summary.run.database, tmp_path / "rps", plugins=[FailsAtItsSecondStep]
    ).parent
    with Store(summary.run.database) as store:
        replay = load_replay(store, store.games(summary.run.run_id)[0].game_id)
    with report_browser.open(site / "games" / f"{replay.game_id}.html") as seen:
        assert seen.page.inner_text("#picture") == "step 0"
        assert seen.console_errors == []
    with pytest.raises(AssertionError, match=r"the rps drawing failed at step 2:"):
        report_browser.assert_replay_shows_winner(site, replay)


def test_replies_show_their_cpu_time_and_wall_cap_faults_filter(report_browser, cpu_run, tmp_path):
    site = write_report(cpu_run, tmp_path / "site").parent

    def reply_time(seen) -> tuple[str, str | None]:
        """The time shown of the first step's reply (busy's, the step's second message)."""
        cell = seen.page.locator("#messages tbody tr").nth(1).locator("td").nth(4)
        return cell.inner_text(), cell.get_attribute("title")

    with report_browser.open(site / "games" / "1.html") as seen:
        assert reply_time(seen) == (
            "153.0 \u00b7 CPU 150.0",
            "153.0 ms from request to reply, 150.0 ms of CPU time",
        )
        assert seen.console_errors == [] and seen.requests == []
    with report_browser.open(site / "games" / "3.html") as seen:  # a run without CPU times
        assert reply_time(seen) == ("153.0", None)
    with report_browser.open(site / "runs" / "1.html") as seen:
        page = seen.page
        page.select_option("#filter-fault", "wall-cap")
        assert page.inner_text("#games-shown") == "1 of 2 games"
        shown = page.locator("#games tbody tr:visible td.faults")
        assert shown.inner_text() == "wall-cap"
        assert shown.evaluate("cell => getComputedStyle(cell).color") == "rgb(185, 28, 28)"
        assert seen.console_errors == [] and seen.requests == []
