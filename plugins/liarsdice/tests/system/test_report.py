"""A Liar's Dice run's report in a real browser (headless Chromium): a game's replay page
opened from disk draws every player's hand at every step, with no console error and no
request, and its last step names the winner; the run page shows every bot and every
scorer. The last step's screenshot is written as a test artifact
(test-artifacts/screenshots/liarsdice.png)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from arena_kernel.testkit import ReportBrowser, Store, load_replay, run_match, write_report

BOTS = {"prob": "prob", "basic": "basic", "random": "random"}
SCORERS = ["wins", "openskill"]
TITLES = ["Wins", "OpenSkill"]


def test_a_replay_page_draws_the_hands_and_names_the_winner(
    dice_match: Callable[..., Path], report_browser: ReportBrowser, tmp_path: Path
) -> None:
    # The built-in bots as their own programs, each a TCP client for its whole session.
    extra = f"seats = 3\ngames = 2\nseed = 5\nscorers = {SCORERS}\n[game_options]\ndice = 3"
    summary = run_match(dice_match(BOTS, extra))
    assert summary.played == 2 and not summary.errors
    index = write_report(summary.run.database, tmp_path / "report")
    with Store(summary.run.database) as store:
        games = [load_replay(store, game.game_id) for game in store.results(summary.run.run_id)]
    won = [game for game in games if not game.void and len(game.winners()) == 1]
    replay = max(won, key=lambda game: len(game.events))  # the longest game: the best picture

    check = report_browser.assert_replay_shows_winner(index.parent, replay, screenshot="liarsdice")
    assert check.screenshot is not None and check.screenshot.stat().st_size > 0
    (winner,) = replay.winners()
    assert check.caption.endswith(f"{winner} wins: {replay.reason}.")

    # A drawing that throws is no console error (the viewer shows a note instead), so
    # every step is looked at: a row per player with as many dice as it holds.
    with report_browser.open_game(index.parent, replay.game_id) as seen:
        page = seen.page
        for step in range(check.steps):
            assert page.locator(".problem").count() == 0, step
            assert page.locator("#picture .liarsdice").count() == 1, step
            assert page.locator("#picture .player").count() == len(replay.seating), step
            if step == 0:
                dice = page.locator("#picture .player svg.die:not(.lost)").count()
                assert dice == 3 * len(replay.seating), "everyone starts with three dice"
            page.locator("body").press("ArrowRight")
        assert seen.console_errors == [] and seen.requests == []
        assert page.inner_text("#picture .player.winner .name") == winner

    report_browser.assert_run_page_lists(index, bots=list(BOTS), scorers=TITLES)
