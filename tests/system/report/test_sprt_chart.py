"""An SPRT run's page in a real headless Chromium: the test's table at its decision, the
pairs after it in a note, and the LLR drawn pair by pair between its bounds, the pairs
after the decision apart. No console error, no request."""

from __future__ import annotations

from pathlib import Path

from scripted_pairs import sprt_in_play

from arena_kernel.runner.api import run_match
from arena_kernel.testkit import write_report


def test_the_run_page_draws_the_llr_and_its_decision(report_browser, write_match, tmp_path):
    summary = run_match(write_match(sprt_in_play(delay=0.5)))
    assert summary.sprt is not None and summary.stopped is not None
    index = write_report(summary.run.database, tmp_path / "site")

    with report_browser.open(Path(index)) as seen:
        page = seen.page
        panel = page.locator("#sprt")
        text = panel.inner_text()
        assert "H1 accepted" in text and "completed after the decision" in text
        chart = panel.locator("svg.chart.llr")
        assert (
            chart.count() == 1 and chart.evaluate("svg => svg.getBoundingClientRect().height") > 100
        )
        assert panel.locator("polyline.series").count() == 2, "before and after the decision"
        assert panel.locator(".bound").count() == 2
        decision = panel.locator("circle.decision title").text_content()
        assert decision.startswith("decided after 1 pairs: LLR 0.419")
        assert seen.console_errors == [] and seen.requests == []
