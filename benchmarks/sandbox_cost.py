"""What the sandbox costs a bot: its start-up, and each message's round trip.

    python benchmarks/sandbox_cost.py [--trials 7] [--starts 10] [--messages 2000]

For each transport (stdio, and tcp, where a sandboxed bot's seat is a listener made in its
own network namespace), a bot is started the way arena starts it, with and without a
bubblewrap sandbox, in an order shuffled per trial. Start-up is the time from the start of
``connect`` to the bot's first reply (``cat`` over stdio, a tiny Python echo bot over tcp,
so that the interpreter's own start-up is in both columns); the round trip is one line
sent and its echo read, over ``--messages`` lines. Medians over all trials.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from arena_kernel.codecs.line import LineCodec
from arena_kernel.sandbox.bwrap import Sandbox, private_env
from arena_kernel.sandbox.probe import probe
from arena_kernel.sandbox.runtime import command_needs
from arena_kernel.sandbox.view import View
from arena_kernel.transports.base import BotProgram, Connection, Launch, Limits, Transport
from arena_kernel.transports.stdio import StdioTransport
from arena_kernel.transports.tcp import TcpTransport

TCP_ECHO = """
import socket, sys
with socket.create_connection((sys.argv[1], int(sys.argv[2]))) as s:
    f = s.makefile("rwb", buffering=0)
    for line in f:
        f.write(line)
"""


class Echo:
    """Collects what a connection delivers until a number of lines arrived."""

    def __init__(self) -> None:
        self.lines = 0
        self.wanted = 0
        self.reached: asyncio.Future[None] | None = None

    def on_data(self, data: bytes) -> None:
        self.lines += data.count(b"\n")
        if self.reached is not None and self.lines >= self.wanted and not self.reached.done():
            self.reached.set_result(None)

    def on_closed(self, reason: str) -> None:
        if self.reached is not None and not self.reached.done():
            self.reached.set_exception(RuntimeError(reason))

    async def until(self, lines: int) -> None:
        self.wanted = lines
        self.reached = asyncio.get_running_loop().create_future()
        if self.lines >= lines:
            return
        await self.reached


def launch(folder: Path, argv: tuple[str, ...], sandboxed: bool, name: str) -> Launch:
    box = None
    if sandboxed:
        found = probe()
        assert found.bwrap is not None, found.describe()
        needs = command_needs(argv, folder, {"PATH": "/usr/bin:/bin"})
        box = Sandbox(found.bwrap, View(folder=folder, read_only=needs), env=private_env({}))
    program = BotProgram(name, argv=argv, cwd=str(folder))
    return Launch(program, LineCodec(), name, Limits(), folder / "logs", 30.0, 0.5, box)


async def one_bot(transport: Transport, bot: Launch, messages: int) -> tuple[float, float]:
    """(start-up to the first echo, median round trip) of one bot, in seconds."""
    echo = Echo()
    began = time.perf_counter()
    conn: Connection = await transport.connect(bot)
    conn.start(echo.on_data, echo.on_closed)
    conn.write(b"hello\n")
    await echo.until(1)
    started = time.perf_counter() - began
    trips = []
    for i in range(messages):
        sent = time.perf_counter()
        conn.write(b"ping\n")
        await echo.until(i + 2)
        trips.append(time.perf_counter() - sent)
    await conn.close()
    return started, median(trips)


async def trial(folder: Path, kinds: list[tuple[str, bool]], starts: int, messages: int):
    results: dict[tuple[str, bool], tuple[list[float], list[float]]] = {}
    script = folder / "tcp_echo.py"
    script.write_text(TCP_ECHO)
    for name, sandboxed in kinds:
        transport: Transport = StdioTransport() if name == "stdio" else TcpTransport()
        argv = ("cat",) if name == "stdio" else (sys.executable, str(script), "{host}", "{port}")
        starts_s, trips_s = [], []
        for i in range(starts):
            bot = launch(folder, argv, sandboxed, f"{name}{i}")
            started, trip = await one_bot(transport, bot, messages if i == 0 else 1)
            starts_s.append(started)
            trips_s.append(trip)
        await transport.aclose()
        results[(name, sandboxed)] = (starts_s, trips_s)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=7)
    parser.add_argument("--starts", type=int, default=10, help="bots started per trial and kind")
    parser.add_argument("--messages", type=int, default=2000, help="round trips per trial")
    args = parser.parse_args()
    kinds = [(name, boxed) for name in ("stdio", "tcp") for boxed in (False, True)]
    starts: dict[tuple[str, bool], list[float]] = {k: [] for k in kinds}
    trips: dict[tuple[str, bool], list[float]] = {k: [] for k in kinds}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.trials):
            random.shuffle(kinds)
            found = asyncio.run(trial(Path(tmp), kinds, args.starts, args.messages))
            for kind, (s, t) in found.items():
                starts[kind] += s
                trips[kind].append(t[0])
    print(f"{args.trials} trials; {args.starts} starts and {args.messages} round trips per kind")
    print(f"{'transport':10} {'sandbox':8} {'start-up ms':>12} {'round trip us':>14}")
    for name in ("stdio", "tcp"):
        for boxed in (False, True):
            kind = (name, boxed)
            print(
                f"{name:10} {'bwrap' if boxed else 'none':8} {median(starts[kind]) * 1e3:12.2f}"
                f" {median(trips[kind]) * 1e6:14.1f}"
            )


if __name__ == "__main__":
    main()
