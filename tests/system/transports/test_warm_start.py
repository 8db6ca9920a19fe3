"""Arena's own Python bots started warm: forked from a parent that imported them, inside
the bot's sandbox, and confined as a cold start is (its user, its system-call filter,
``no_new_privs``, its own limits, process group, cgroups); its exit and its stderr as a
cold bot's; nothing of it left after the run, nor after the arena is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from arena_kernel.runner.api import run_match
from arena_kernel.sandbox.uids import FIRST
from arena_kernel.store import Store

SERVER = "arena_kernel.bots.forkserver"

FACTS = """
game = "facts_nim"
plugins = ["confinement_game"]
games = 3
concurrency = 1
[limits]
cpu_seconds = 7
[sandbox]
mode = "required"
[[bots]]
name = "one"
builtin = "optimal"
[[bots]]
name = "two"
builtin = "random"
"""


def test_a_builtin_bot_is_forked_warm_in_its_sandbox_and_confined_as_a_cold_one(
    write_match: Callable[..., Path], no_leftover_processes: Callable[..., None]
) -> None:
    summary = run_match(write_match(FACTS))
    assert summary.played == 3 and not summary.errors
    with Store(summary.run.database) as store:
        games = store.games(summary.run.run_id)
    ours = {name: os.readlink(f"/proc/self/ns/{name}") for name in ("net", "pid", "mnt")}
    seen: dict[str, list[dict[str, object]]] = {"one": [], "two": []}
    for game in games:
        assert not game.faults, game.faults
        pids = game.details["pids"]
        for seat, (fact, pid) in enumerate(zip(game.details["facts"], pids, strict=True)):
            assert fact["parent"][:4] == [sys.executable, "-P", "-m", SERVER], "warm"
            assert fact["uid"] >= FIRST, "a user of its own"
            assert (fact["seccomp"], fact["no_new_privs"]) == (2, 1)
            assert fact["cpu_limit"] == "7", "its own CPU-time limit"
            assert fact["group"] == fact["session"] == pid, "its own process group and session"
            for name, inode in ours.items():
                assert fact["namespaces"][name] != inode, f"its {name} namespace is not ours"
            assert fact["cgroups"] != fact["parent_cgroups"], "cgroups of its own"
            seen[game.seating[seat]].append(fact)
    for starts in seen.values():
        assert len({fact["uid"] for fact in starts}) == 1, "one user per bot for the run"
        assert len({tuple(fact["cgroups"]) for fact in starts}) == len(starts), "per start"
    assert seen["one"][0]["uid"] != seen["two"][0]["uid"], "two bots, two users"
    no_leftover_processes()


def test_a_warm_bot_that_exits_is_an_exit_fault_with_its_stderr(
    write_match: Callable[..., Path],
) -> None:
    text = FACTS.replace('"facts_nim"', '"junk_nim"').replace("games = 3", "games = 1")
    path = write_match(f'startup_failures = "forfeit"\n{text}')
    summary = run_match(path)
    assert summary.played == 1
    with Store(summary.run.database) as store:
        (game,) = store.games(summary.run.run_id)
    (fault,) = game.faults
    assert (fault.kind.value, fault.seat) == ("exit", 0)
    assert "exited with status 1" in fault.detail
    log = Path(game.stderr_logs[0]).read_text()
    assert "bot: cannot answer 'move lots'" in log


STAND_IN = """
import asyncio, sys
from pathlib import Path
from arena_kernel.codecs.line import LineCodec
from arena_kernel.processes.warden import Warden
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.transports.base import BotProgram, Launch
from arena_kernel.transports.stdio import StdioTransport

async def main():
    Warden.start()
    module = "arena_kernel.testing.nim_bot"
    program = BotProgram("x", argv=(sys.executable, "-P", "-m", module, "optimal"), warm=module)
    launch = Launch(program, LineCodec(), "0-x", ResourceLimits(), Path(sys.argv[1]), 10.0, 0.5)
    transport = StdioTransport()
    connection = await transport.connect(launch)
    parent = next(iter(transport._warm.values()))
    print(connection.pid, parent.process.pid, flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


def test_a_killed_arena_takes_its_warm_bots_and_their_parent_along(
    tmp_path: Path, no_leftover_processes: Callable[..., None]
) -> None:
    script = tmp_path / "arena_stand_in.py"
    script.write_text(textwrap.dedent(STAND_IN))
    arena = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path / "logs")],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert arena.stdout is not None
        bot, parent = (int(pid) for pid in arena.stdout.readline().split())
        assert alive(bot) and alive(parent)
    finally:
        arena.send_signal(signal.SIGKILL)
        arena.communicate()
    deadline = time.monotonic() + 10
    while (alive(bot) or alive(parent)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive(bot) and not alive(parent)
    no_leftover_processes()


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"
