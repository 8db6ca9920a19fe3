"""What starting one of arena's own Python bots costs, started cold (a fresh interpreter, its
imports) and warm (forked from its warm parent, :mod:`arena_kernel.transports.warm_start`):
the CPU time until it answers its first request, and per game of ``arena run``.

    python benchmarks/warm_start.py [--starts 20] [--trials 5] [--games 40] [--baseline REV]

Per start: a run's own way of starting a built-in Nim bot run as a program (the match
file's sandbox, ``auto``: bubblewrap where it works, a user id of its own under root, the
syscall filter, cgroups), through the ``stdio`` transport as a run brings it up, then one
request (``move 21``) and its reply. Measured: the CPU time of the bot's processes from
its start to its reply (its cgroup's, or its process tree's: the CPU-time clock's meter,
so for a cold start the shell, ``setpriv``, ``prlimit`` and ``bwrap`` before the bot
too), the arena's own CPU time for the start and the reply, and the wall clock. Each
trial makes ``--starts`` starts of each kind in turn; the warm parent's own start (once
per bot and run) is made before and reported apart.

Per game (with ``--baseline REV``, a git revision before warm starts): ``arena run`` of
``--games`` games between the two built-in Nim bots run as programs, with this kernel and
with the whole kernel as at ``REV``, alternating; the CPU time of every process of the run
(the arena, its bots, their sandboxes) per game.

CPU times, medians over the trials: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from baseline import python_env, whole_kernel

from arena_kernel.executors.sandboxes import RunSandboxes
from arena_kernel.match.resolved import resolve
from arena_kernel.runner.api import prepare
from arena_kernel.transports.base import Launch
from arena_kernel.transports.stdio import StdioTransport

MATCH = """\
game = "nim"
plugins = ["arena_kernel.testing.games"]
games = {games}
concurrency = 1
database = "nim.sqlite"
logs = "logs"

[[bots]]
name = "optimal"
builtin = "optimal"

[[bots]]
name = "random"
builtin = "random"
"""

Figures = tuple[float, float, float]
"""(the bot's CPU seconds to its first reply, the arena's, the wall clock's)."""


async def one_start(transport: StdioTransport, launch: Launch) -> Figures:
    replied = asyncio.get_running_loop().create_future()

    def arrived(data: object) -> None:
        if not replied.done():
            replied.set_result(None)

    began, arena = time.perf_counter(), time.process_time()
    connection = await transport.connect(launch)
    connection.start(arrived, arrived)
    connection.write(b"move 21\n")
    await replied
    wall, arena = time.perf_counter() - began, time.process_time() - arena
    meter = connection.cpu_meter
    bot = meter.seconds() if meter is not None else None
    await connection.close()
    return (bot if bot is not None else float("nan"), arena, wall)


async def starts(folder: Path, count: int, trials: int) -> dict[str, list[Figures]]:
    match = folder / "nim.toml"
    match.write_text(MATCH.format(games=1))
    prepared = prepare(match)
    resolved = resolve(prepared.spec, prepared.registries)
    sandboxes = RunSandboxes(resolved)
    print(f"sandbox: {sandboxes.mode}{' (' + sandboxes.note + ')' if sandboxes.note else ''}")
    bot = resolved.bots["optimal"]
    made: dict[str, list[Figures]] = {"cold": [], "warm": []}
    programs = {"cold": dataclasses.replace(bot.program, warm=None), "warm": bot.program}
    transports = {kind: StdioTransport() for kind in programs}

    def launch(kind: str, n: int) -> Launch:
        return Launch(
            program=programs[kind],
            codec=resolved.codec,
            identifier=f"{n}-optimal",
            limits=prepared.spec.limits,
            log_dir=folder / "logs" / f"{kind}-{n}",
            startup=10.0,
            kill_grace=0.5,
            sandbox=sandboxes.for_bot("optimal"),
            cpu_clock=True,
        )

    try:
        began = time.process_time()
        await one_start(transports["warm"], launch("warm", 0))  # the warm parent's start
        parent = next(p for p in transports["warm"]._warm.values() if p is not None)
        print(
            f"the warm parent's start (with the first warm bot): "
            f"{(time.process_time() - began) * 1e3:.1f} ms of the arena's CPU, "
            f"pid {parent.process.pid}"
        )
        for _ in range(trials):
            for n in range(count):
                for kind in made:
                    made[kind].append(await one_start(transports[kind], launch(kind, n + 1)))
    finally:
        for transport in transports.values():
            await transport.aclose()
        sandboxes.close()
    return made


def arena_run(folder: Path, tree: Path | None, games: int) -> float:
    """CPU seconds of ``arena run`` (every process) per game, with the kernel of ``tree``."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("nim.sqlite*"):
        old.unlink()
    match = folder / "nim.toml"
    match.write_text(MATCH.format(games=games))
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = usage.ru_utime + usage.ru_stime
    done = subprocess.run(
        [sys.executable, "-m", "arena_kernel", "run", "-q", str(match)],
        env=python_env(tree),
        capture_output=True,
        text=True,
        cwd=folder,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"arena run failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime - before) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--baseline", help="git revision of a kernel before warm starts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        made = asyncio.run(starts(Path(scratch), args.starts, args.trials))
        print(f"{args.trials} trials of {args.starts} starts of each kind; medians, ms")
        print(f"{'start':6} {'bot CPU to its reply':>21} {'arena CPU':>10} {'wall':>8}")
        for kind, figures in made.items():
            bot, arena, wall = (median(f[i] for f in figures) * 1e3 for i in range(3))
            print(f"{kind:6} {bot:21.1f} {arena:10.1f} {wall:8.1f}")
        if args.baseline:
            kernels = {
                "baseline": whole_kernel(args.baseline, Path(scratch) / "kernel"),
                "this kernel": None,
            }
            per_game: dict[str, list[float]] = {name: [] for name in kernels}
            for tree in kernels.values():
                arena_run(Path(scratch) / "warmup", tree, 2)  # byte code compiled
            for trial in range(args.trials):
                order = list(kernels) if trial % 2 == 0 else list(reversed(kernels))
                for name in order:
                    folder = Path(scratch) / name.replace(" ", "-")
                    per_game[name].append(arena_run(folder, kernels[name], args.games))
            print(
                f"arena run, {args.games} games of two built-in Nim bots run as programs, "
                f"{os.cpu_count()} CPUs (shared); medians of CPU per game, every process:"
            )
            for name, times in per_game.items():
                print(f"  {name:12} {median(times) * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
