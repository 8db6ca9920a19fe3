"""Whatever a bot starts ends with it: processes that left its group or session, that hid
their environment, that outlive their parent; never a process that is not a bot's.

The hostile bots are tests/bots/escaper.{py,sh,c}; each process they leave writes its pid
into a folder, so the tests know exactly which processes must be gone.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from paths import BOTS
from transport_helpers import Recorder, alive, run

from arena_kernel.processes.procfs import boot_ticks, read_stat
from arena_kernel.processes.reaper import TAG, reaper
from arena_kernel.processes.warden import Warden
from arena_kernel.sandbox import bot_cgroups
from arena_kernel.transports.stdio import StdioTransport


@pytest.fixture(scope="module")
def c_escaper(tmp_path_factory: pytest.TempPathFactory) -> str:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build tests/bots/escaper.c")
    binary = tmp_path_factory.mktemp("c") / "escaper"
    subprocess.run([compiler, "-O", "-o", str(binary), str(BOTS / "escaper.c")], check=True)
    return str(binary)


@pytest.fixture
def escaper(request: pytest.FixtureRequest, tmp_path: Path):
    """``escaper(language, mode, *flags)`` -> (argv of the hostile bot, its pid folder).
    The C bot is built only when asked for: without a compiler only its cases skip."""
    commands = {
        "python": lambda: (sys.executable, str(BOTS / "escaper.py")),
        "shell": lambda: (str(BOTS / "escaper.sh"),),
        "c": lambda: (request.getfixturevalue("c_escaper"),),
    }
    folders = itertools.count()

    def make(language: str, mode: str, *flags: str) -> tuple[tuple[str, ...], Path]:
        piddir = tmp_path / f"pids{next(folders)}"
        piddir.mkdir()
        return (*commands[language](), mode, str(piddir), *flags), piddir

    return make


def pids(piddir: Path, role: str) -> list[int]:
    return [int(p.suffix[1:]) for p in piddir.glob(f"{role}.*")]


async def until_noted(piddir: Path, *roles: str) -> dict[str, int]:
    """Wait until each role's process wrote its pid file; role -> pid."""
    async with asyncio.timeout(10):
        while not all(pids(piddir, role) for role in roles):
            await asyncio.sleep(0.01)
    return {role: pids(piddir, role)[0] for role in roles}


async def playing(argv: tuple[str, ...], make_launch, piddir: Path, *roles: str):
    """Start the bot, play one move with it, wait for what it leaves; (conn, role -> pid)."""
    conn = await StdioTransport().connect(make_launch(argv))
    rec = Recorder()
    conn.start(rec.on_data, rec.on_closed)
    conn.write(b"move 5\n")
    await rec.received(b"take 1\n")
    return conn, await until_noted(piddir, "leader", *roles)


ESCAPES = [
    (language, mode, role)
    for language in ("python", "shell", "c")
    for mode, role in (("setsid", "setsid"), ("double-fork", "grandchild"))
]


@pytest.mark.parametrize(("language", "mode", "role"), ESCAPES)
def test_a_process_that_left_the_bots_group_ends_with_the_bot(
    language, mode, role, escaper, make_launch, no_leftover_processes
):
    argv, piddir = escaper(language, mode)

    async def main():
        conn, found = await playing(argv, make_launch, piddir, role)
        left = read_stat(found[role])
        assert left is not None and not left.dead
        assert left.pgid != conn.pid and left.session != conn.pid, "it did escape"
        if mode == "double-fork":
            assert left.ppid == os.getpid(), "orphaned mid-game, it was re-parented to us"
        await conn.close()
        assert not alive(found[role])
        assert not alive(found["leader"])

    run(main())
    no_leftover_processes()


@pytest.mark.parametrize("language", ["python", "shell"])
def test_a_process_with_an_emptied_environment_ends_once_no_bot_could_own_it(
    language, escaper, make_launch, no_leftover_processes
):
    """It carries no tag, so it cannot be tied to its bot: it is ended as soon as no bot
    that could own it is running (here, at once), by the mark every bot process keeps."""
    argv, piddir = escaper(language, "hidden")

    async def main():
        conn, found = await playing(argv, make_launch, piddir, "hidden")
        assert TAG not in Path(f"/proc/{found['hidden']}/environ").read_bytes().decode()
        await conn.close()
        assert not alive(found["hidden"])

    run(main())
    no_leftover_processes()


def test_a_hidden_process_ends_with_the_bots_that_ran_when_it_started(
    escaper, make_launch, no_leftover_processes
):
    """A bot started after a hidden process was born cannot own it: that bot still playing
    does not keep it alive once the bots of its time have ended."""
    argv_hider, piddir_hider = escaper("shell", "hidden")
    argv_later, piddir_later = escaper("python", "setsid")

    async def main():
        conn_hider, hider = await playing(argv_hider, make_launch, piddir_hider, "hidden")
        await asyncio.sleep(0.05)  # the later bot starts clock ticks after the hidden one
        conn_later, later = await playing(argv_later, make_launch, piddir_later, "setsid")
        await conn_hider.close()
        assert not alive(hider["hidden"]), "only the later bot plays, which cannot own it"
        assert alive(later["setsid"]) and alive(later["leader"])
        await conn_later.close()

    run(main())
    no_leftover_processes()


@pytest.mark.parametrize("cgroups", [True, False], ids=["cgroups", "tags-only"])
def test_leftovers_end_with_their_own_bot_only_and_strangers_are_never_touched(
    cgroups, escaper, make_launch, no_leftover_processes, tmp_path, monkeypatch
):
    """Two bots play at once (two games): ending one ends its leftovers, not the other's.
    A hidden process (no tag) is known by its bot's cgroup and ends with it; without one,
    it waits for every bot that might own it. Children of ours that are no bot's (a plain
    child, an orphan re-parented to us) outlive both."""
    if not cgroups:
        monkeypatch.setattr(bot_cgroups, "RUN", ())
    elif bot_cgroups.warden_cgroup() is None:
        pytest.skip("no cgroup arena may create here")
    argv_a, piddir_a = escaper("python", "setsid")
    argv_b, piddir_b = escaper("python", "setsid")
    argv_c, piddir_c = escaper("shell", "hidden")
    child = subprocess.Popen(["sleep", "60"], start_new_session=True)
    orphan_pid = int(
        subprocess.run(
            ["sh", "-c", "setsid sleep 60 >/dev/null 2>&1 & echo $!"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    strangers = [child.pid, orphan_pid]

    async def main():
        conn_a, a = await playing(argv_a, make_launch, piddir_a, "setsid")
        conn_b, b = await playing(argv_b, make_launch, piddir_b, "setsid")
        conn_c, c = await playing(argv_c, make_launch, piddir_c, "hidden")
        assert read_stat(orphan_pid).ppid == os.getpid()
        await conn_a.close()
        assert not alive(a["setsid"])
        assert alive(b["setsid"]) and alive(b["leader"]), "another game's bot is untouched"
        await conn_c.close()
        if cgroups:
            assert not alive(c["hidden"]), "its cgroup says it is c's"
        else:
            assert alive(c["hidden"]), "b still plays, and might own it"
        await conn_b.close()
        assert not alive(b["setsid"]) and not alive(c["hidden"])
        assert all(map(alive, strangers))

    try:
        run(main())
    finally:
        for pid in strangers:
            os.kill(pid, signal.SIGKILL)
        child.wait()
    no_leftover_processes()


@pytest.mark.parametrize("marked", [True, False], ids=["no_new_privs", "arena-no_new_privs"])
def test_a_leftover_that_exits_by_itself_is_reaped(marked, escaper, make_launch, monkeypatch):
    """Re-parented to the arena, a bot's process that exits is the arena's zombie to reap,
    or zombies pile up over a long run. Its environment is gone: it is known by its
    no_new_privs, or, where the arena itself runs with it, by a session of its own."""
    reaper.new_tag()  # the first start decides whether the mark can be used; now decided
    monkeypatch.setattr(reaper, "_marked", marked)
    argv, piddir = escaper("python", "quick-orphan")

    async def main():
        conn, found = await playing(argv, make_launch, piddir, "grandchild")
        async with asyncio.timeout(10):
            while alive(found["grandchild"]):
                await asyncio.sleep(0.01)
        stat = read_stat(found["grandchild"])
        assert stat is not None and stat.dead and stat.ppid == os.getpid()
        await conn.close()
        assert read_stat(found["grandchild"]) is None

    run(main())


ORPHANED_BOT = """
    import asyncio, sys
    from pathlib import Path
    from arena_kernel.resource_limits import ResourceLimits
    from arena_kernel.transports.base import BotProgram, Launch
    from arena_kernel.codecs.line import LineCodec
    from arena_kernel.transports.stdio import StdioTransport
    {warden}

    async def main():
        launch = Launch(BotProgram("x", argv=tuple(sys.argv[1:])), LineCodec(), "x",
                        ResourceLimits(), Path({logs!r}), 5.0, 0.5)
        {start_warden}
        conn = await StdioTransport().connect(launch)
        print(conn.pid, flush=True)
        await asyncio.sleep(120)

    asyncio.run(main())
"""


def arena_stand_in(tmp_path: Path, argv: tuple[str, ...], *, warden: bool) -> subprocess.Popen:
    """A process that starts one bot the way the arena does, then waits to be killed."""
    source = ORPHANED_BOT.format(
        logs=str(tmp_path / "logs"),
        warden="from arena_kernel.processes.warden import Warden" if warden else "",
        start_warden="Warden.start()" if warden else "",
    )
    script = tmp_path / "arena_stand_in.py"
    script.write_text(textwrap.dedent(source))
    return subprocess.Popen(
        [sys.executable, str(script), *argv], stdout=subprocess.PIPE, start_new_session=True
    )


def gone_within(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := [p for p in pids if alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


@pytest.mark.parametrize("language", ["python", "c"])
def test_a_bot_dies_with_the_arena_by_its_parent_death_signal(
    language, escaper, tmp_path, no_leftover_processes
):
    """No warden here: the bot ignores the end of its input and SIGTERM, and only its
    parent-death signal can end it when the arena is SIGKILLed."""
    argv, piddir = escaper(language, "none", "--ignore-eof")
    arena = arena_stand_in(tmp_path, argv, warden=False)
    try:
        assert arena.stdout is not None
        leader = int(arena.stdout.readline())
        # Running the bot's own code, it is past setpriv, which set the signal: a bot that
        # the arena's death catches earlier is the warden's (see the next test).
        assert asyncio.run(until_noted(piddir, "leader")) == {"leader": leader}
    finally:
        arena.kill()
        arena.wait()
    assert gone_within([leader], 10) == []
    no_leftover_processes()


def test_the_warden_ends_what_the_bot_left_when_the_arena_dies(
    escaper, tmp_path, no_leftover_processes
):
    """The parent-death signal ends only the bot's leader; its setsid child, re-parented
    to us when the arena dies, is the warden's to find by its tag."""
    argv, piddir = escaper("shell", "setsid", "--ignore-eof")
    arena = arena_stand_in(tmp_path, argv, warden=True)
    try:
        assert arena.stdout is not None
        leader = int(arena.stdout.readline())
        found = asyncio.run(until_noted(piddir, "setsid"))
        assert alive(leader) and alive(found["setsid"])
    finally:
        arena.kill()
        arena.wait()
    assert gone_within([leader, found["setsid"]], 10) == []
    no_leftover_processes()


def test_the_warden_leaves_everything_alone_at_the_end_of_a_normal_run():
    """At a normal end the warden exits without killing: another run in the same process
    may still have bots, carrying the same token."""
    tagged = subprocess.Popen(
        ["sleep", "60"], env={TAG: f"{reaper.token}-999999", "PATH": os.defpath}
    )

    async def main():
        warden = Warden.start()
        assert alive(warden.pid)
        await warden.stop()
        assert read_stat(warden.pid) is None, "exited and reaped"

    try:
        run(main())
        assert alive(tagged.pid)
    finally:
        tagged.kill()
        tagged.wait()


def test_the_start_a_sweep_keeps_for_a_bot_is_never_later_than_its_real_start() -> None:
    """The reaper keeps a bot's start without reading ``/proc`` (a bound taken before the
    start): sweeps compare it with the starts ``/proc`` gives other processes, and an
    earlier bound would only spare a process a moment longer, never end one wrongly."""
    for _ in range(50):
        before = boot_ticks()
        child = subprocess.Popen(["true"])
        started = read_stat(child.pid)
        child.wait()
        assert started is not None and before <= started.started
