"""The report in a real headless Chromium, opened from disk: the Nim replay viewer stepped by
keys, buttons, slider and by itself, each seat's own view, the run page's games list
(filters, a bot's results, sorting, search by id, pages), a transcript of a game with no
renderer, and bot text that never runs as script. No console error, no request."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arena_kernel.plugin import Register, Renderer, Replay, Step, hookimpl
from arena_kernel.report.game_list import read_game_list
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store
from arena_kernel.testing.browser import DRAWN
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
    with report_browser.open_game(site, replay.game_id) as seen:
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


def listed_ids(page) -> list[int]:
    return [int(text) for text in page.locator("#games tbody tr td:first-child").all_inner_texts()]


def test_the_run_page_lists_bots_and_scorers_and_filters_games(report_browser, nim_run, site):
    index = site / "index.html"
    report_browser.assert_run_page_lists(index, ["optimal", "random", "cheat"], ["Wins", "Elo"])
    with Store(nim_run) as store:
        games = store.games(1)

    def results_of(bot: str) -> dict[str, int]:
        """How many games ``bot`` won, drew and lost alone at the top."""
        counts = {"won": 0, "drawn": 0, "lost": 0}
        for game in games:
            if bot in game.seating:
                mine = game.ranks[game.seating.index(bot)]
                firsts = game.ranks.count(1)
                counts["lost" if mine > 1 else "won" if firsts == 1 else "drawn"] += 1
        return counts

    with report_browser.open(index) as seen:
        page = seen.page
        rows = page.locator("#games tbody tr")
        assert page.inner_text("#games-shown") == "6 of 6 games"
        page.select_option("#filter-bot", "cheat")
        assert page.inner_text("#games-shown") == "4 of 6 games"
        page.select_option("#filter-fault", "none")
        assert page.inner_text("#games-shown") == "0 of 6 games" and rows.count() == 0
        page.select_option("#filter-fault", "illegal")
        assert page.inner_text("#games-shown") == "4 of 6 games"
        page.select_option("#filter-fault", "")
        # The result filter is the chosen bot's: the cheat lost all four of its games.
        for bot in ("cheat", "optimal", "random"):
            page.select_option("#filter-bot", bot)
            for result, count in results_of(bot).items():
                page.select_option("#filter-result", result)
                assert page.inner_text("#games-shown") == f"{count} of 6 games", (bot, result)
        assert results_of("cheat") == {"won": 0, "drawn": 0, "lost": 4}
        page.select_option("#filter-bot", "")
        page.select_option("#filter-result", "drawn")
        assert page.inner_text("#games-shown") == "0 of 6 games"
        page.select_option("#filter-result", "won")
        assert rows.count() == 6, "any bot: the games that had one winner"
        # Each row names the winner and the reason.
        cheat_lost = next(g for g in games if "cheat" in g.seating)
        page.fill("#search-id", str(cheat_lost.game_id))
        assert page.inner_text("#games-shown") == "1 of 6 games"
        (winner,) = [b for b, r in zip(cheat_lost.seating, cheat_lost.ranks, strict=True) if r == 1]
        assert rows.nth(0).locator("td.winner").inner_text() == winner
        assert rows.nth(0).locator("td.reason").inner_text() == cheat_lost.reason
        # A game's link leads to its page.
        rows.nth(0).locator("a").click()
        page.wait_for_selector("#steplist li")
        assert page.url.endswith(f"/game.html#{cheat_lost.game_id}")
        assert page.inner_text("#title").startswith(f"game {cheat_lost.game_id}: ")
        assert seen.console_errors == [] and seen.requests == []


def test_the_games_list_sorts_by_a_column(report_browser, nim_run, site):
    with Store(nim_run) as store:
        games = store.games(1)
    with report_browser.open(site / "runs" / "1.html") as seen:
        page = seen.page
        by_index = [g.game_id for g in sorted(games, key=lambda g: g.index)]
        assert listed_ids(page) == by_index, "in schedule order at first"
        page.click("#games th button[data-sort=id]")
        assert listed_ids(page) == sorted(by_index)
        page.click("#games th button[data-sort=id]")
        assert listed_ids(page) == sorted(by_index, reverse=True)
        page.click("#games th button[data-sort=seconds]")
        by_time = sorted(games, key=lambda g: (round(g.duration, 2), g.index))
        assert listed_ids(page) == [g.game_id for g in by_time]
        assert page.get_attribute("#games th:has(button[data-sort=seconds])", "aria-sort") == (
            "ascending"
        )
        assert seen.console_errors == [] and seen.requests == []


def test_bot_text_shows_as_text_and_runs_nothing(report_browser, nim_run, site, hostile_text):
    with Store(nim_run) as store:
        game = next(g for g in store.games(1) if g.faults)
    with report_browser.open_game(site, game.game_id) as seen:
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
        page.locator("#seats button", has_text="stderr").first.click()
        assert page.inner_text("#log").startswith(hostile_text)
        assert page.locator("#log script, #log img").count() == 0
        assert seen.console_errors == []


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
    with report_browser.open_game(site, replay.game_id) as seen:
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

    with report_browser.open_game(site, 1) as seen:
        assert reply_time(seen) == (
            "153.0 \u00b7 CPU 150.0",
            "153.0 ms from request to reply, 150.0 ms of CPU time",
        )
        assert seen.console_errors == [] and seen.requests == []
    with report_browser.open_game(site, 3) as seen:  # a run without CPU times
        assert reply_time(seen) == ("153.0", None)
    with report_browser.open(site / "runs" / "1.html") as seen:
        page = seen.page
        page.select_option("#filter-fault", "wall-cap")
        assert page.inner_text("#games-shown") == "1 of 2 games"
        shown = page.locator("#games tbody tr td.faults")
        assert shown.inner_text() == "wall-cap"
        assert shown.evaluate("cell => getComputedStyle(cell).color") == "rgb(185, 28, 28)"
        assert seen.console_errors == [] and seen.requests == []


def test_the_viewer_plays_by_itself_at_the_chosen_speed(report_browser, nim_run, site):
    with Store(nim_run) as store:
        replay = load_replay(store, next(g for g in store.games(1) if not g.faults).game_id)
    last = str(len(NimRenderer().steps(replay)) - 1)
    with report_browser.open_game(site, replay.game_id) as seen:
        page = seen.page
        page.select_option("#speed", "10")
        page.click("#play")
        assert page.inner_text("#play") == "pause"
        page.wait_for_function(f"() => document.getElementById('slider').value === '{last}'")
        assert page.inner_text("#play") == "play", "it stops at the last step"
        page.locator("body").press("Home")
        page.locator("body").press(" ")
        page.wait_for_function("() => document.getElementById('slider').value !== '0'")
        page.locator("body").press(" ")
        paused = page.input_value("#slider")
        assert page.inner_text("#play") == "play" and paused != last
        page.wait_for_timeout(400)
        assert page.input_value("#slider") == paused, "paused, it stays"
        page.reload()
        page.wait_for_function(DRAWN)
        assert page.input_value("#speed") == "10", "the speed chosen is kept"
        assert seen.console_errors == [] and seen.requests == []


def test_each_seat_has_its_own_view_beside_the_referees(report_browser, nim_run, site):
    with Store(nim_run) as store:
        replay = load_replay(store, next(g for g in store.games(1) if not g.faults).game_id)
    steps = NimRenderer().steps(replay)
    with report_browser.open_game(site, replay.game_id) as seen:
        page = seen.page
        page.locator("body").press("ArrowRight")
        page.locator("body").press("ArrowRight")
        for seat in (0, 1):
            page.select_option("#seat-view", str(seat))
            mine = [e.text for e in replay.events[: steps[2].events[1]] if e.seat == seat]
            shown = page.locator("#seat-messages tbody td.text").all_inner_texts()
            assert shown == mine and mine
            now = page.locator("#seat-messages tbody tr.now td.text").all_inner_texts()
            start, stop = steps[2].events
            assert now == [e.text for e in replay.events[start:stop] if e.seat == seat]
        assert seen.console_errors == [] and seen.requests == []


def test_a_game_page_without_a_game_of_the_report_says_so(report_browser, site):
    for fragment, words in (("9999", "there is no game 9999"), ("x", "no game chosen")):
        with report_browser.open(site / "game.html", fragment) as seen:
            assert words in seen.page.inner_text("#missing")
            assert seen.console_errors == [] and seen.requests == []


@pytest.fixture(scope="module")
def long_run(tmp_path_factory) -> Path:
    """130 games of Nim between two in-process bots with hyphens in their names."""
    folder = tmp_path_factory.mktemp("long")
    match = folder / "match.toml"
    match.write_text(
        'plugins = ["arena_kernel.testing.games"]\ngame = "nim"\nrounds = 65\n'
        f'database = "{folder / "long.sqlite"}"\nlogs = "{folder / "logs"}"\n'
        '[[bots]]\nname = "optimal-bot-number-1"\nbuiltin = "optimal"\ninproc = true\n'
        '[[bots]]\nname = "random-bot-number-2"\nbuiltin = "random"\ninproc = true\n'
    )
    summary = run_match(match)
    assert summary.played == 130 and not summary.errors
    return write_report(summary.run.database, folder / "site").parent


def test_a_long_games_list_is_paged_and_found_by_id(report_browser, long_run):
    with report_browser.open(long_run / "index.html") as seen:
        page = seen.page
        rows = page.locator("#games tbody tr")
        assert rows.count() == 50 and page.inner_text("#page-at") == "page 1 of 3"
        assert page.is_disabled("#page-prev") and not page.is_disabled("#page-next")
        first = listed_ids(page)
        page.click("#page-next")
        assert page.inner_text("#page-at") == "page 2 of 3" and rows.count() == 50
        assert not set(listed_ids(page)) & set(first)
        page.click("#page-last")
        assert page.inner_text("#page-at") == "page 3 of 3" and rows.count() == 30
        assert page.is_disabled("#page-next")
        page.fill("#search-id", "77")
        assert listed_ids(page) == [77] and page.inner_text("#page-at") == "page 1 of 1"
        page.fill("#search-id", "")
        assert page.inner_text("#games-shown") == "130 of 130 games"
        assert seen.console_errors == [] and seen.requests == []


def test_the_first_page_shows_before_the_whole_list(report_browser, long_run, tmp_path):
    first = read_game_list(long_run, 1, first=True)
    whole = read_game_list(long_run, 1)
    assert first["total"] == whole["total"] == 130
    assert first["games"] == whole["games"][:50], "the first page in schedule order"
    # A report whose whole list is not there (yet) still shows its first page.
    cut = tmp_path / "cut"
    shutil.copytree(long_run, cut)
    (cut / "data" / "games-1.js").unlink()
    with report_browser.open(cut / "index.html") as seen:
        page = seen.page
        page.wait_for_selector("#games[data-shown=true]")
        assert page.get_attribute("#games", "data-ready") is None
        assert listed_ids(page) == [row[0] for row in first["games"]]
        assert page.inner_text("#page-at") == "page 1 of 3" and page.is_disabled("#page-next")
        assert page.inner_text("#games-shown") == "the report's file data/games-1.js cannot be read"


def test_a_bot_name_with_hyphens_stays_on_one_line(report_browser, long_run):
    with report_browser.open(long_run / "index.html") as seen:
        lines = seen.page.locator(".standings td:first-child").evaluate_all(
            "cells => cells.map(cell => { const range = document.createRange();"
            " range.selectNodeContents(cell); return range.getClientRects().length; })"
        )
        assert lines and set(lines) == {1}, lines


class Exploding(Renderer):
    name = "rps"
    summary = "raises on every game"

    def steps(self, replay: Replay) -> list[Step]:
        raise RuntimeError(f"cannot draw game {replay.game_id}")


class ExplodingPlugin:
    @staticmethod
    @hookimpl
    def arena_register_renderers(register: Register) -> None:
        register(Exploding)


def test_a_renderer_that_fails_leaves_a_transcript_and_says_why(
    report_browser, write_match, tmp_path
):
    path = write_match(
        'game = "rps"\n[[bots]]\nname = "a"\nbuiltin = "rock"\n'
        '[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    summary = run_match(path)
    site = write_report(summary.run.database, tmp_path / "rps", plugins=[ExplodingPlugin]).parent
    with Store(summary.run.database) as store:
        replay = load_replay(store, store.games(summary.run.run_id)[0].game_id)
    with report_browser.open_game(site, replay.game_id) as seen:
        shown = seen.page.locator("p.problem")
        assert shown.count() == 1
        text = shown.inner_text()
        assert text.startswith(
            f"the rps renderer failed: RuntimeError: cannot draw game {replay.game_id}"
        )
        assert text.endswith("; shown as its transcript")
        assert seen.console_errors == [] and seen.requests == []
    report_browser.assert_replay_shows_winner(site, replay)
