"""How long a run with 100,000 stored games takes to resume (to start its next game), and
how long its standings take, against the kernel before the store was made compact.

    python benchmarks/resume_speed.py [--games 100000] [--trials 3] [--baseline REV] [--keep DIR]

Each kernel (this one, and the baseline of :mod:`baseline`: the same tree with the store,
schedule and runner files of ``REV``) first fills a database of its own: a Game of Stones
match of ``--games`` + 1000 games between two in-process bots, of which 20 real games are
played and then stored again and again, with that kernel's ``Store.save_game``, until
``--games`` are stored (a stored game is a game whatever played it: 100,000 real games
would take hours). Then each trial, in a fresh process per measure, both kernels in an
order that alternates per trial:

* resume: ``arena run`` of the match from loading the file to its next game's start
  (``arena_game_start``), and the runner's part of it (after the plugins are loaded and
  the file checked): it checks the database, finds what is stored and schedules the rest;
  with the peak resident memory by then;
* standings: the stored results read and every scorer's table computed (what ``arena
  standings`` and the end of ``arena run`` do), then the per-bot figures (faults, reply
  times) read, and the whole ``arena standings`` command as run in-process.

Each time is given by the wall clock and by the process's CPU time, which moves less with
what else the machine runs. The report gives the medians; ``--keep DIR`` keeps the
databases there and reuses them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import resource
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

from baseline import BEFORE, kernel_tree, run_worker

SAMPLE = 20
"""Real games played per database; the stored games are copies of these."""


def match_file(folder: Path, games: int) -> Path:
    path = folder / "stones.toml"
    path.write_text(
        f'game = "stones"\nseed = 5\ngames = {games}\ndatabase = "stones.sqlite"\n'
        'logs = "stones-logs"\n[game_options]\nsetup = "fixed"\n'
        + "".join(
            f'[[bots]]\nname = "{b}"\nbuiltin = "{b}"\ninproc = true\n'
            for b in ("random", "greedy")
        )
    )
    return path


def build(match: Path, stored: int) -> None:
    """Store ``stored`` games of ``match`` with this process's kernel."""
    from arena_kernel.match.schedule import derive_seed
    from arena_kernel.model import GameRecord, Outcome, ScheduledGame
    from arena_kernel.runner.api import prepare, run_prepared
    from arena_kernel.runner.run import spec_record
    from arena_kernel.store import Store

    sample = match.with_name("sample.toml")
    sample.write_text(
        match.read_text()
        .replace("stones.sqlite", "sample.sqlite")
        .replace(f"games = {stored + 1000}", f"games = {SAMPLE}")
    )
    run_prepared(prepare(sample))
    with Store(match.with_name("sample.sqlite")) as store:
        played = [(game, store.events(game.game_id)) for game in store.games()]
    spec = prepare(match).spec
    with Store(spec.database) as store:
        run = store.open_run(spec.key(), spec.name, spec.game, spec_record(spec), stored + 1000)
        for index in range(stored):
            game, events = played[index % len(played)]
            scores = list(game.scores) if game.scores is not None else None
            store.save_game(
                run.run_id,
                GameRecord(
                    ScheduledGame(index, derive_seed(spec.seed, index), game.seating),
                    Outcome(list(game.ranks), game.reason, scores=scores, details=game.details),
                    faults=list(game.faults),
                    events=events,
                    started_at=game.started_at,
                    duration=game.duration,
                    sandbox="none",
                ),
            )


class Stopwatch:
    """Seconds since it was made, of the wall clock and of this process's CPU (the second
    moves less with what else the machine runs)."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def read(self, name: str) -> dict[str, float]:
        return {
            f"{name}, wall": time.perf_counter() - self.wall,
            f"{name}, cpu": time.process_time() - self.cpu,
        }


def resume(match: Path) -> None:
    """Run ``match`` up to its next game; print as JSON the seconds since loading the match
    file, since the runner began (the plugins loaded, the file checked) and the peak
    memory; exit."""
    from arena_kernel.markers import hookimpl
    from arena_kernel.runner.api import prepare, run_prepared

    loading = Stopwatch()
    prepared = prepare(match)
    running = Stopwatch()

    class NextGame:
        @hookimpl
        def arena_game_start(self) -> None:
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            measured = {**loading.read("resume"), **running.read("runner's part"), "MB": peak}
            print(json.dumps(measured), flush=True)
            os._exit(0)

    run_prepared(prepared, [NextGame()])
    raise SystemExit("the run ended without starting a game")


def standings(match: Path) -> None:
    """Time the standings, the per-bot figures and ``arena standings``; print JSON."""
    from arena_kernel.cli import main as entry
    from arena_kernel.match.standings import run_standings
    from arena_kernel.registries.manager import get_plugin_manager, load_registries
    from arena_kernel.report.stats import bot_stats
    from arena_kernel.store import Store

    database = match.with_name("stones.sqlite")
    registries = load_registries(get_plugin_manager())
    measured: dict[str, float] = {}
    with Store(database) as store:
        clock = Stopwatch()
        run = store.latest_run()
        assert run is not None
        spec = store.spec(run.run_id)
        bots = [bot["name"] for bot in spec["bots"]]
        run_standings(store.results(run.run_id), bots, spec["scorers"], registries.scorers.cls)
        measured.update(clock.read("standings"))
        clock = Stopwatch()
        bot_stats(store, run.run_id)
        measured.update(clock.read("bot figures"))
    # The baseline's commands are in its entry point's module; this kernel's have their own.
    cli = getattr(entry, "cli", None) or importlib.import_module("arena_kernel.cli.commands").cli
    clock = Stopwatch()
    with contextlib.redirect_stdout(io.StringIO()):
        cli.main(["standings", str(database)], standalone_mode=False)
    measured.update(clock.read("arena standings"))
    print(json.dumps(measured), flush=True)


def work(mode: str, match: Path, tree: Path | None, *extra: str) -> dict[str, Any]:
    return run_worker(__file__, [mode, str(match), *extra], tree, match.parent) or {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--baseline", default=BEFORE, help="git revision of the baseline")
    parser.add_argument("--keep", type=Path, help="keep (and reuse) the databases here")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        mode, match, *extra = args.worker
        if mode == "build":
            build(Path(match), int(extra[0]))
        else:
            {"resume": resume, "standings": standings}[mode](Path(match))
        return
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or Path(scratch)
        base = kernel_tree(args.baseline, Path(scratch) / "baseline")
        kernels: dict[str, Path | None] = {"baseline": base, "this kernel": None}
        matches = {}
        for name, tree in kernels.items():
            folder = root / name.replace(" ", "-")
            folder.mkdir(parents=True, exist_ok=True)
            matches[name] = match_file(folder, args.games + 1000)
            if not (folder / "stones.sqlite").exists():
                started = time.perf_counter()
                work("build", matches[name], tree, str(args.games))
                print(f"{name}: {args.games} games stored in {time.perf_counter() - started:.0f} s")
            size = (folder / "stones.sqlite").stat().st_size
            print(f"{name}: {size / 1e6:.0f} MB, {size / args.games:.0f} bytes per game")
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in kernels}
        for n in range(args.trials):
            for name in list(kernels) if n % 2 == 0 else list(reversed(kernels)):
                measured = work("resume", matches[name], kernels[name])
                measured.update(work("standings", matches[name], kernels[name]))
                runs[name].append(measured)
        print(f"{args.games} stored games, {args.trials} interleaved trials, medians:")
        for measure in runs["baseline"][0]:
            unit = "MB" if measure == "MB" else "s"
            line = "  ".join(
                f"{name} {median(r[measure] for r in results):7.2f} {unit}"
                for name, results in runs.items()
            )
            print(f"  {measure:22} {line}")


if __name__ == "__main__":
    main()
