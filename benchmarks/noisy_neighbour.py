"""Do innocent games notice a flooding bot in another run of the same arena process?

    python benchmarks/noisy_neighbour.py [--trials 5] [--throws 1000]

Each trial plays rock-paper-scissors over TCP between two innocent bots (one session of
two games of ``--throws`` throws, a reply clock of 1 s) and measures every reply time the
referee recorded. It does so alone, and beside a second run on the same event loop: long
games of three-player Nim (a pile of 3000) in which one seat is a flooding bot
(``tests/bots/flooder.sh``: ``yes spam`` into its socket, bash), for as long as the innocent
run lasts; the flooder is out of its game at its first answer, and floods on. Trials alternate,
and the report gives the medians over trials of each trial's median, 99th percentile and
longest reply, the innocent replies that timed out, and how many of the flooder's messages
were stored per game.

Measured on 2 cores (idle): alone, median 0.04 ms, p99 0.23 ms, longest 5 ms; beside the
flooder, median 0.07 ms, p99 0.58 ms, longest 18 ms, no timeout, 1000 of its messages
stored per game (the cap). The tolerance the tests rely on: no innocent reply times out.
Before arena bounded what a bot may send unasked, the same script measured beside the
flooder a median of 54 ms, a p99 of 660 ms, a longest reply of 1.05 s and 4 timeouts at
``reply = 1.0`` (up to 2.9 s on a busier machine), and a Nim flooder game stored some 47,000
spam messages.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import textwrap
from pathlib import Path

from arena_kernel.runner.api import prepare
from arena_kernel.runner.run import Runner
from arena_kernel.store import Store

FLOODER = Path(__file__).parent.parent / "tests" / "bots" / "flooder.sh"
RPS_BOT = [
    sys.executable,
    "-m",
    "arena_kernel.testing.rps_bot",
    "random",
    "--tcp",
    "{host}",
    "{port}",
]
NIM_BOT = [sys.executable, "-m", "arena_kernel.testing.nim_bot", "--tcp", "{host}", "{port}"]


def match_file(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.toml"
    head = f'plugins = ["arena_kernel.testing.games"]\ndatabase = "{name}.sqlite"\nlogs = "logs"\n'
    path.write_text(head + textwrap.dedent(body))
    return path


def innocent_file(folder: Path, throws: int) -> Path:
    return match_file(
        folder,
        "innocent",
        f"""
        game = "rps"
        transport = "tcp"
        games = 2
        concurrency = 1
        [game_options]
        throws = {throws}
        [clock]
        reply = 1.0
        [[bots]]
        name = "a"
        cmd = {json.dumps(RPS_BOT)}
        [[bots]]
        name = "b"
        cmd = {json.dumps(RPS_BOT)}
        """,
    )


def flooder_file(folder: Path) -> Path:
    return match_file(
        folder,
        "flooder",
        f"""
        game = "nim"
        transport = "tcp"
        seats = 3
        games = 1000
        concurrency = 1
        [game_options]
        pile = 3000
        [[bots]]
        name = "flooder"
        cmd = ["bash", "{FLOODER}"]
        [[bots]]
        name = "optimal"
        cmd = {json.dumps([*NIM_BOT, "optimal"])}
        [[bots]]
        name = "random"
        cmd = {json.dumps([*NIM_BOT, "random"])}
        """,
    )


async def play(innocent: Path, flooder: Path | None) -> None:
    """Play the innocent run to its end, with the flooder's run beside it until then."""
    with contextlib.ExitStack() as stack:
        runners = []
        for path in (innocent, flooder):
            if path is not None:
                prepared = prepare(path)
                store = stack.enter_context(Store(prepared.spec.database))
                runners.append(Runner(prepared.spec, prepared.registries, store, prepared.pm))
        beside = [asyncio.ensure_future(r.play()) for r in runners[1:]]
        await runners[0].play()
        for task in beside:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def reply_times(database: Path) -> tuple[list[float], int]:
    """Every recorded reply time of the run, and how many requests timed out."""
    with Store(database) as store:
        (run,) = store.runs()
        times: list[float] = []
        timeouts = 0
        for result in store.results(run.run_id):
            times += [
                e.elapsed
                for e in store.events(result.game_id)
                if e.kind == "recv" and e.elapsed is not None
            ]
            timeouts += sum(str(f.kind) == "timeout" for f in store.game(result.game_id).faults)
    return times, timeouts


def flooder_events(database: Path) -> list[int]:
    """Per finished game, the events stored of what the flooder sent."""
    with Store(database) as store:
        (run,) = store.runs()
        counts = []
        for result in store.results(run.run_id):
            seat = result.seating.index("flooder")
            events = store.events(result.game_id)
            counts.append(sum(e.seat == seat and e.kind in ("recv", "late") for e in events))
        return counts


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--throws", type=int, default=1000)
    args = parser.parse_args()
    stats: dict[bool, list[tuple[float, float, float]]] = {False: [], True: []}
    timeouts = {False: 0, True: 0}
    stored: list[int] = []
    for trial in range(2 * args.trials):
        beside = trial % 2 == 1
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            innocent = innocent_file(folder, args.throws)
            flooder = flooder_file(folder) if beside else None
            asyncio.run(play(innocent, flooder))
            times, missed = reply_times(folder / "innocent.sqlite")
            if beside:
                stored += flooder_events(folder / "flooder.sqlite")
        timeouts[beside] += missed
        ms = [t * 1000 for t in times]
        stats[beside].append((statistics.median(ms), percentile(ms, 0.99), max(ms)))
    print(f"innocent reply times, ms (medians of {args.trials} trials)")
    print(f"{'':22}{'median':>8}{'p99':>8}{'max':>8}{'timeouts':>10}")
    for beside, label in ((False, "alone"), (True, "beside a flooder")):
        columns = [statistics.median(column) for column in zip(*stats[beside], strict=True)]
        cells = "".join(f"{value:8.2f}" for value in columns)
        print(f"{label:22}{cells}{timeouts[beside]:>10}")
    print(f"flooder games finished beside them: {len(stored)}", end="")
    if stored:
        print(f", its messages stored per game: median {statistics.median(stored):.0f}", end="")
        print(f", most {max(stored)}", end="")
    print()


if __name__ == "__main__":
    main()
