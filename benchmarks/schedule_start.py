"""How long a run of a million games takes to start its first game, and how much memory
it holds by then, against the kernel before the schedule was made game by game.

    python benchmarks/schedule_start.py [--games 1000000] [--trials 3] [--baseline REV]

Each trial is a fresh process that loads a match file of ``--games`` games of two
in-process bots, opens a new database and runs until the runner announces its first game
(``arena_game_start``): it then prints the time since it began loading the match file and
its peak resident memory (``ru_maxrss``), and exits. Two shapes: Nim, a game per session,
and rock-paper-scissors, whose bots stay connected for a session of games
(``concurrency = 4``: four sessions of a quarter million games). Each trial runs both
kernels, in an order that alternates per trial, this kernel and the baseline
(:mod:`baseline`: the whole kernel as at ``REV``, its Python code alone); the
report gives the medians.
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from pathlib import Path
from statistics import median

from baseline import BEFORE, run_worker, whole_kernel

SHAPES = {
    "nim (a session per game)": ("nim", 1),
    "rps (4 sessions)": ("rps", 4),
}


def match_file(folder: Path, game: str, games: int, concurrency: int) -> Path:
    path = folder / f"{game}.toml"
    bots = {"nim": ("optimal", "random"), "rps": ("rock", "random")}[game]
    path.write_text(
        f'plugins = ["arena_kernel.testing.games"]\ngame = "{game}"\nseed = 7\n'
        f'games = {games}\nconcurrency = {concurrency}\ndatabase = "{game}.sqlite"\n'
        f'logs = "{game}-logs"\n'
        + "".join(f'[[bots]]\nname = "{b}"\nbuiltin = "{b}"\ninproc = true\n' for b in bots)
    )
    return path


def worker(match: Path) -> None:
    """Run ``match`` up to its first game; print seconds and peak MB as JSON; exit."""
    import os

    from arena_kernel.markers import hookimpl
    from arena_kernel.runner.api import prepare, run_prepared

    started = time.perf_counter()

    class FirstGame:
        @hookimpl
        def arena_game_start(self) -> None:
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(json.dumps({"seconds": time.perf_counter() - started, "mb": peak}), flush=True)
            os._exit(0)

    run_prepared(prepare(match), [FirstGame()])
    raise SystemExit("the run ended without starting a game")


def trial(match: Path, tree: Path | None) -> dict[str, float]:
    match.with_suffix(".sqlite").unlink(missing_ok=True)
    result: dict[str, float] = run_worker(__file__, [str(match)], tree, match.parent)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--baseline", default=BEFORE, help="git revision of the baseline")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    with tempfile.TemporaryDirectory() as folder:
        base = whole_kernel(args.baseline, Path(folder) / "baseline")
        kernels = {"baseline": base, "this kernel": None}
        print(f"{args.games} games, {args.trials} interleaved trials, medians:")
        for label, (game, concurrency) in SHAPES.items():
            match = match_file(Path(folder), game, args.games, concurrency)
            runs: dict[str, list[dict[str, float]]] = {name: [] for name in kernels}
            for n in range(args.trials):
                order = list(kernels) if n % 2 == 0 else list(reversed(kernels))
                for name in order:
                    runs[name].append(trial(match, kernels[name]))
            print(f"  {label}:")
            for name, results in runs.items():
                seconds = median(r["seconds"] for r in results)
                mb = median(r["mb"] for r in results)
                print(f"    {name:12} {seconds:7.2f} s to the first game, peak {mb:6.0f} MB")


if __name__ == "__main__":
    main()
