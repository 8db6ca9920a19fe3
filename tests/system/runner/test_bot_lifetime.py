"""Whole runs with bots that try to outlive their games, in Python and in shell, over stdio
and TCP: each run completes, and no process of the run is alive afterwards, whatever
happens to arena (its end, Ctrl-C or SIGTERM at any moment, kill -9).

Every process the hostile bots (tests/bots/escaper.*) start writes a pid file; every bot
of a run also carries an environment variable with a value of the test's own (LEAK_PROBE),
which a process keeps unless it empties its environment. A process of the run still
alive is found by either, and also by ``no_leftover_processes`` (our descendants).

The escapers run unsandboxed (``UNSANDBOXED``): these tests prove arena's own process
control, which is what holds where bubblewrap does not, and they need the escapers' pid
files. In a sandbox the bot's PID namespace ends them all (tests/system/sandbox).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from paths import BOTS, REPO
from plugin_modules import games_plugin

from arena_kernel.codecs.line import LineCodec
from arena_kernel.executors.lineup import Lineup, close_all
from arena_kernel.processes.procfs import read_stat, with_environ
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.table import Table
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.runner.api import prepare, run_match
from arena_kernel.runner.run import Runner
from arena_kernel.store import Store
from arena_kernel.testing.rps import Rps
from arena_kernel.transports.base import BotProgram, Launch
from arena_kernel.transports.stdio import StdioTransport

ESCAPERS = {
    "python": (sys.executable, str(BOTS / "escaper.py")),
    "shell": (str(BOTS / "escaper.sh"),),
}
PROBE = "LEAK_PROBE"
UNSANDBOXED = '[sandbox]\nmode = "none"\n'
ARENA = (sys.executable, "-m", "arena_kernel.cli.main", "run", "--quiet")


def living(pid: int) -> bool:
    stat = read_stat(pid)
    return stat is not None and not stat.dead


class Hostiles:
    """The hostile bots of one test, its probe, and what they left."""

    def __init__(self, folder: Path) -> None:
        self.probe = uuid.uuid4().hex
        self.piddir = folder / "pids"
        self.piddir.mkdir()

    def bot(self, name: str, language: str, mode: str, *flags: str) -> str:
        """A ``[[bots]]`` table for an escaper."""
        argv = [*ESCAPERS[language], mode, str(self.piddir), *flags]
        return self.table(name, f"cmd = {json.dumps(argv)}")

    def table(self, name: str, body: str) -> str:
        return f'[[bots]]\nname = "{name}"\n{body}\nenv = {{ {PROBE} = "{self.probe}" }}\n'

    def noted(self, role: str = "*") -> list[int]:
        return [int(note.suffix[1:]) for note in self.piddir.glob(f"{role}.*")]

    def alive(self) -> list[str]:
        """Every process of the run still alive, with its command line."""
        pids = {stat.pid for stat in with_environ(PROBE, self.probe.__eq__)}
        pids |= {pid for pid in self.noted() if living(pid)}
        return [f"{pid}: {Path(f'/proc/{pid}/cmdline').read_bytes()!r}" for pid in sorted(pids)]

    def alive_after(self, seconds: float) -> list[str]:
        deadline = time.monotonic() + seconds
        while (left := self.alive()) and time.monotonic() < deadline:
            time.sleep(0.05)
        return left


@pytest.fixture
def hostiles(tmp_path: Path) -> Hostiles:
    return Hostiles(tmp_path)


def tcp_flags(transport: str) -> tuple[str, ...]:
    return ("--tcp",) if transport == "tcp" else ()


@pytest.mark.parametrize("transport", ["stdio", "tcp"])
@pytest.mark.parametrize("language", ["python", "shell"])
@pytest.mark.parametrize(
    ("mode", "role"), [("setsid", "setsid"), ("double-fork", "grandchild"), ("hidden", "hidden")]
)
def test_what_a_bot_leaves_behind_ends_with_the_run(
    mode, role, language, transport, write_match, hostiles, no_leftover_processes
):
    path = write_match(
        f"""
        game = "nim"
        transport = "{transport}"
        concurrency = 2
        """
        + hostiles.bot("escaper", language, mode, *tcp_flags(transport))
        + '[[bots]]\nname = "optimal"\nbuiltin = "optimal"\ninproc = true\n'
        + UNSANDBOXED
    )
    summary = run_match(path)
    assert summary.played == 2 and summary.errors == []
    with Store(summary.run.database) as store:
        for game in store.results(summary.run.run_id):
            assert not store.game(game.game_id).faults, "it plays by the rules"
    assert len(hostiles.noted(role)) == 2, "each game's bot left one"
    assert hostiles.alive() == []
    no_leftover_processes()


@pytest.mark.parametrize("transport", ["stdio", "tcp"])
def test_bots_that_ignore_the_end_of_their_input_die_with_a_killed_arena(
    transport, write_match, hostiles, no_leftover_processes
):
    flags = ("--ignore-eof", "--mute", *tcp_flags(transport))
    path = write_match(
        f"""
        game = "nim"
        transport = "{transport}"
        concurrency = 2
        [clock]
        startup = 60
        reply = 60
        """
        + hostiles.bot("python", "python", "setsid", *flags)
        + hostiles.bot("shell", "shell", "double-fork", *flags)
        + UNSANDBOXED
    )
    arena = subprocess.Popen([*ARENA, str(path)], start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while len(hostiles.noted()) < 8 and time.monotonic() < deadline:
            time.sleep(0.02)  # 2 games, each: 2 leaders, a setsid child and a grandchild
        assert len(hostiles.noted()) == 8 and arena.poll() is None, "both games are on"
    finally:
        arena.kill()
        arena.wait()
    assert hostiles.alive_after(15) == []
    no_leftover_processes()


def test_a_second_interrupt_does_not_cut_the_ending_of_bots_short(
    write_match, hostiles, no_leftover_processes
):
    """Bots that ignore SIGTERM take their whole kill grace (2 s) to end: a second Ctrl-C
    meanwhile (asyncio's own handling would cancel the ending) changes nothing."""
    path = write_match(
        """
        game = "nim"
        concurrency = 2
        [clock]
        startup = 60
        reply = 60
        kill = 2
        """
        + hostiles.bot("python", "python", "setsid", "--ignore-eof", "--mute")
        + hostiles.bot("shell", "shell", "setsid", "--ignore-eof", "--mute")
        + UNSANDBOXED
    )
    arena = subprocess.Popen(
        [*ARENA, str(path)], stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    deadline = time.monotonic() + 30
    while len(hostiles.noted()) < 8 and time.monotonic() < deadline:
        time.sleep(0.02)
    if len(hostiles.noted()) < 8 or arena.poll() is not None:
        arena.kill()
        arena.wait()
        pytest.fail("both games were to be on before the first SIGINT")
    arena.send_signal(signal.SIGINT)
    time.sleep(0.3)
    assert arena.poll() is None, "still ending its bots"
    arena.send_signal(signal.SIGINT)
    _, errors = arena.communicate(timeout=60)
    assert arena.returncode == 130
    assert "Traceback" not in errors
    assert hostiles.alive() == []
    no_leftover_processes()


def _interrupt_leaks():
    path = REPO / "benchmarks" / "interrupt_leaks.py"
    spec = importlib.util.spec_from_file_location("interrupt_leaks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("transport", ["stdio", "tcp"])
@pytest.mark.parametrize("delay", [0.0, 0.35, 0.8])
def test_an_interrupt_at_any_moment_of_the_launches_leaves_no_process(
    delay, transport, sig, tmp_path, no_leftover_processes
):
    """benchmarks/interrupt_leaks.py does this many more times, at random moments."""
    leaks = _interrupt_leaks()
    trial = leaks.interrupted_run(tmp_path, leaks.Trial(transport, sig, delay))
    assert trial.leaks == []
    assert trial.exit_code in (0, 130), "interrupted (or already done), never a crash"
    no_leftover_processes()


@pytest.mark.parametrize("steps", range(3))
@pytest.mark.parametrize("transport", ["stdio", "tcp"])
def test_connecting_cancelled_at_any_step_closes_what_it_opened(
    steps, transport, write_match, hostiles, no_leftover_processes
):
    """Cancelled after 0, 1, 2... turns of the event loop: before any bot started, with all
    started but not yet handed over (what used to leak), or anywhere in a TCP launch (where
    one bot never connects, so that the others' launches, done or not, are cut short)."""
    bots = "".join(
        hostiles.bot(f"escaper{n}", "python", "setsid", *tcp_flags(transport)) for n in range(3)
    )
    if transport == "tcp":
        bots += hostiles.table("silent", 'cmd = ["sleep", "60"]')
    else:
        bots += hostiles.bot("escaper3", "python", "setsid")
    path = write_match(f'game = "nim"\ntransport = "{transport}"\nseats = 4\n' + bots)
    prepared = prepare(path)
    names = [bot.name for bot in prepared.spec.bots]

    async def main() -> None:
        with Store(prepared.spec.database) as store:
            runner = Runner(prepared.spec, prepared.registries, store, prepared.pm)
            lineup = Lineup(runner.match)
            connecting = asyncio.ensure_future(lineup.connect(names, path.parent / "logs"))
            for _ in range(steps):
                await asyncio.sleep(0.05 if transport == "tcp" else 0)
            connecting.cancel()
            try:
                await connecting
            except asyncio.CancelledError:
                pass
            else:
                await close_all(connecting.result())  # no leak into later tests either
                pytest.fail("cancelled too late: it had handed its channels over")
            finally:
                await lineup.aclose()

    asyncio.run(main())
    assert hostiles.alive() == []
    no_leftover_processes()


def test_ending_a_game_completes_however_often_its_task_is_cancelled(
    hostiles, tmp_path, no_leftover_processes
):
    """A stopping run cancels its workers, which may be ending a game's bots already: the
    ending must not stop half-way (the bot here ignores SIGTERM, so it takes its grace)."""
    argv = (*ESCAPERS["python"], "setsid", str(hostiles.piddir), "--ignore-eof")
    launch = Launch(
        BotProgram("stubborn", argv=argv),
        LineCodec(),
        "0-stubborn",
        ResourceLimits(),
        tmp_path,
        5,
        0.5,
    )

    async def main() -> None:
        connection = await StdioTransport().connect(launch)
        channel = Channel("stubborn", "0-stubborn", connection, LineCodec())
        async with asyncio.timeout(10):
            while len(hostiles.noted()) < 2:
                await asyncio.sleep(0.01)
        ending = asyncio.ensure_future(close_all([channel]))
        for _ in range(3):
            await asyncio.sleep(0.05)
            ending.cancel()
        with pytest.raises(asyncio.CancelledError):
            await ending
        assert hostiles.alive() == [], "cancelled, yet it waited until the bot was gone"

    asyncio.run(main())
    no_leftover_processes()


@pytest.mark.parametrize("game", ["nim", "quiet-session"])
def test_quiet_bots_leave_no_log_folders(game, write_match, tmp_path) -> None:
    """In-process bots and programs that write nothing on stderr: no folder per game, nor
    per session when a session says nothing outside its games."""
    path = write_match(
        f"""
        game = "{game}"
        rounds = 2
        [[bots]]
        name = "inproc"
        builtin = "random"
        inproc = true
        [[bots]]
        name = "program"
        builtin = "random"
        """
    )
    summary = run_match(path, [games_plugin(QuietSession)])
    assert summary.played == 4 and summary.errors == []
    assert [p for p in (tmp_path / "logs").rglob("*") if p.is_dir()] == []


class QuietSession(Rps):
    """Rock-paper-scissors without the farewell: nothing is said outside the games."""

    name = "quiet-session"

    async def close_session(self, table: Table, session: None) -> None:
        pass


def test_only_games_with_a_bot_that_wrote_to_stderr_have_a_log_folder(
    write_match, scripted_bot, tmp_path
) -> None:
    noisy = scripted_bot([{"stderr": "thinking\n", "reply": "take 1"}], only="move")
    path = write_match(
        f"""
        game = "nim"
        [[bots]]
        name = "noisy"
        cmd = {json.dumps(noisy)}
        [[bots]]
        name = "quiet"
        builtin = "optimal"
        [[bots]]
        name = "silent"
        builtin = "random"
        inproc = true
        """
    )
    summary = run_match(path)
    assert summary.played == 6 and summary.errors == []
    with Store(summary.run.database) as store:
        for game in store.results(summary.run.run_id):
            folder = tmp_path / "logs" / f"run-{summary.run.run_id}" / f"game-{game.index}"
            logs = store.game(game.game_id).stderr_logs
            if "noisy" in game.seating:
                seat = game.seating.index("noisy")
                assert logs == {seat: str(folder / f"{seat}-noisy.stderr")}
                assert Path(logs[seat]).read_text().startswith("thinking\n")
                assert sorted(p.name for p in folder.iterdir()) == [f"{seat}-noisy.stderr"]
            else:
                assert logs == {} and not folder.exists()
