"""What the sandbox costs a bot, layer by layer: its start-up, each message's round trip,
and a whole ``arena run``.

    python benchmarks/sandbox_cost.py [--trials 7] [--starts 10] [--messages 2000]
        [--games 20] [--part layers|cli|both]

Layers. For each transport (stdio, and tcp, where a sandboxed bot's seat is a listener made
in its own network namespace), a bot is started the way arena starts it under each of
these, in an order shuffled per trial:

- ``none``: no sandbox;
- ``bwrap``: bubblewrap's namespaces and the bot's folder shown read-only, as sandboxes
  were before the layers below;
- ``+uid``: and a user id of the bot's own (only where the benchmark runs as root);
- ``+filter``: and the syscall filter;
- ``+copy``: and a private copy of its folder (a folder of 20 small files);
- ``+memory``: and a memory cgroup (``memory_mb``), where one can be made;
- ``all``: every layer, as ``arena run`` starts a bot today.

Start-up is the time from the start of ``connect`` to the bot's first reply (``cat`` over
stdio, a tiny Python echo bot over tcp, so that the interpreter's own start-up is in every
column); the round trip is one line sent and its echo read, over ``--messages`` lines.
Medians over all trials, and each layer's ratio to ``bwrap`` and to ``none``.

CLI. ``arena run`` of ``--games`` Nim games between two built-in bots run as programs, as a
user runs it, with ``[sandbox] mode = "none"``, ``mode = "required"`` with ``syscalls =
"all"``, and ``mode = "required"`` (every layer), interleaved, a fresh database each time:
the median wall time per run, and its ratio to ``none``.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from arena_kernel.codecs.line import LineCodec
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.sandbox import uids
from arena_kernel.sandbox.bot_cgroups import MEMORY
from arena_kernel.sandbox.bwrap import Sandbox, private_env
from arena_kernel.sandbox.cgroups import offering
from arena_kernel.sandbox.probe import probe
from arena_kernel.sandbox.runtime import command_needs
from arena_kernel.sandbox.view import View
from arena_kernel.transports.base import BotProgram, Connection, Launch, Transport
from arena_kernel.transports.stdio import StdioTransport
from arena_kernel.transports.tcp import TcpTransport

TCP_ECHO = """
import socket, sys
with socket.create_connection((sys.argv[1], int(sys.argv[2]))) as s:
    f = s.makefile("rwb", buffering=0)
    for line in f:
        f.write(line)
"""

LAYERS = ("none", "bwrap", "+uid", "+filter", "+copy", "+memory", "all")

MATCH = """\
game = "nim"
games = {games}
concurrency = 1
database = "results.sqlite"
logs = "logs"
plugins = ["arena_kernel.testing.games"]
[limits]
memory_mb = 512
[sandbox]
mode = "{mode}"
syscalls = "{syscalls}"
[[bots]]
name = "a"
builtin = "optimal"
[[bots]]
name = "b"
builtin = "random"
"""
CLI_KINDS = {
    "none": ("none", "filtered"),
    "bwrap, no filter": ("required", "all"),
    "bwrap, all layers": ("required", "filtered"),
}


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


def launch(folder: Path, argv: tuple[str, ...], layer: str, name: str, uid: int | None) -> Launch:
    """A bot started under ``layer`` (see the module's docstring)."""
    box = None
    limits = ResourceLimits()
    if layer != "none":
        found = probe()
        assert found.bwrap is not None, found.describe()
        needs = command_needs(argv, folder, {"PATH": "/usr/bin:/bin"})
        box = Sandbox(
            found.bwrap,
            View(folder=folder, read_only=needs),
            env=private_env({}),
            private_folder=False,
        )
        everything = layer == "all"
        if everything or layer == "+uid":
            box = dataclasses.replace(box, uid=uid)
        if everything or layer == "+filter":
            box = dataclasses.replace(box, syscall_filter=found.syscalls.program)
        if everything or layer == "+copy":
            box = dataclasses.replace(box, private_folder=True)
        if everything or layer == "+memory":
            limits = ResourceLimits(memory_mb=512)
    program = BotProgram(name, argv=argv, cwd=str(folder))
    return Launch(program, LineCodec(), name, limits, folder.parent / "logs", 30.0, 0.5, box)


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


async def trial(
    folder: Path, kinds: list[tuple[str, str]], starts: int, messages: int, uid: int | None
) -> dict[tuple[str, str], tuple[list[float], list[float]]]:
    results: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
    script = folder / "tcp_echo.py"
    for name, layer in kinds:
        transport: Transport = StdioTransport() if name == "stdio" else TcpTransport()
        argv = ("cat",) if name == "stdio" else (sys.executable, str(script), "{host}", "{port}")
        starts_s, trips_s = [], []
        for i in range(starts):
            bot = launch(folder, argv, layer, f"{name}{i}", uid)
            started, trip = await one_bot(transport, bot, messages if i == 0 else 1)
            starts_s.append(started)
            trips_s.append(trip)
        await transport.aclose()
        results[(name, layer)] = (starts_s, trips_s)
    return results


def layers(args: argparse.Namespace) -> None:
    found = probe()
    wanted = [
        layer
        for layer in LAYERS
        if (layer != "+uid" or uids.wanted()) and (layer != "+memory" or offering(MEMORY))
    ]
    if found.syscalls.program is None:
        wanted.remove("+filter")
    kinds = [(name, layer) for name in ("stdio", "tcp") for layer in wanted]
    starts: dict[tuple[str, str], list[float]] = {k: [] for k in kinds}
    trips: dict[tuple[str, str], list[float]] = {k: [] for k in kinds}
    lease = uids.lease() if uids.wanted() else None
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bot"
        folder.mkdir()
        folder.chmod(0o755)
        (folder / "tcp_echo.py").write_text(TCP_ECHO)
        for i in range(20):
            (folder / f"data{i}.txt").write_text("x" * 1000)
        for _ in range(args.trials):
            random.shuffle(kinds)
            uid = lease.uid if lease is not None else None
            result = asyncio.run(trial(folder, kinds, args.starts, args.messages, uid))
            for kind, (s, t) in result.items():
                starts[kind] += s
                trips[kind].append(t[0])
    if lease is not None:
        lease.release()
    print(f"{args.trials} trials; {args.starts} starts and {args.messages} round trips per kind")
    print(
        f"{'transport':9} {'layers':8} {'start-up ms':>11} {'x bwrap':>8} {'x none':>7}"
        f" {'round trip us':>13} {'x bwrap':>8}"
    )
    for name in ("stdio", "tcp"):
        base_start = median(starts[(name, "bwrap")])
        none_start = median(starts[(name, "none")])
        base_trip = median(trips[(name, "bwrap")])
        for layer in wanted:
            start, trip = median(starts[(name, layer)]), median(trips[(name, layer)])
            print(
                f"{name:9} {layer:8} {start * 1e3:11.2f} {start / base_start:8.2f}"
                f" {start / none_start:7.2f} {trip * 1e6:13.1f} {trip / base_trip:8.2f}"
            )


def cli(args: argparse.Namespace) -> None:
    times: dict[str, list[float]] = {kind: [] for kind in CLI_KINDS}
    order = list(CLI_KINDS)
    with tempfile.TemporaryDirectory() as tmp:
        for trial_number in range(args.trials):
            random.shuffle(order)
            for kind in order:
                folder = Path(tmp) / f"{trial_number}-{order.index(kind)}"
                folder.mkdir()
                mode, syscalls = CLI_KINDS[kind]
                match = folder / "match.toml"
                match.write_text(MATCH.format(games=args.games, mode=mode, syscalls=syscalls))
                began = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "arena_kernel.cli.main", "run", "--quiet", str(match)],
                    check=True,
                    capture_output=True,
                )
                times[kind].append(time.perf_counter() - began)
    print(f"arena run, {args.games} Nim games of two program bots, {args.trials} trials")
    base = median(times["none"])
    for kind, runs in times.items():
        print(f"{kind:18} {median(runs):7.2f} s {median(runs) / base:6.2f} x none")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=7)
    parser.add_argument("--starts", type=int, default=10, help="bots started per trial and kind")
    parser.add_argument("--messages", type=int, default=2000, help="round trips per trial")
    parser.add_argument("--games", type=int, default=20, help="games per arena run")
    parser.add_argument("--part", choices=("layers", "cli", "both"), default="both")
    args = parser.parse_args()
    if args.part in ("layers", "both"):
        layers(args)
    if args.part in ("cli", "both"):
        cli(args)


if __name__ == "__main__":
    main()
