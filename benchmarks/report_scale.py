"""The report of a contest-sized run against that of a small one: what ``arena report``
costs and writes, and how fast its pages open in a browser.

    python benchmarks/report_scale.py [--games 100000] [--small 30] [--trials 5]
                                      [--database DB] [--small-database DB] [--keep DIR]

Both databases are made by real runs (a round robin of four in-process Nim bots, as
``report_speed.py`` makes them) unless given. Each trial writes both reports through the
command a user runs (``arena report DB -o DIR``, a process of its own: its CPU time and
peak RSS), then opens each report's run page and the page of a game from the middle of
its run in headless Chromium from disk (the time from navigation to the load event, and
to the page drawn: the run page's first page of games shown and its whole games list
read, the game page's game shown). The two
sizes are interleaved, in an order that alternates per trial; the script prints medians
and the ratio of the large report to the small one, the baseline of the same run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

from report_speed import make_database

from arena_kernel.store import Store
from arena_kernel.testing.browser import CHROMIUM, CHROMIUM_ARGS, DRAWN

MEASURED = """
import resource, subprocess, sys
status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(used.ru_utime + used.ru_stime, used.ru_maxrss, status)
"""
"""Runs a command and prints its CPU seconds, its peak RSS in KiB and its exit status."""


def write(database: Path, out: Path) -> tuple[float, float]:
    """``arena report`` of ``database`` into ``out``: CPU seconds and peak RSS in MB."""
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "arena_kernel.cli.main", "report", str(database), "-o"]
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, *command, str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    cpu, rss, status = done.stdout.split()
    if status != "0":
        raise SystemExit(f"arena report {database} failed")
    return float(cpu), int(rss) / 1024


def files(folder: Path) -> tuple[int, float]:
    """How many files ``folder`` holds and their size in MB."""
    found = [p for p in folder.rglob("*") if p.is_file()]
    return len(found), sum(p.stat().st_size for p in found) / 1e6


def middle_game(database: Path) -> int:
    with Store(database) as store:
        games = store.results(store.runs()[-1].run_id)
    return games[len(games) // 2].game_id


SHOWN = """() => {
  const games = document.getElementById("games");
  return !games || games.dataset.shown === "true" || games.dataset.failed === "true";
}"""
"""Whether a run page shows games: the first page of its list, or the whole list."""


def open_times(browser, page_path: Path, fragment: str = "") -> tuple[float, float, float]:
    """Milliseconds from navigation to the load event, to the first games shown (a run
    page's first page of its list) and to the page drawn (its whole list read)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(page_path.resolve().as_uri() + fragment, wait_until="load")
        page.wait_for_function(SHOWN, polling="raf")
        shown = page.evaluate("() => performance.now()")
        page.wait_for_function(DRAWN, polling="raf")
        drawn = page.evaluate("() => performance.now()")
        loaded = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
        return loaded, shown, drawn
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=30)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--database", type=Path, help="the large run's database, if made")
    parser.add_argument("--small-database", type=Path, help="the small run's database, if made")
    parser.add_argument("--keep", type=Path, help="keep the databases made and the reports here")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    work = args.keep or Path(tempfile.mkdtemp(prefix="arena-report-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    sizes = {"large": args.games, "small": args.small}
    given = {"large": args.database, "small": args.small_database}
    databases = {}
    for which, games in sizes.items():
        if given[which] is not None:
            databases[which] = given[which]
            continue
        folder = work / which
        folder.mkdir(exist_ok=True)
        databases[which] = make_database(folder, games)
    figures: dict[str, dict[str, list[float]]] = {
        which: {
            "cpu": [],
            "rss": [],
            "run load": [],
            "run shown": [],
            "run drawn": [],
            "game drawn": [],
        }
        for which in sizes
    }
    written: dict[str, tuple[int, float]] = {}
    stored = {}
    for which, database in databases.items():
        with Store(database) as store:
            stored[which] = sum(run.done_games for run in store.runs())
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
        )
        try:
            for trial in range(args.trials):
                order = ("large", "small") if trial % 2 == 0 else ("small", "large")
                for which in order:
                    site = work / f"site-{which}"
                    cpu, rss = write(databases[which], site)
                    written[which] = files(site)
                    run_load, run_shown, run_drawn = open_times(browser, site / "index.html")
                    _load, _shown, game_drawn = open_times(
                        browser, site / "game.html", f"#{middle_game(databases[which])}"
                    )
                    for name, value in (
                        ("cpu", cpu),
                        ("rss", rss),
                        ("run load", run_load),
                        ("run shown", run_shown),
                        ("run drawn", run_drawn),
                        ("game drawn", game_drawn),
                    ):
                        figures[which][name].append(value)
        finally:
            browser.close()
    medians = {w: {k: median(v) for k, v in f.items()} for w, f in figures.items()}
    for which in sizes:
        count, size = written[which]
        m = medians[which]
        print(
            f"{which}: {stored[which]} games; arena report {m['cpu']:.2f} s CPU, "
            f"peak RSS {m['rss']:.0f} MB, {count} files, {size:.1f} MB; run page load "
            f"{m['run load']:.0f} ms, first games shown {m['run shown']:.0f} ms, whole list "
            f"read {m['run drawn']:.0f} ms; game page drawn "
            f"{m['game drawn']:.0f} ms"
        )
    ratios = {k: medians["large"][k] / medians["small"][k] for k in medians["large"]}
    print(
        f"large / small (medians of {args.trials} interleaved trials): "
        + json.dumps({k: round(v, 2) for k, v in ratios.items()})
    )
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
