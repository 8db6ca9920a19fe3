"""A bot's cgroups with real processes: a memory cap on all of its processes together, a CPU
share equal to every other bot's however many processes burn it, the out-of-memory
killer's first pick, the run cgroup the warden empties when arena is killed, the ending of
every process of a cgroup; and what ``arena doctor`` tells an ordinary user without them.

Each test skips where this machine lets arena make no such cgroup. The hostile bots stay
harmless where nothing stops them: 4 children of 40 MiB, 6 burning processes, a daemon
that sleeps; each ends by itself within a minute, sends no signal and uses no network.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest
from as_user import UserArena

from arena_kernel.codecs.line import LineCodec
from arena_kernel.model import FaultKind
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.sandbox.bot_cgroups import MEMORY, WEIGHT, warden_cgroup
from arena_kernel.sandbox.cgroup_kill import empty, members
from arena_kernel.sandbox.cgroups import (
    V2,
    join_command,
    mount_points,
    new_cgroup,
    offering,
    run_cgroup,
)
from arena_kernel.testkit import run_match, stored_games
from arena_kernel.transports.base import BotProgram, Connection, Launch
from arena_kernel.transports.stdio import StdioTransport

ARENA = (sys.executable, "-m", "arena_kernel.cli.main", "run", "--quiet")


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


GREEDY = """
import os, sys, time
children = []
for _ in range(4):
    child = os.fork()
    if child == 0:
        block = bytearray(40 << 20)
        for page in range(0, len(block), 4096):
            block[page] = 1
        time.sleep(20)
        os._exit(0)
    children.append(child)
os.wait()
sys.exit(3)
"""
"""A bot of 4 processes of 40 MiB each, which each pass no per-process limit of 100 MiB;
it exits as soon as one of them ends (else after 20 s), before its first reply."""


@pytest.mark.parametrize("mode", ["none", "required"])
def test_a_bot_whose_processes_together_pass_memory_mb_is_a_memory_fault(
    mode, write_match, tmp_path, request
):
    if offering(MEMORY) is None:
        pytest.skip("no memory cgroup arena may create here")
    if mode == "required":
        request.getfixturevalue("sandbox")
    bot = tmp_path / "greedy"
    bot.mkdir()
    (bot / "greedy.py").write_text(GREEDY)
    path = write_match(
        f"""
        game = "nim"
        [limits]
        memory_mb = 100
        [clock]
        startup = 60
        [sandbox]
        mode = "{mode}"
        [[bots]]
        name = "greedy"
        cmd = {json.dumps([sys.executable, "greedy.py"])}
        cwd = "{bot}"
        [[bots]]
        name = "optimal"
        builtin = "optimal"
        inproc = true
        """
    )
    summary = run_match(path)
    assert summary.played == 2 and summary.errors == []
    for _result, detail, _events in stored_games(summary):
        (fault,) = detail.faults
        assert fault.kind is FaultKind.MEMORY, fault
        assert "out-of-memory killer" in fault.detail
        assert fault.detail.endswith("its processes together passed memory_mb = 100 MiB")


BURNER = """
import os, sys, time
end, leader, worker = time.monotonic() + 30, os.getpid(), False
for _ in range(int(sys.argv[1]) - 1):
    if os.fork() == 0:
        os.setsid()  # a session of its own: a scheduler autogroup of its own
        worker = True
        break
while time.monotonic() < end and (not worker or os.getppid() == leader):
    pass
"""
"""A bot of N processes that burn CPU for 30 s at most (a worker stops as soon as its
bot's leader is gone)."""


def launch(tmp_path: Path, argv: tuple[str, ...], identifier: str) -> Launch:
    """A bot on a CPU-time clock, so that its connection offers its CPU time."""
    return Launch(
        program=BotProgram(identifier, argv=argv),
        codec=LineCodec(),
        identifier=identifier,
        limits=ResourceLimits(),
        log_dir=tmp_path / "logs",
        startup=10.0,
        kill_grace=0.5,
        cpu_clock=True,
    )


def test_a_bot_of_many_burning_processes_gets_one_bots_share_of_the_cpu(tmp_path):
    """Measured by the CPU time the kernel charged each bot, over the same second: with a
    core each at most, a single process beside six would get a seventh of the machine
    without a weight per bot; with it, about half (the measure allows much less)."""
    if offering(WEIGHT) is None:
        pytest.skip("no cpu cgroup arena may create here")
    script = tmp_path / "burner.py"
    script.write_text(BURNER)

    async def main() -> tuple[float, float]:
        connections: list[Connection] = []
        try:
            for workers in (6, 1):
                argv = (sys.executable, str(script), str(workers))
                bot = launch(tmp_path, argv, f"burner{workers}")
                connections.append(await StdioTransport().connect(bot))
            meters = [c.cpu_meter for c in connections]
            assert all(meters)
            await asyncio.sleep(1.0)  # all started and burning
            before = [m.seconds() for m in meters]
            await asyncio.sleep(2.0)
            after = [m.seconds() for m in meters]
            return after[0] - before[0], after[1] - before[1]
        finally:
            for connection in connections:
                await connection.close()

    many, one = run(main())
    assert one > 0.3 * many, f"the single process had {one:.2f} s, the six {many:.2f} s"


DAEMON = """
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        hide = "import time; time.sleep(60)"
        os.execve(sys.executable, [sys.executable, "-c", hide, sys.argv[1] + "-daemon"], {})
    os._exit(0)
os.wait()
time.sleep(60)
"""
"""A bot that never answers and leaves a daemon (a double fork) with an emptied
environment, which sleeps for a minute; its command line carries the mark the test hands
the bot, and ``-daemon``, by which the test finds it."""


def marked(mark: str) -> list[int]:
    """The processes whose command line carries ``mark``."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and mark in Path(f"/proc/{entry}/cmdline").read_text():
                found.append(int(entry))
        except OSError:
            pass
    return [pid for pid in found if alive(pid)]


def test_a_killed_arenas_daemon_with_an_emptied_environment_is_ended_by_the_warden(
    write_match, tmp_path
):
    """``kill -9`` of a real ``arena run``: its warden empties the run's cgroup, where the
    daemon is though no tag says whose it is."""
    if warden_cgroup() is None:
        pytest.skip("no cgroup arena may create here: the warden finds bots by their tag only")
    mark = f"arena-test-daemon-{secrets.token_hex(4)}"
    (tmp_path / "daemon.py").write_text(DAEMON)
    path = write_match(
        f"""
        game = "nim"
        [clock]
        startup = 60
        [sandbox]
        mode = "none"
        [[bots]]
        name = "daemon"
        cmd = {json.dumps([sys.executable, str(tmp_path / "daemon.py"), mark])}
        [[bots]]
        name = "optimal"
        builtin = "optimal"
        inproc = true
        """
    )
    arena = subprocess.Popen([*ARENA, str(path)], start_new_session=True)
    daemons: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while not daemons and time.monotonic() < deadline:
            time.sleep(0.05)
            daemons = marked(f"{mark}-daemon")
        assert daemons and arena.poll() is None, "a game is on, its bot's daemon started"
        for daemon in daemons:
            assert Path(f"/proc/{daemon}/environ").read_bytes() == b"", "it hid its tag"
    finally:
        arena.kill()
        arena.wait()
    try:
        deadline = time.monotonic() + 20
        while any(map(alive, daemons)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(alive, daemons)), "the warden ended them"
    finally:
        for pid in marked(f"{mark}-daemon"):
            os.kill(pid, 9)  # what the test started, should it have survived


FORKER = """
import os, time
for _ in range(2):
    if os.fork() == 0:
        break
time.sleep(30)
"""
"""Three processes that sleep for 30 s."""


@pytest.mark.parametrize("hierarchy", [V2, "freezer", "memory"], ids=["v2", "freezer", "memory"])
def test_every_process_of_a_cgroup_is_ended(hierarchy, no_leftover_processes):
    """By cgroup v2's ``cgroup.kill``, or one by one: frozen first in v1's freezer, as
    they come in a hierarchy that cannot freeze."""
    run_in = run_cgroup(hierarchy)
    if run_in is None:
        pytest.skip(f"no cgroup arena may create in the {hierarchy or 'v2'} hierarchy here")
    cgroup = new_cgroup(run_in)
    forker = subprocess.Popen([*join_command([cgroup]), sys.executable, "-c", FORKER])
    try:
        deadline = time.monotonic() + 10
        while len(members(cgroup)) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(members(cgroup)) == 3
        assert empty([cgroup], time.monotonic() + 10)
        assert members(cgroup) == []
        assert forker.wait(10) == -9
    finally:
        forker.kill()
        forker.wait()
        cgroup.rmdir()
    no_leftover_processes()


LOOKER = """
import sys
print(open("/proc/self/oom_score_adj").read().strip(), open("/proc/self/cgroup").read(), flush=True)
sys.stdin.read()
"""


def test_a_bot_is_the_oom_killers_first_pick_and_its_cgroups_go_with_it(tmp_path):
    if warden_cgroup() is None:
        pytest.skip("no cgroup arena may create here")
    script = tmp_path / "looker.py"
    script.write_text(LOOKER)

    async def main() -> tuple[str, str]:
        connection = await StdioTransport().connect(
            launch(tmp_path, (sys.executable, str(script)), "looker")
        )
        said = bytearray()
        connection.start(said.extend, lambda _: None)
        try:
            async with asyncio.timeout(30):
                while said.count(b"\n") < 2:
                    await asyncio.sleep(0.02)
        finally:
            await connection.close()
        score, cgroups = said.decode().split(" ", 1)
        return score, cgroups

    score, cgroups = run(main())
    assert score == "1000"
    mounts = mount_points()
    joined = [
        mounts[controllers.split(",")[0] if controllers else V2] / path.lstrip("/")
        for _, controllers, path in (line.split(":", 2) for line in cgroups.split())
        if "/arena-" in path
    ]
    assert joined, "it was in cgroups of this arena's"
    assert all(path.name.startswith("bot-") and not path.exists() for path in joined)


def test_doctor_tells_an_ordinary_user_what_holds_without_cgroups() -> None:
    """An unprivileged arena without a delegated cgroup: each process capped alone, the
    bots found by their tag only, and its own out-of-memory score left as it was."""
    if os.geteuid() != 0:
        pytest.skip("the test runs as root to become an ordinary user")
    user = UserArena()
    try:
        done = user.arena("doctor", env={})
    finally:
        user.remove()
    found = dict(line.split(":", 1) for line in done.stdout.splitlines() if ":" in line)
    found = {label: text.strip() for label, text in found.items()}
    assert found["memory cap"].startswith("each process alone (RLIMIT_DATA): no memory cgroup")
    assert found["cpu share"].startswith("per process: no cpu cgroup arena may create")
    assert found["out of memory"] == (
        "bots first (oom_score_adj 1000); arena keeps its own, as only root may lower it"
    )
    assert found["arena killed"].startswith("its bots are found by their tag (ARENA_TAG) only")
