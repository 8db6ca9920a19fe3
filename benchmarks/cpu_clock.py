"""What a CPU-time clock costs the referee, and what it spares bots on a busy machine.

    python benchmarks/cpu_clock.py [--part overhead|faults|both] [--trials 7]
        [--replies 3000] [--proc-replies 300] [--fault-trials 3] [--requests 20]
        [--concurrency 1,2,4,8] [--burn 0.1] [--limit 0.2] [--grace 0.02] [--wall-cap 10]

Overhead. A trivial echo bot (a separate process that answers each line at once) is asked
through a :class:`StdioTransport`, a :class:`LineCodec`, a :class:`Channel` and
``Table.ask``: on a wall clock (``Clocks(mode="wall")``, no meter), on a CPU-time clock
with the bot in an accounting cgroup of its own (``mode="cpu"``, ``Launch(cpu_clock=True)``:
one ``pread`` of ``cpu.stat`` as the request is written and one as the reply is read), and
on a CPU-time clock with the ``/proc`` fallback (the cgroup meter made unavailable while
the bot starts, so that it is timed by a :class:`TreeMeter`: a scan of every process on
the machine per reading); as a control, the wall clock again with the bot in a cgroup
(measured, never read). For each it reports round trips per second and the referee
process's CPU time per round trip (``time.process_time``: this process's user and system
time, not the bot's; median and lowest over trials), the difference to the wall clock in
µs and the ratio (median over trials, with the lowest and highest per-trial ratio), the
referee's CPU time per reading of the meter (timed apart after the round trips), and the
median CPU time the meter charged the bot per reply. As in ``echo_throughput.py``, every
bot of a trial is up at once, each on an event loop of its own, and they take turns by
blocks (in an order rotated per trial) after one untimed round trip; the ``/proc`` variant
makes fewer round trips (``--proc-replies``: each costs milliseconds), in as many blocks as
the others.

Faults. ``C`` games at once (``--concurrency``) on one event loop, each a :class:`Table`
with one seat (a game's seats take turns, so one busy bot per game), whose bot
(``arena_kernel.testing.scripted``) burns ``--burn`` seconds of its own CPU time before
each reply, half its limit (``--limit``, with ``--grace``). After one untimed warm-up
request (a plain reply), every game asks ``--requests`` requests in a row, all games
starting together. A request that faults is followed by a wait for the bot's late answer,
so that every request is judged on its own (a real game would forfeit the bot). Both modes
take turns within each concurrency level (the order alternating per trial): wall clock,
and CPU-time clock (cgroup meter) with ``wall_cap`` times the limit by the wall clock. The
report counts replies, timeouts, wall-cap and other faults, the median, 95th percentile
and longest wall time per reply (from the request's write to the read of its reply, late
answers included, as the game's log records them), the median CPU time the meter charged
per reply (CPU-time clock only), and the bot's CPU time per request read from its process
clock (both modes, over all its requests). Every bot starts in a session of its own, as
arena starts bots, so that with ``sched_autogroup`` on (as here) each competes for the
cores as a whole session.

Where it stands (2 cores, Python 3.11, four runs while other engineers' test suites kept
the load average at 4 to 14, 90 to 115 processes on the machine): on the wall clock arena's
round trip cost the referee 53 to 66 µs of CPU (5,700 to 9,500 round trips per second).
The CPU-time clock with a cgroup added 7 to 28 µs per round trip (medians per run, 1.08 to
1.45 times; per trial 0.74 to 1.95 times), of which its two readings of ``cpu.stat`` are
some 6 µs (3 µs each, timed apart); the control, a bot in a cgroup on the wall clock, came
out at -7 to +11 µs, which is how noisy these figures are on a machine this busy. The
``/proc`` fallback cost 4 ms per reading (about 40 µs per process on the machine), so
7 to 10 ms of referee CPU per round trip (135 to 185 times the wall clock, 64 to 133 round
trips per second), paid in the event loop, where it delays every game's reads; it grows
with the number of processes. For a 0.1 s burn, the cgroup meter charged 100.1 to 100.2
ms, as the bot's own process clock said; for an echo it charged 21 to 40 µs (the
``/proc`` meter 95 to 105 µs: the bot woken after 4 ms of the referee's scanning).
Faults, per run (out of 60, 120, 240 and 480 requests at 1, 2, 4 and 8 games): on the wall
clock 0-7, 14-69, 208-239 and 477-480 timeouts (1 and 2 games already fault because of
the machine's other load; 4 and 8 games nearly always); on the CPU-time clock none at
all, and no wall-cap fault either (also 0 of 400 and 800 at 4 and 8 games over 5 trials,
against 393 and 800 timeouts on the wall clock). Median wall time per reply is the same
in both modes (100 to 160 ms at 1 game, 440 to 570 ms at 8): the CPU-time clock does not
make a bot faster, it stops charging it for waiting. The longest reply at 8 games was
usually 0.5 to 0.9 s, but twice (in 480 requests, at load spikes) 2.03 and 2.17 s, close
to the 2.2 s wall cap (10 times 0.22 s): on a machine this overloaded, the cap is the
limit that is left, and a lower ``wall_cap`` would have ended these bots.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median, quantiles

from arena_kernel.codecs.line import LineCodec
from arena_kernel.model import FaultKind
from arena_kernel.processes.cpu_meter import CgroupMeter, CpuMeter, TreeMeter
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks, Mode
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.transports.base import BotProgram, Launch
from arena_kernel.transports.stdio import StdioTransport

ECHO_BOT = r"""
import os, sys
buffered = b""
while chunk := os.read(0, 65536):
    buffered += chunk
    *lines, buffered = buffered.split(b"\n")
    if lines:
        os.write(1, b"".join(line + b"\n" for line in lines))
"""

BLOCK = 200
"""Round trips of a fast variant before the next variant's turn."""


@contextlib.contextmanager
def without_cgroups() -> Iterator[None]:
    """Bots started meanwhile are timed by the ``/proc`` fallback, not by their cgroup (as
    on a machine where arena can make no cgroup)."""
    saved = CgroupMeter.__dict__["make"]
    CgroupMeter.make = staticmethod(lambda _: None)  # type: ignore[method-assign]
    try:
        yield
    finally:
        CgroupMeter.make = saved  # type: ignore[method-assign]


def process_cpu(pid: int) -> float | None:
    """The CPU seconds process ``pid`` used (threads included), by its CPU clock."""
    try:
        return time.clock_gettime((~pid << 3) | 2)
    except OSError:
        return None


def count_processes() -> int:
    return sum(name.isdigit() for name in os.listdir("/proc"))


# -- overhead -------------------------------------------------------------------------


Timing = tuple[float, float, float | None, float | None]
"""Per round trip: (wall seconds, the referee's CPU seconds, the bot's CPU seconds per
reply by the meter, or None on the wall clock); then the referee's CPU seconds per reading
of the bot's meter, taken apart after the round trips (None: no meter)."""

READINGS = {CgroupMeter: 2000, TreeMeter: 20}
"""Readings of a meter timed apart, per trial."""


class Echo:
    """``Table.ask`` round trips to one echo bot on one kind of clock."""

    def __init__(self, mode: Mode, meter: type[CpuMeter] | None, logs: Path) -> None:
        self.mode = mode
        self.meter = meter
        self.logs = logs
        self.channel: Channel | None = None
        self.transport = StdioTransport()
        self.codec = LineCodec()
        self.bot_cpu = 0.0

    async def open(self, name: str) -> None:
        metered = self.meter is not None
        program = BotProgram("echo", (sys.executable, "-c", ECHO_BOT))
        launch = Launch(
            program, self.codec, name, ResourceLimits(), self.logs, 10.0, 0.5, cpu_clock=metered
        )
        with without_cgroups() if self.meter is TreeMeter else contextlib.nullcontext():
            connection = await self.transport.connect(launch)
        self.channel = Channel("echo", name, connection, self.codec)
        got = connection.cpu_meter
        assert (got is None) if self.meter is None else isinstance(got, self.meter), got
        self.table = Table([self.channel], Clocks(reply=5.0, mode=self.mode), EventLog())
        await self.round_trips(1)
        self.bot_cpu = 0.0

    async def round_trips(self, count: int) -> None:
        ask = self.table.ask
        for _ in range(count):
            reply = await ask(0, "ping")
            assert reply.ok, reply.fault
            if reply.cpu is not None:
                self.bot_cpu += reply.cpu

    def reading_cost(self) -> float | None:
        """The referee's CPU seconds per reading of the bot's meter (None: no meter)."""
        assert self.channel is not None and self.channel.connection is not None
        meter = self.channel.connection.cpu_meter
        if meter is None:
            return None
        count = READINGS[type(meter)]
        cpu = time.process_time()
        for _ in range(count):
            meter.seconds()
        return (time.process_time() - cpu) / count

    async def close(self) -> None:
        if self.channel is not None:
            await self.channel.close()
        await self.transport.aclose()


@dataclass(frozen=True)
class EchoVariant:
    mode: Mode
    meter: type[CpuMeter] | None
    slow: bool = False
    """Makes ``--proc-replies`` round trips rather than ``--replies``."""


WALL = "wall clock"
VARIANTS = {
    WALL: EchoVariant("wall", None),
    "wall clock, bot in cgroup": EchoVariant("wall", CgroupMeter),
    "cpu clock, cgroup meter": EchoVariant("cpu", CgroupMeter),
    "cpu clock, /proc meter": EchoVariant("cpu", TreeMeter, slow=True),
}


def overhead_trial(replies: int, proc_replies: int, rotation: int) -> dict[str, Timing]:
    """Every variant's bot up at once, each on an event loop of its own, then blocks of
    each in turn, starting with the ``rotation``-th, until each made its round trips."""
    names = list(VARIANTS)
    rotation %= len(names)
    order = names[rotation:] + names[:rotation]
    blocks = max(1, -(-replies // BLOCK))
    totals = {name: proc_replies if VARIANTS[name].slow else replies for name in names}
    spent = dict.fromkeys(names, (0.0, 0.0))
    with tempfile.TemporaryDirectory() as logs:
        echoes = {
            name: Echo(VARIANTS[name].mode, VARIANTS[name].meter, Path(logs)) for name in order
        }
        loops = {name: asyncio.new_event_loop() for name in order}
        try:
            for i, (name, echo) in enumerate(echoes.items()):
                loops[name].run_until_complete(echo.open(f"echo-{i}"))
            for block in range(blocks):
                for name, echo in echoes.items():
                    total = totals[name]
                    count = total * (block + 1) // blocks - total * block // blocks
                    wall, cpu = time.perf_counter(), time.process_time()
                    loops[name].run_until_complete(echo.round_trips(count))
                    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                    spent[name] = (spent[name][0] + wall, spent[name][1] + cpu)
            readings = {name: echo.reading_cost() for name, echo in echoes.items()}
        finally:
            for name, echo in echoes.items():
                settle(loops[name])
                loops[name].run_until_complete(echo.close())
                loops[name].close()
    return {
        name: (
            spent[name][0] / totals[name],
            spent[name][1] / totals[name],
            echoes[name].bot_cpu / totals[name] if VARIANTS[name].mode == "cpu" else None,
            readings[name],
        )
        for name in names
    }


def settle(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what an interrupted ``run_until_complete`` left running on ``loop``."""
    tasks = asyncio.all_tasks(loop)
    for task in tasks:
        task.cancel()
    if tasks:
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))


def report_overhead(trials: list[dict[str, Timing]], replies: int, proc_replies: int) -> None:
    python = sys.version.split()[0]
    print(
        f"Overhead: {len(trials)} trials of {replies} round trips ({proc_replies} with the "
        f"/proc meter), echo bot, stdio + line, Python {python}, "
        f"{count_processes()} processes on the machine"
    )
    print(
        f"{'':27}{'trips/s':>9}{'CPU µs/trip':>13}{'lowest':>8}{'+µs vs wall':>12}"
        f"   CPU vs wall (trials)   µs/reading   bot µs/reply"
    )
    for name in VARIANTS:
        rate = median(1 / trial[name][0] for trial in trials)
        cpu = [trial[name][1] for trial in trials]
        extra = median(trial[name][1] - trial[WALL][1] for trial in trials)
        ratios = [trial[name][1] / trial[WALL][1] for trial in trials]
        print(
            f"{name:27}{rate:>9,.0f}{median(cpu) * 1e6:>13.1f}{min(cpu) * 1e6:>8.1f}"
            f"{extra * 1e6:>+12.1f}"
            f"   {median(ratios):6.2f} x ({min(ratios):.2f}-{max(ratios):.2f})"
            f"{micros([trial[name][3] for trial in trials]):>13}"
            f"{micros([trial[name][2] for trial in trials]):>15}"
        )


def micros(values: list[float | None]) -> str:
    """The median in µs of the values measured ("-" when none was)."""
    known = [v for v in values if v is not None]
    return f"{median(known) * 1e6:.1f}" if known else "-"


# -- faults ---------------------------------------------------------------------------


@dataclass
class Tally:
    """What the games of one mode at one concurrency level got, over all trials."""

    requests: int = 0
    ok: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    per_trial: list[int] = field(default_factory=list)
    """Faults of each trial."""
    walls: list[float] = field(default_factory=list)
    """Wall seconds of every reply, late ones included."""
    charged: list[float] = field(default_factory=list)
    """CPU seconds the meter charged each answered request (CPU-time clock)."""
    bot_cpu: list[float] = field(default_factory=list)
    """Each bot's CPU seconds per request, by its process clock."""


@dataclass(frozen=True)
class FaultSetting:
    requests: int
    burn: float
    clocks: Clocks
    patience: float = 30.0
    """The longest wait for a late answer."""


class Game:
    """One game of one seat: a bot that burns CPU before every reply."""

    def __init__(self, setting: FaultSetting, index: int) -> None:
        self.setting = setting
        self.index = index
        self.channel: Channel | None = None
        self.faults: Counter[str] = Counter()
        self.ok = 0
        self.charged: list[float] = []
        self.cpu_at_start: float | None = None
        self.cpu_per_request: float | None = None

    async def open(self, transport: StdioTransport, logs: Path) -> None:
        """Start the bot and make the untimed warm-up request."""
        steps = json.dumps([{"reply": "ready"}, {"burn": self.setting.burn, "reply": "x"}])
        argv = (sys.executable, "-m", "arena_kernel.testing.scripted", steps)
        codec = LineCodec()
        cpu = self.setting.clocks.mode == "cpu"
        name = f"burner-{self.index}"
        launch = Launch(
            BotProgram("burner", argv),
            codec,
            name,
            ResourceLimits(),
            logs,
            10.0,
            0.5,
            cpu_clock=cpu,
        )
        connection = await transport.connect(launch)
        self.channel = Channel("burner", name, connection, codec)
        assert (connection.cpu_meter is not None) == cpu
        assert connection.pid is not None
        self.pid = connection.pid
        self.table = Table([self.channel], self.setting.clocks, EventLog())
        reply = await self.table.ask(0, "hello")
        assert reply.ok, reply.fault

    async def play(self) -> None:
        assert self.channel is not None
        self.cpu_at_start = process_cpu(self.pid)
        for _ in range(self.setting.requests):
            reply = await self.table.ask(0, "go")
            if reply.fault is None:
                self.ok += 1
                if reply.cpu is not None:
                    self.charged.append(reply.cpu)
                continue
            self.faults[str(reply.fault.kind)] += 1
            if reply.fault.kind in (FaultKind.TIMEOUT, FaultKind.WALL_CAP):
                await self.late_answer()
            if not self.table.alive(0):
                break
        end = process_cpu(self.pid)
        if end is not None and self.cpu_at_start is not None:
            self.cpu_per_request = (end - self.cpu_at_start) / self.setting.requests

    async def late_answer(self) -> None:
        """Wait until the bot's late answer has come (it is then put aside)."""
        assert self.channel is not None
        until = time.monotonic() + self.setting.patience
        while self.channel.closed is None and time.monotonic() < until:
            if self.channel.drain():
                return
            await asyncio.sleep(0.002)

    def walls(self) -> list[float]:
        """The wall seconds of every timed reply (answered or late), by the game's log."""
        events = self.table.log.events
        timed = [e.elapsed for e in events if e.kind in ("recv", "late") and e.elapsed is not None]
        return timed[1:]  # the warm-up's reply first

    async def close(self) -> None:
        if self.channel is not None:
            await self.channel.close()


async def concurrent_games(setting: FaultSetting, concurrency: int, tally: Tally) -> None:
    """``concurrency`` games at once: every bot up and warm, then all play together."""
    games = [Game(setting, i) for i in range(concurrency)]
    transport = StdioTransport()
    with tempfile.TemporaryDirectory() as logs:
        try:
            await asyncio.gather(*(game.open(transport, Path(logs)) for game in games))
            await asyncio.gather(*(game.play() for game in games))
        finally:
            # Shielded, so that an interrupt (a cancelled task) still ends every bot.
            closing = asyncio.gather(*(game.close() for game in games), return_exceptions=True)
            await asyncio.shield(closing)
            await transport.aclose()
    for game in games:
        tally.requests += setting.requests
        tally.ok += game.ok
        tally.faults.update(game.faults)
        tally.walls += game.walls()
        tally.charged += game.charged
        if game.cpu_per_request is not None:
            tally.bot_cpu.append(game.cpu_per_request)
    tally.per_trial.append(sum(sum(game.faults.values()) for game in games))


async def fault_runs(
    levels: list[int], trials: int, settings: dict[Mode, FaultSetting]
) -> dict[tuple[int, Mode], Tally]:
    tallies = {(c, mode): Tally() for c in levels for mode in settings}
    modes = list(settings)
    for concurrency in levels:
        for trial in range(trials):
            shift = trial % len(modes)
            for mode in modes[shift:] + modes[:shift]:
                await concurrent_games(settings[mode], concurrency, tallies[concurrency, mode])
    return tallies


def report_faults(
    tallies: dict[tuple[int, Mode], Tally], trials: int, setting: FaultSetting, wall_cap: float
) -> None:
    clocks = setting.clocks
    print(
        f"Faults: bots burn {setting.burn:g} s of CPU per reply, limit {clocks.reply:g} s "
        f"+ grace {clocks.grace:g} s, cpu mode's wall cap {wall_cap:g} x; {trials} trials of "
        f"{setting.requests} requests per game; {os.cpu_count()} cores"
    )
    width = max(12, *(len("/".join(map(str, t.per_trial))) + 1 for t in tallies.values()))
    print(
        f"{'games':>5} {'clock':6}{'requests':>9}{'ok':>6}{'timeout':>8}{'wallcap':>8}"
        f"{'other':>6}  {'per trial':{width}}{'wall ms: median':>16}{'p95':>7}{'max':>7}"
        f"{'CPU ms: meter':>15}{'bot':>7}"
    )
    for (concurrency, mode), tally in tallies.items():
        timeouts = tally.faults[str(FaultKind.TIMEOUT)]
        capped = tally.faults[str(FaultKind.WALL_CAP)]
        other = sum(tally.faults.values()) - timeouts - capped
        walls = sorted(tally.walls)
        p95 = quantiles(walls, n=20, method="inclusive")[-1] if len(walls) > 1 else walls[0]
        charged = f"{median(tally.charged) * 1e3:.1f}" if tally.charged else "-"
        bot = f"{median(tally.bot_cpu) * 1e3:.1f}" if tally.bot_cpu else "-"
        per_trial = "/".join(map(str, tally.per_trial))
        print(
            f"{concurrency:>5} {mode:6}{tally.requests:>9}{tally.ok:>6}{timeouts:>8}{capped:>8}"
            f"{other:>6}  {per_trial:{width}}{median(walls) * 1e3:>16.0f}{p95 * 1e3:>7.0f}"
            f"{walls[-1] * 1e3:>7.0f}{charged:>15}{bot:>7}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["overhead", "faults", "both"], default="both")
    parser.add_argument("--trials", type=int, default=7, help="overhead trials")
    parser.add_argument("--replies", type=int, default=3000, help="round trips per trial")
    parser.add_argument(
        "--proc-replies", type=int, default=300, help="round trips per trial, /proc meter"
    )
    parser.add_argument("--fault-trials", type=int, default=3)
    parser.add_argument("--requests", type=int, default=20, help="timed requests per game")
    parser.add_argument("--concurrency", default="1,2,4,8", help="games at once, per level")
    parser.add_argument("--burn", type=float, default=0.1, help="CPU seconds per reply")
    parser.add_argument("--limit", type=float, default=0.2, help="reply limit, seconds")
    parser.add_argument("--grace", type=float, default=0.02)
    parser.add_argument("--wall-cap", type=float, default=10.0)
    args = parser.parse_args()
    if args.part in ("overhead", "both"):
        trials = [overhead_trial(args.replies, args.proc_replies, i) for i in range(args.trials)]
        report_overhead(trials, args.replies, args.proc_replies)
    if args.part == "both":
        print()
    if args.part in ("faults", "both"):
        levels = [int(c) for c in args.concurrency.split(",")]
        clocks: dict[Mode, Clocks] = {
            mode: Clocks(reply=args.limit, grace=args.grace, mode=mode, wall_cap=args.wall_cap)
            for mode in ("wall", "cpu")
        }
        settings = {mode: FaultSetting(args.requests, args.burn, c) for mode, c in clocks.items()}
        tallies = asyncio.run(fault_runs(levels, args.fault_trials, settings))
        report_faults(tallies, args.fault_trials, settings["cpu"], args.wall_cap)


if __name__ == "__main__":
    main()
