"""How long starting one bot blocks the referee's event loop, by the referee's size.

    python benchmarks/spawn_cost.py [--starts 40] [--trials 5] [--sizes 0,400,1600]

A stdio bot is started the way arena starts it (``StdioTransport.connect``: ``prlimit``
sets the limits, so Python's ``subprocess`` can ``vfork``) and, as the baseline in the
same run, with the limits set by a ``preexec_fn`` (which forces a full ``fork`` of the
referee, page tables and all). Starting a stdio bot never awaits: the whole call is time
during which no other game's reply is read. The referee's size is a touched ballast of
N MB; the trials interleave both ways and the report gives medians.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import subprocess
import tempfile
import time
from pathlib import Path
from statistics import median

from arena_kernel.codecs.line import LineCodec
from arena_kernel.transports.base import BotProgram, Launch, Limits
from arena_kernel.transports.stdio import StdioTransport

BOT = ("cat",)
"""A bot that starts in no time, so that only the referee's side is measured."""


def preexec_limits(limits: Limits) -> None:
    """The baseline: the same limits set by Python code between fork and exec."""
    resource.setrlimit(resource.RLIMIT_DATA, (limits.memory_mb << 20,) * 2)
    resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


async def arena_starts(starts: int, logs: Path) -> list[float]:
    transport = StdioTransport()
    times, connections = [], []
    for i in range(starts):
        launch = Launch(BotProgram("cat", BOT), LineCodec(), f"cat{i}", Limits(), logs, 5.0, 0.5)
        began = time.perf_counter()
        connections.append(await transport.connect(launch))
        times.append(time.perf_counter() - began)
    await asyncio.gather(*(c.close() for c in connections))
    return times


def preexec_starts(starts: int) -> list[float]:
    limits = Limits()
    times, bots = [], []
    for _ in range(starts):
        began = time.perf_counter()
        bots.append(
            subprocess.Popen(
                BOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                start_new_session=True,
                preexec_fn=lambda: preexec_limits(limits),
            )
        )
        times.append(time.perf_counter() - began)
    for bot in bots:
        bot.stdin.close()  # type: ignore[union-attr]
        bot.wait()
        bot.stdout.close()  # type: ignore[union-attr]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=40, help="bots started per trial")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--sizes", default="0,400,1600", help="referee ballast sizes in MB")
    args = parser.parse_args()
    print(f"{args.trials} trials of {args.starts} starts each; medians in milliseconds")
    print(f"{'ballast':>8}  {'arena (prlimit, vfork)':>24}  {'preexec_fn (fork)':>18}")
    for size in (int(s) for s in args.sizes.split(",")):
        ballast = bytearray(size << 20)
        for page in range(0, len(ballast), 4096):
            ballast[page] = 1
        ours: list[float] = []
        theirs: list[float] = []
        with tempfile.TemporaryDirectory() as logs:
            for _ in range(args.trials):
                ours += asyncio.run(arena_starts(args.starts, Path(logs)))
                theirs += preexec_starts(args.starts)
        print(
            f"{size:>5} MB  {median(ours) * 1000:>24.2f}  {median(theirs) * 1000:>18.2f}"
            f"   (max {max(ours) * 1000:.1f} vs {max(theirs) * 1000:.1f})"
        )
        del ballast


if __name__ == "__main__":
    main()
