"""What starting one bot costs the referee, by the referee's size: how long its event loop
stalls, and how long until the bot runs.

    python benchmarks/spawn_cost.py [--starts 20] [--trials 5] [--sizes 0,400,1600]

The bot is ``/bin/echo ready``: it writes at once, so the time from the start of the start
to its first byte is the time until the bot's program runs. Four ways of starting it:

- arena, as it starts a stdio bot (``StdioTransport.connect``: ``setpriv`` and ``prlimit``
  in front of the bot, so that Python's ``subprocess`` can ``vfork``, in a worker thread),
  unsandboxed;
- arena, in a bubblewrap sandbox with its process cap (a pids cgroup where the machine
  has one), as a run on this machine starts it (left out where bwrap does not work);
- the limits set by a ``preexec_fn`` instead (which forces a full ``fork`` of the referee,
  page tables and all), on the event loop's thread: the way arena started bots before;
- a bare ``subprocess.Popen`` of the bot on the event loop's thread (``vfork``, no limits).

Where it stands (two loaded cores): the loop stalls 1 to 2 ms per start
whatever the referee's size (the preexec_fn way: 4, 30 and 80 ms at 0, 400 and 1600 MB),
and an unsandboxed bot runs 5.5 to 7 ms after its start begins (about 2 ms for a bare
``Popen``: ``setpriv`` and ``prlimit`` are two more program starts). In bubblewrap it runs
after 27 to 29 ms: on this machine's cgroup v1, moving the bot into its pids cgroup takes
about 13 ms (a ``write`` to ``cgroup.procs``; the ``favordynmods`` mount option, or cgroup
v2 with the process made in its cgroup, removes it), and bwrap's own namespaces and
mounts 7 to 11 ms (preparing a game's sandboxes before it starts would hide that).

While the bot starts, a timer of the event loop is due every millisecond; how late it
runs at worst is how long the loop stalled, during which no other game's reply was read.
The referee's size is a touched ballast of N MB; each trial makes every kind of start in
turn, and the report gives medians (and the 90th percentile of the stall).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from statistics import median, quantiles

from arena_kernel.codecs.line import LineCodec
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.sandbox.bwrap import Sandbox, private_env
from arena_kernel.sandbox.pids import pids_parent
from arena_kernel.sandbox.probe import probe
from arena_kernel.sandbox.view import View
from arena_kernel.transports.base import BotProgram, Launch
from arena_kernel.transports.stdio import StdioTransport

BOT = ("/bin/echo", "ready")

TICK = 0.001
"""The period of the timer whose lateness measures the event loop's stalls."""

Start = tuple[float, float]
"""(the event loop's longest stall, seconds until the bot's first byte)."""

Started = tuple[float, Callable[[], Awaitable[None]]]
"""A started bot: the seconds until its first byte, and how to end it."""

Starting = Callable[[], Awaitable[Started]]


def preexec_limits(limits: ResourceLimits) -> None:
    """The baseline: the same limits set by Python code between fork and exec."""
    assert limits.memory_mb is not None and limits.processes is not None
    resource.setrlimit(resource.RLIMIT_DATA, (limits.memory_mb << 20,) * 2)
    resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


async def popen_start(preexec: bool) -> Started:
    """A start by ``subprocess.Popen`` on the loop's thread, with the limits set by a
    ``preexec_fn`` or none; the first byte is awaited on the loop."""
    limits = ResourceLimits()
    loop = asyncio.get_running_loop()
    began = time.perf_counter()
    bot = subprocess.Popen(
        BOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=(lambda: preexec_limits(limits)) if preexec else None,
    )
    assert bot.stdout is not None
    first_byte = loop.create_future()
    fd = bot.stdout.fileno()
    loop.add_reader(fd, lambda: first_byte.done() or first_byte.set_result(time.perf_counter()))
    running = await first_byte - began
    loop.remove_reader(fd)

    async def end() -> None:
        assert bot.stdout is not None
        bot.wait()
        bot.stdout.close()

    return running, end


async def arena_start(logs: Path, sandbox: Sandbox | None) -> Started:
    """A start by ``StdioTransport.connect``, then the wait for the bot's first byte."""
    launch = Launch(
        BotProgram("echo", BOT), LineCodec(), "echo", ResourceLimits(), logs, 5.0, 0.5, sandbox
    )
    first_byte = asyncio.get_running_loop().create_future()

    def arrived(_: object) -> None:
        if not first_byte.done():
            first_byte.set_result(time.perf_counter())

    began = time.perf_counter()
    connection = await StdioTransport().connect(launch)
    connection.start(arrived, arrived)
    return await first_byte - began, connection.close


async def measured(starting: Starting) -> Start:
    """Start the bot while a timer is due every :data:`TICK`; its worst lateness."""
    worst = 0.0
    watching = True

    async def tick() -> None:
        nonlocal worst
        while watching:
            due = time.perf_counter() + TICK
            await asyncio.sleep(TICK)
            worst = max(worst, time.perf_counter() - due)

    ticking = asyncio.ensure_future(tick())
    await asyncio.sleep(3 * TICK)
    worst = 0.0
    running, end = await starting()
    watching = False
    stall = worst
    await ticking
    await end()
    return stall, running


def sandbox() -> Sandbox | None:
    """A sandbox as a run gives a bot here (a pids cgroup where the machine has one), or
    None where bwrap does not work."""
    found = probe()
    if not found.works or found.bwrap is None:
        print(f"no sandboxed starts: {found.describe()}")
        return None
    box = Sandbox(
        found.bwrap,
        View(folder=None),
        pids_parent=pids_parent(),
        env=private_env({}),
        syscall_filter=found.syscalls.program,
    )
    cap = "a pids cgroup" if box.pids_parent else "no cgroup"
    print(f"sandboxed starts: bwrap, {cap}, syscall filter: {found.describe_syscalls()}")
    return box


def kinds(logs: Path, box: Sandbox | None) -> dict[str, Starting]:
    found: dict[str, Starting] = {
        "arena (prlimit)": lambda: arena_start(logs, None),
        "arena, sandboxed (bwrap)": lambda: arena_start(logs, box),
        "preexec_fn (fork)": lambda: popen_start(preexec=True),
        "bare Popen of the bot": lambda: popen_start(preexec=False),
    }
    if box is None:
        del found["arena, sandboxed (bwrap)"]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20, help="starts of each kind per trial")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--sizes", default="0,400,1600", help="referee ballast sizes in MB")
    args = parser.parse_args()
    box = sandbox()
    print(f"{args.trials} trials of {args.starts} starts of each kind; milliseconds")
    print(f"{'ballast':>8}  {'kind':26} {'loop stall':>10} {'(p90)':>7} {'bot runs':>9}")
    for size in (int(s) for s in args.sizes.split(",")):
        ballast = bytearray(size << 20)
        for page in range(0, len(ballast), 4096):
            ballast[page] = 1
        with tempfile.TemporaryDirectory() as logs:
            starts = kinds(Path(logs), box)
            made: dict[str, list[Start]] = {kind: [] for kind in starts}
            for _ in range(args.trials):
                for _ in range(args.starts):
                    for kind, starting in starts.items():
                        made[kind].append(asyncio.run(measured(starting)))
        for kind, times in made.items():
            stalls = [stall * 1000 for stall, _ in times]
            running = median(r for _, r in times) * 1000
            p90 = quantiles(stalls, n=10)[-1]
            print(f"{size:>5} MB  {kind:26} {median(stalls):>10.2f} {p90:>7.2f} {running:>9.2f}")
        del ballast


if __name__ == "__main__":
    main()
