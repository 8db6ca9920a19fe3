"""How long ``arena report`` takes for a run of many games, against reading the same games.

    python benchmarks/report_speed.py [--games 10000] [--trials 3] [--keep DIR]

The database is made by a real run first: a round robin of four in-process Nim bots (the
kernel's test game, drawn by its renderer) with enough rounds for ``--games`` games, every
message through the referee and the codec as in any run. Then each trial writes the whole
report (:func:`write_report`: a run page with the standings, cross-table and rating plot,
its games list, and every game's steps in the replay files) and, as the baseline in the
same trial, a floor any static report of these games pays: every game's row and events
read from the store and written as JSON. The two are interleaved, in an order that alternates
per trial, and the report gives the medians, the ratio and the cost per game.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path
from statistics import median

from arena_kernel.report.site import write_report
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store

BOTS = ("optimal", "random", "optimal", "random")
PAIRINGS = len(BOTS) * (len(BOTS) - 1)
"""Games per round of a round robin with seats swapped."""


def make_database(folder: Path, games: int) -> Path:
    rounds = max(1, round(games / PAIRINGS))
    bots = "".join(
        f'[[bots]]\nname = "{kind}{n}"\nbuiltin = "{kind}"\ninproc = true\n'
        for n, kind in enumerate(BOTS)
    )
    match = folder / "match.toml"
    match.write_text(
        'plugins = ["arena_kernel.testing.games"]\ngame = "nim"\nseed = 1\n'
        f'database = "{folder / "games.sqlite"}"\nlogs = "{folder / "logs"}"\n'
        f"rounds = {rounds}\nconcurrency = 8\n{bots}"
    )
    summary = run_match(match)
    if summary.errors:
        raise SystemExit(f"the run failed: {summary.errors}")
    return Path(summary.run.database)


def time_report(database: Path, out: Path) -> float:
    started = time.perf_counter()
    write_report(database, out)
    return time.perf_counter() - started


def time_floor(database: Path, out: Path) -> float:
    """Every game's row and events read and written as a file of JSON: the least work a
    page per game costs."""
    started = time.perf_counter()
    out.mkdir()
    with Store(database) as store:
        for game in store.games(None):
            events = [[e.t, e.kind, e.seat, e.text, e.elapsed] for e in store.events(game.game_id)]
            data = {"seating": game.seating, "ranks": game.ranks, "events": events}
            (out / f"{game.game_id}.json").write_text(json.dumps(data))
    return time.perf_counter() - started


def size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="keep the database and last site here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="arena-report-bench-"))
    try:
        began = time.perf_counter()
        database = make_database(args.keep or work, args.games)
        with Store(database) as store:
            stored = len(store.games(None))
        print(f"{stored} Nim games played and stored in {time.perf_counter() - began:.1f} s")
        report: list[float] = []
        floor: list[float] = []
        site = work / "site"
        for trial in range(args.trials):
            for which in ("report", "floor") if trial % 2 == 0 else ("floor", "report"):
                shutil.rmtree(site, ignore_errors=True)
                if which == "report":
                    report.append(time_report(database, site))
                    pages = size(site)
                else:
                    floor.append(time_floor(database, site))
        if args.keep:
            shutil.rmtree(args.keep / "site", ignore_errors=True)
            write_report(database, args.keep / "site")
        ratios = [r / f for r, f in zip(report, floor, strict=True)]
        print(
            f"arena report ({stored} games): median {median(report):.2f} s, "
            f"{1000 * median(report) / stored:.2f} ms per game, site {pages / 1e6:.1f} MB"
        )
        print(f"floor (read and write each game as JSON): median {median(floor):.2f} s")
        print(f"ratio report / floor: median {median(ratios):.2f}x over {args.trials} trials")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
