"""A Speed Clue run's report in a real browser (headless Chromium): a game's replay page
opened from disk draws the deduction grid at every step, with no console error and no
request, and its last step names the winner and reveals the case file; the run page shows
every bot and every scorer. The last step's screenshot is written as a test artifact
(test-artifacts/screenshots/speedclue.png)."""

from __future__ import annotations

from arena_kernel.testkit import Store, load_replay, run_match, write_report

BOTS = {"deducer": "deducer", "random": "random", "rival": "deducer", "novice": "random"}
SCORERS = ["wins", "openskill"]
TITLES = ["Wins", "OpenSkill"]


def test_a_replay_page_draws_the_grid_and_names_the_winner(clue_match, report_browser, tmp_path):
    # The built-in bots as their own programs, each a TCP client for its whole session.
    extra = f"seats = 4\ngames = 3\nseed = 11\nscorers = {SCORERS}\n"
    summary = run_match(clue_match(BOTS, extra))
    assert summary.played == 3 and not summary.errors
    index = write_report(summary.run.database, tmp_path / "report")
    with Store(summary.run.database) as store:
        games = [load_replay(store, game.game_id) for game in store.results(summary.run.run_id)]
    won = [game for game in games if not game.void and len(game.winners()) == 1]
    replay = max(won, key=lambda game: len(game.events))  # the longest game: the best picture

    check = report_browser.assert_replay_shows_winner(index.parent, replay, screenshot="speedclue")
    assert check.screenshot is not None and check.screenshot.stat().st_size > 0
    assert "The case file: " in check.caption

    # A drawing that throws is no console error (the viewer shows a note instead), so
    # every step is looked at: one grid of 21 cards by the players and the case file, and
    # the case file starred only once the game is over.
    with report_browser.open_game(index.parent, replay.game_id) as seen:
        page = seen.page
        for step in range(check.steps):
            assert page.locator("#picture .problem, .problem").count() == 0, step
            grid = page.locator("#picture table.sc-grid")
            assert grid.count() == 1, step
            assert grid.locator("tbody tr:not(.sc-category)").count() == 21
            assert grid.locator("thead th").count() == 1 + len(replay.seating) + 1
            stars = page.locator("#picture td.sc-solution").count()
            assert stars == (3 if step == check.steps - 1 else 0), step
            # The case file's three cards are tinted as dealt from the deal on.
            tinted = grid.locator("td.sc-case.sc-dealt")
            assert tinted.count() == 3, step
            assert tinted.first.evaluate("c => getComputedStyle(c).backgroundColor") == (
                "rgb(255, 229, 138)" if step == check.steps - 1 else "rgb(216, 239, 219)"
            ), step
            page.locator("body").press("ArrowRight")
        assert seen.console_errors == [] and seen.requests == []
        banner = page.inner_text("#picture .sc-end")
        assert f"Winner: {replay.winners()[0]}" in banner

    report_browser.assert_run_page_lists(index, bots=list(BOTS), scorers=TITLES)
