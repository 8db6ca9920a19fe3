"""Round trips through arena's referee, against bare pipes and a bare asyncio loop.

    python benchmarks/echo_throughput.py [--messages 3000] [--trials 7] [--compare DIR]

Every variant talks to the same trivial echo bot (a separate process that answers each
line it reads): with bare ``os.read``/``os.write`` (no event loop), on a bare asyncio loop
(``add_reader`` and a future, nothing else: the least any asyncio referee pays), then
through a transport, a codec, a channel and ``Table.ask`` (clocks, event log and all). For
each it reports round trips per second (wall clock) and the referee process's CPU time per
round trip (``time.process_time``: user and system time of this process only, not the
bot's), then apart the CPU time arena spends per round trip on the game's record when the
round trips are over: its log makes the events of every message then (as the runner has
it do once per game), so the round trips alone would not count all they cost.

Every variant starts its bot the way arena does (in a session of its own) and times only
the round trips, after one untimed round trip (the bot's start-up is in none of them).
Timings on a shared machine drift within seconds, so a trial interleaves the variants:
every bot is up at once, each variant on an event loop of its own, and they take turns
by blocks of :data:`BLOCK` round trips (in an order rotated per trial); the report gives
medians, and the median of the per-trial ratios to the bare asyncio loop (with the lowest
and highest).

``--compare DIR`` measures the ``arena_kernel`` package found in DIR too (a copy of the
kernel from before a change), in a child process run between this process's own trials.

Where it stands (two cores shared with other work, 7 trials of 3000, the kernel before in
the same run with ``--compare``; four runs, at loads near 7, 10, 5 and 3, with trials spread
widely): with the compiled round trip (``kernel/arena_kernel/codecs/
_fast.c``: the request, the read of the line that answers it, the connection's read and
usual write, the table's usual step around them, reading the channel's, decoder's, log's
and connection's slots as fields), arena's stdio + line round trip costs 1.20, 1.54, 1.22
and 1.27 times the bare asyncio one in CPU (1.47, 1.56, 1.54 and 1.52 before in the same
runs; the 1.54 of the loaded run spread from 1.18 to 2.54); stdio + jsonl 1.18, 1.31, 1.28
and 1.43 times (1.45, 1.63, 1.48 and 1.51 before; the 1.43 spread from 1.13 to 2.09); tcp +
jsonl 1.19, 1.14, 1.18 and 1.15 times a bare asyncio round trip on tcp (1.38, 1.49, 1.43
and 1.44 before). Counted in instructions of the referee process
(callgrind, which no load changes; the bot's process not counted), a round trip is 47,700
on stdio + line, 47,800 on stdio + jsonl and 48,200 on tcp + jsonl, against 40,700 for the
bare loop on pipes and 40,400 on tcp: 1.17, 1.17 and 1.19 times (59,300, 60,500 and 60,800
before: 1.46, 1.49 and 1.50 times). The game's record, made after the round trips, 5.3 to
6.6 µs a round trip. On the Python code alone (``ARENA_PURE_PYTHON=1``, 5 trials at a load
near 4) the figures are those before, within the spread: line 1.51 (1.65 before in the same
run), jsonl 1.98 (1.84), tcp 1.60 times its floor (1.62).

What is left on the compiled path is the table's coroutine (a Python frame made and
resumed for every round trip), the round trip's tuples (its result and the log's two
entries), the future and the event loop's two iterations a round trip, as on the bare loop.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

from arena_kernel.codecs.jsonl import JsonlCodec
from arena_kernel.codecs.line import LineCodec
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.transports.base import BotProgram, Launch
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

PING = b'{"ping": 1}\n'

Timing = tuple[float, float, float]
"""Per round trip: (wall seconds, the referee's CPU seconds, its CPU seconds for the game's
record after the round trips: arena builds the events there)."""

BLOCK = 200
"""Round trips of one variant before the next variant's turn."""


def start_echo_bot() -> subprocess.Popen[bytes]:
    """The echo bot on pipes, in a new session as arena starts its bots."""
    return subprocess.Popen(
        [sys.executable, "-c", ECHO_BOT],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )


class Variant:
    """One way of doing round trips with one echo bot: :meth:`open`, then blocks of
    :meth:`round_trips`, timed, then :meth:`close`."""

    async def open(self) -> None:
        """Start the bot and make one round trip (the bot is up)."""

    async def round_trips(self, count: int) -> None:
        raise NotImplementedError

    async def finish(self) -> None:
        """What the variant owes at the end of its game, timed apart (arena: the record)."""

    async def close(self) -> None:
        """End the bot."""


class RawPipes(Variant):
    """Blocking reads and writes on bare pipes: the floor cost of two processes talking."""

    async def open(self) -> None:
        self.bot = start_echo_bot()
        assert self.bot.stdin is not None and self.bot.stdout is not None
        self.out, self.inp = self.bot.stdin.fileno(), self.bot.stdout.fileno()
        await self.round_trips(1)

    async def round_trips(self, count: int) -> None:
        out, inp = self.out, self.inp
        for _ in range(count):
            os.write(out, PING)
            got = os.read(inp, 65536)
            while not got.endswith(b"\n"):
                got += os.read(inp, 65536)

    async def close(self) -> None:
        assert self.bot.stdin is not None
        self.bot.stdin.close()
        self.bot.wait()


class BareAsyncio(RawPipes):
    """The same ping-pong on a bare event loop (``add_reader`` and a future, nothing else):
    the least any asyncio referee pays, so that arena's own share of the cost is visible."""

    async def open(self) -> None:
        self.bot = start_echo_bot()
        assert self.bot.stdin is not None and self.bot.stdout is not None
        self.out, self.inp = self.bot.stdin.fileno(), self.bot.stdout.fileno()
        os.set_blocking(self.inp, False)
        self.loop = asyncio.get_running_loop()
        self.waiter: asyncio.Future[bytes] | None = None
        self.loop.add_reader(self.inp, self._readable)
        await self.round_trips(1)

    def _readable(self) -> None:
        data = os.read(self.inp, 65536)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(data)

    async def round_trips(self, count: int) -> None:
        for _ in range(count):
            self.waiter = self.loop.create_future()
            os.write(self.out, PING)
            await self.waiter

    async def close(self) -> None:
        self.loop.remove_reader(self.inp)
        await super().close()


class BareAsyncioTcp(BareAsyncio):
    """The bare event loop's ping-pong over a TCP connection on the loopback (the echo bot
    of arena's tcp variant): the floor of a tcp round trip, whose system calls cost more
    than a pipe's."""

    async def open(self) -> None:
        listener = socket.create_server(("127.0.0.1", 0))
        host, port = listener.getsockname()[:2]
        self.bot = subprocess.Popen(
            [sys.executable, "-c", ECHO_TCP_BOT, host, str(port)], start_new_session=True
        )
        self.sock, _ = listener.accept()
        listener.close()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.out = self.inp = self.sock.fileno()
        os.set_blocking(self.inp, False)
        self.loop = asyncio.get_running_loop()
        self.waiter = None
        self.loop.add_reader(self.inp, self._readable)
        await self.round_trips(1)

    async def close(self) -> None:
        self.loop.remove_reader(self.inp)
        self.sock.close()
        self.bot.wait()


class Arena(Variant):
    """``Table.ask`` round trips through a transport, a codec and a channel; at the end, the
    events of the game's record are built (as the runner does once per game)."""

    def __init__(self, transport: str, codec: str) -> None:
        self.jsonl = codec == "jsonl"
        self.codec = JsonlCodec() if self.jsonl else LineCodec()
        self.message: object = {"ping": 1} if self.jsonl else PING.decode().rstrip("\n")
        self.tcp = transport == "tcp"
        self.asked = 0

    async def open(self) -> None:
        self.logs = tempfile.TemporaryDirectory()
        if self.tcp:
            self.transport: TcpTransport | StdioTransport = TcpTransport()
            argv = (sys.executable, "-c", ECHO_TCP_BOT, "{host}", "{port}")
        else:
            self.transport = StdioTransport()
            argv = (sys.executable, "-c", ECHO_BOT)
        program = BotProgram("echo", argv)
        launch = Launch(
            program, self.codec, "echo", ResourceLimits(), Path(self.logs.name), 10.0, 0.5
        )
        self.channel = Channel("echo", "echo", await self.transport.connect(launch), self.codec)
        self.table = Table([self.channel], Clocks(reply=5.0), EventLog())
        await self.round_trips(1)

    async def round_trips(self, count: int) -> None:
        ask, message = self.table.ask, self.message
        for _ in range(count):
            reply = await ask(0, message)
            assert reply.ok, reply.fault
        self.asked += count

    async def finish(self) -> None:
        assert len(self.table.log.events) == 2 * self.asked

    async def close(self) -> None:
        await self.channel.close()
        await self.transport.aclose()
        self.logs.cleanup()


FLOOR = "bare asyncio, no arena"
TCP_FLOOR = "bare asyncio on tcp, no arena"
VARIANTS: dict[str, Callable[[], Variant]] = {
    "raw pipe ping-pong, no arena": RawPipes,
    FLOOR: BareAsyncio,
    TCP_FLOOR: BareAsyncioTcp,
    "arena stdio + line": lambda: Arena("stdio", "line"),
    "arena stdio + jsonl": lambda: Arena("stdio", "jsonl"),
    "arena tcp + jsonl": lambda: Arena("tcp", "jsonl"),
}
SAME_TRANSPORT = {"arena tcp + jsonl": TCP_FLOOR}
"""The floor of the same transport, where it is not the bare loop on pipes."""


def one_trial(messages: int, rotation: int) -> dict[str, Timing]:
    """Every variant's bot up at once, each on an event loop of its own (so that no
    variant's timers or readers weigh on another's), then :data:`BLOCK` round trips of
    each in turn, starting with the ``rotation``-th, until each made ``messages``."""
    names = list(VARIANTS)
    rotation %= len(names)
    variants = {name: VARIANTS[name]() for name in names[rotation:] + names[:rotation]}
    loops = {name: asyncio.new_event_loop() for name in variants}
    spent = dict.fromkeys(variants, (0.0, 0.0, 0.0))
    try:
        for name, variant in variants.items():
            loops[name].run_until_complete(variant.open())
        for done in range(0, messages, BLOCK):
            count = min(BLOCK, messages - done)
            last = done + count == messages
            for name, variant in variants.items():
                wall, cpu, record = loops[name].run_until_complete(timed(variant, count, last))
                total = spent[name]
                spent[name] = (total[0] + wall, total[1] + cpu, total[2] + record)
    finally:
        for name, variant in variants.items():
            loops[name].run_until_complete(variant.close())
            loops[name].close()
    return {
        name: (spent[name][0] / messages, spent[name][1] / messages, spent[name][2] / messages)
        for name in names
    }


async def timed(variant: Variant, count: int, last: bool) -> Timing:
    """Wall and CPU seconds of ``count`` round trips, and the CPU seconds of the finish
    (after the last round trips)."""
    wall, cpu = time.perf_counter(), time.process_time()
    await variant.round_trips(count)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    record = time.process_time()
    if last:
        await variant.finish()
    return wall, cpu, time.process_time() - record


def trial_elsewhere(kernel: str, messages: int, rotation: int) -> dict[str, Timing]:
    """One trial run by a child process on the ``arena_kernel`` package in ``kernel``."""
    paths = [kernel, *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    argv = [sys.executable, __file__, "--messages", str(messages), "--one-trial", str(rotation)]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    measured = json.loads(done.stdout)
    return {name: (wall, cpu, record) for name, (wall, cpu, record) in measured.items()}


def report(title: str, trials: list[dict[str, Timing]]) -> None:
    """Medians; CPU of the round trips, then with the game's record (arena's events)."""
    print(title)
    print(
        f"{'':29}{'trips/s':>9}{'CPU µs/trip':>12}{'+ record':>9}"
        f"   CPU vs bare asyncio (trials)    with the record   vs its transport's floor"
    )
    for name in VARIANTS:
        rate = median(1 / trial[name][0] for trial in trials)
        cpu = median(trial[name][1] for trial in trials)
        record = median(trial[name][2] for trial in trials)
        alone = [trial[name][1] / trial[FLOOR][1] for trial in trials]
        whole = [(trial[name][1] + trial[name][2]) / trial[FLOOR][1] for trial in trials]
        own = SAME_TRANSPORT.get(name)
        same = "" if own is None else "   " + _ratios([t[name][1] / t[own][1] for t in trials])
        print(
            f"{name:29}{rate:>9,.0f}{cpu * 1e6:>12.1f}{record * 1e6:>9.1f}"
            f"   {_ratios(alone)}    {_ratios(whole)}{same}"
        )


def _ratios(ratios: list[float]) -> str:
    """The median ratio, with the lowest and highest."""
    return f"{median(ratios):.2f} x ({min(ratios):.2f}-{max(ratios):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=3000, help="round trips per trial")
    parser.add_argument("--trials", type=int, default=7)
    parser.add_argument("--compare", metavar="DIR", help="also measure arena_kernel in DIR")
    parser.add_argument("--one-trial", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_trial is not None:
        print(json.dumps(one_trial(args.messages, args.one_trial)))
        return
    ours: list[dict[str, Timing]] = []
    theirs: list[dict[str, Timing]] = []
    for i in range(args.trials):
        if args.compare:
            theirs.append(trial_elsewhere(args.compare, args.messages, i))
        ours.append(one_trial(args.messages, i))
    python = sys.version.split()[0]
    heading = f"{args.trials} trials of {args.messages} round trips, Python {python}"
    if args.compare:
        report(f"{heading}, arena_kernel in {args.compare}:", theirs)
        print()
    report(f"{heading}{', this arena_kernel' if args.compare else ''}:", ours)


if __name__ == "__main__":
    main()
