"""How long a run with 100,000 stored games takes to resume (to start its next game) as a
user runs it, ``arena run``, and through the API; and how long its standings take.

    python benchmarks/resume_speed.py [--games 100000] [--trials 3] [--baseline REV] [--keep DIR]

Each kernel (this one, and with ``--baseline`` the whole kernel as at git revision ``REV``)
first fills a database of its own: a Game of Stones match of ``--games`` + :data:`SPARE` games
between two in-process bots, of which 20 real games are played and then stored again and
again, with that kernel's ``Store.save_game``, until ``--games`` are stored (a stored game
is a game whatever played it: 100,000 real games would take hours). Then each trial, in a
fresh process per measure, the kernels in an order that alternates per trial:

* ``arena run`` of the match (the console script, the progress display and all) up to its
  next game's start (``next_game_probe.py``, a plugin given with ``-p``), with stderr on a
  terminal (a pseudo-terminal: the progress line is drawn at once) and on a pipe (a log:
  one line a minute); the CPU time of the whole process and its peak resident memory;
* the same at a terminal, playing on for two seconds (into a copy of the database): the
  peak memory once the run is under way, the progress line's leader counting the stored
  games;
* the API, ``prepare`` and ``run_prepared`` with no observer (what a script pays): from
  loading the match file, and the runner's part after the plugins are loaded and the file
  checked (it checks the database, finds what is stored and schedules the rest);
* standings: the stored results read and every scorer's table computed (what ``arena
  standings`` and the end of ``arena run`` do), then the per-bot figures (faults, reply
  times) read, and the whole ``arena standings`` command as run in-process.

Times are given by the process's CPU time (and, for the API and the standings, the wall
clock too: the CPU time moves less with what else the machine runs). The report gives the
medians; ``--keep DIR`` keeps the databases there and reuses them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import pty
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from statistics import median
from typing import Any

from baseline import python_env, run_worker, whole_kernel

BENCHMARKS = Path(__file__).resolve().parent

SAMPLE = 20
"""Real games played per database; the stored games are copies of these."""

SPARE = 10_000
"""Games of the match beyond those stored: what is left to play, more than a few seconds
of play (the match's end, its standings of every game, is not what is measured)."""


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
        .replace(f"games = {stored + SPARE}", f"games = {SAMPLE}")
    )
    run_prepared(prepare(sample))
    with Store(match.with_name("sample.sqlite")) as store:
        played = [(game, store.events(game.game_id)) for game in store.games()]
    spec = prepare(match).spec
    with Store(spec.database) as store:
        run = store.open_run(spec.key(), spec.name, spec.game, spec_record(spec), stored + SPARE)
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
    """Run ``match`` through the API up to its next game; print as JSON the seconds since
    loading the match file, since the runner began (the plugins loaded, the file checked)
    and the peak memory; exit."""
    from arena_kernel.markers import hookimpl
    from arena_kernel.runner.api import prepare, run_prepared

    loading = Stopwatch()
    prepared = prepare(match)
    running = Stopwatch()

    class NextGame:
        @hookimpl
        def arena_game_start(self) -> None:
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            measured = {
                **loading.read("API resume"),
                **running.read("API, runner's part"),
                "API resume, MB": peak,
            }
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


def arena_run(match: Path, tree: Path | None, *, terminal: bool, play_on: float = 0.0) -> Any:
    """``arena run -p next_game_probe MATCH`` in a process of its own, stderr on a
    pseudo-terminal or a pipe; its figures (see :mod:`next_game_probe`), by name."""
    env = python_env(tree)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (env.get("PYTHONPATH"), str(BENCHMARKS)) if p)
    env["ARENA_PROBE_PLAY"] = str(play_on)
    script = Path(sys.executable).with_name("arena")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "arena_kernel"]
    argv = [*command, "run", "-p", "next_game_probe", str(match)]
    if not terminal:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=match.parent)
        return _probed(done.stdout, done.stderr)
    leader, follower = pty.openpty()
    drawn: list[bytes] = []
    drain = threading.Thread(target=_drain, args=(leader, drawn), daemon=True)
    drain.start()
    try:
        done = subprocess.run(
            argv, env=env, stdout=subprocess.PIPE, stderr=follower, text=True, cwd=match.parent
        )
    finally:
        os.close(follower)
        drain.join(5)
        os.close(leader)
    return _probed(done.stdout, b"".join(drawn).decode(errors="replace"))


def _drain(fd: int, into: list[bytes]) -> None:
    with contextlib.suppress(OSError):
        while chunk := os.read(fd, 65536):
            into.append(chunk)


def _probed(stdout: str, stderr: str) -> Any:
    lines = stdout.strip().splitlines()
    if not lines:
        raise SystemExit(f"arena run printed no figures:\n{stderr[-3000:]}")
    return json.loads(lines[-1])


def trial(match: Path, tree: Path | None) -> dict[str, float]:
    """One trial's figures of one kernel."""
    measured: dict[str, float] = {}
    for label, terminal in (("arena run, terminal", True), ("arena run, log", False)):
        figures = arena_run(match, tree, terminal=terminal)
        measured[f"{label}, cpu"] = figures["cpu"]
        measured[f"{label}, MB"] = figures["MB"]
    with tempfile.TemporaryDirectory(dir=match.parent) as scratch:  # games stored go there
        playing = Path(scratch) / match.name
        shutil.copy(match, playing)
        shutil.copy(match.with_name("stones.sqlite"), playing.with_name("stones.sqlite"))
        figures = arena_run(playing, tree, terminal=True, play_on=2)
        measured["arena run, terminal, 2 s on, MB"] = figures["MB"]
    measured.update(work("resume", match, tree))
    measured.update(work("standings", match, tree))
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--baseline", help="git revision of a baseline kernel")
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
        kernels: dict[str, Path | None] = {"this kernel": None}
        if args.baseline:
            kernels = {
                "baseline": whole_kernel(args.baseline, Path(scratch) / "baseline"),
                **kernels,
            }
        matches = {}
        for name, tree in kernels.items():
            folder = root / f"{name.replace(' ', '-')}-{args.games}"
            folder.mkdir(parents=True, exist_ok=True)
            matches[name] = match_file(folder, args.games + SPARE)
            if not (folder / "stones.sqlite").exists():
                started = time.perf_counter()
                work("build", matches[name], tree, str(args.games))
                print(f"{name}: {args.games} games stored in {time.perf_counter() - started:.0f} s")
            size = (folder / "stones.sqlite").stat().st_size
            print(f"{name}: {size / 1e6:.0f} MB, {size / args.games:.0f} bytes per game")
        for name, tree in kernels.items():
            arena_run(matches[name], tree, terminal=False)  # byte code compiled and cached
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in kernels}
        for n in range(args.trials):
            for name in list(kernels) if n % 2 == 0 else list(reversed(kernels)):
                runs[name].append(trial(matches[name], kernels[name]))
        print(f"{args.games} stored games, {args.trials} interleaved trials, medians:")
        for measure in next(iter(runs.values()))[0]:
            unit = "MB" if measure.endswith("MB") else "s"
            line = "  ".join(
                f"{name} {median(r[measure] for r in results):7.2f} {unit}"
                for name, results in runs.items()
            )
            print(f"  {measure:34} {line}")


if __name__ == "__main__":
    main()
