"""Messages per second through arena's referee, against a raw pipe ping-pong.

Both measurements talk to the same trivial echo bot (a separate process that answers each
line it reads): first with bare os.read/os.write on its pipes, without arena, then through
the stdio transport, the line codec, a channel and ``Table.ask`` (clocks, event log and all).

Every measurement starts its bot the way arena does (in a session of its own) and times
only the round trips: one untimed round trip first, so that the bot's start-up (tens of
milliseconds of interpreter start, as long as thousands of round trips) is in none of them.

Wall-clock rates on a shared virtual machine drift by a factor of ten within minutes, so
the measurements are interleaved: each trial measures raw and arena back to back, and the
report gives the median of each and the median of the per-trial ratios.
Usage: python benchmarks/echo_throughput.py [--messages N] [--trials T]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from arena_kernel.codecs.jsonl import JsonlCodec
from arena_kernel.codecs.line import LineCodec
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.transports.base import BotProgram, Launch, Limits
from arena_kernel.transports.stdio import StdioTransport
from arena_kernel.transports.tcp import TcpTransport

ECHO_BOT = r"""
import os, sys
buffered = b""
while chunk := os.read(0, 65536):
    buffered += chunk
    *lines, buffered = buffered.split(b"\n")
    if lines:
        os.write(1, b"".join(line + b"\n" for line in lines))
"""

ECHO_TCP_BOT = r"""
import socket, sys
sock = socket.create_connection((sys.argv[1], int(sys.argv[2])))
sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
buffered = b""
while chunk := sock.recv(65536):
    buffered += chunk
    *lines, buffered = buffered.split(b"\n")
    if lines:
        sock.sendall(b"".join(line + b"\n" for line in lines))
"""


def start_echo_bot() -> subprocess.Popen[bytes]:
    """The echo bot on pipes, in a new session as arena starts its bots."""
    return subprocess.Popen(
        [sys.executable, "-c", ECHO_BOT],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )


def raw_pingpong(messages: int) -> float:
    """Round trips per second with bare pipes: the floor cost of two processes talking."""
    bot = start_echo_bot()
    out, inp = bot.stdin.fileno(), bot.stdout.fileno()
    message = b'{"ping": 1}\n'

    def round_trip() -> None:
        os.write(out, message)
        got = os.read(inp, 65536)
        while not got.endswith(b"\n"):
            got += os.read(inp, 65536)

    round_trip()  # the bot is up
    started = time.perf_counter()
    for _ in range(messages):
        round_trip()
    elapsed = time.perf_counter() - started
    bot.stdin.close()
    bot.wait()
    return messages / elapsed


async def asyncio_floor(messages: int) -> float:
    """The same ping-pong on a bare event loop (add_reader and a future, nothing else): the
    least any asyncio referee pays, shown so that arena's own share of the cost is visible."""
    bot = start_echo_bot()
    out, inp = bot.stdin.fileno(), bot.stdout.fileno()
    os.set_blocking(inp, False)
    loop = asyncio.get_running_loop()
    waiter: list[asyncio.Future[bytes]] = []

    def readable() -> None:
        data = os.read(inp, 65536)
        if waiter and not waiter[0].done():
            waiter[0].set_result(data)

    loop.add_reader(inp, readable)

    async def round_trip() -> None:
        waiter[:] = [loop.create_future()]
        os.write(out, b'{"ping": 1}\n')
        await waiter[0]

    await round_trip()  # the bot is up
    started = time.perf_counter()
    for _ in range(messages):
        await round_trip()
    elapsed = time.perf_counter() - started
    loop.remove_reader(inp)
    bot.stdin.close()
    bot.wait()
    return messages / elapsed


async def arena_pingpong(messages: int, transport_name: str, codec_name: str) -> float:
    codec = JsonlCodec() if codec_name == "jsonl" else LineCodec()
    message = {"ping": 1} if codec_name == "jsonl" else '{"ping": 1}'
    with tempfile.TemporaryDirectory() as logs:
        if transport_name == "tcp":
            transport = TcpTransport()
            argv = (sys.executable, "-c", ECHO_TCP_BOT, "{host}", "{port}")
        else:
            transport = StdioTransport()
            argv = (sys.executable, "-c", ECHO_BOT)
        launch = Launch(BotProgram("echo", argv), codec, "echo", Limits(), Path(logs), 10.0, 0.5)
        channel = Channel("echo", "echo", await transport.connect(launch), codec)
        table = Table([channel], Clocks(reply=5.0), EventLog())
        assert (await table.ask(0, message)).ok  # the bot is up
        started = time.perf_counter()
        for _ in range(messages):
            reply = await table.ask(0, message)
            assert reply.ok, reply.fault
        elapsed = time.perf_counter() - started
        await channel.close()
        await transport.aclose()
        assert len(table.log.events) == 2 * (messages + 1)
    return messages / elapsed


VARIANTS = {
    "arena stdio + line": ("stdio", "line"),
    "arena stdio + jsonl": ("stdio", "jsonl"),
    "arena tcp + jsonl": ("tcp", "jsonl"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=5000, help="round trips per trial")
    parser.add_argument("--trials", type=int, default=7)
    args = parser.parse_args()
    n = args.messages
    raw_rates: list[float] = []
    names = ["bare asyncio, no arena", *VARIANTS]
    rates: dict[str, list[float]] = {name: [] for name in names}
    ratios: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(args.trials):
        for name in names:
            raw = raw_pingpong(n)
            if name in VARIANTS:
                rate = asyncio.run(arena_pingpong(n, *VARIANTS[name]))
            else:
                rate = asyncio.run(asyncio_floor(n))
            raw_rates.append(raw)
            rates[name].append(rate)
            ratios[name].append(rate / raw)
    print(
        f"{args.trials} trials of {n} round trips (one message each way), "
        f"Python {sys.version.split()[0]}, medians"
    )
    print(f"{'raw pipe ping-pong, no arena':29}: {median(raw_rates):10,.0f} round trips/s")
    for name in names:
        print(
            f"{name:29}: {median(rates[name]):10,.0f} round trips/s"
            f"  ({median(ratios[name]):.2f} x raw, trials {min(ratios[name]):.2f}"
            f"-{max(ratios[name]):.2f})"
        )


if __name__ == "__main__":
    main()
