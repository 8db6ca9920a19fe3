"""The sandbox core with real bwrap: what a bot sees of the files (its folder less what is
hidden, a private copy made at its start, links kept as links, written without reaching the
organiser's folder), its exit as bwrap reports it, and a tcp bot's seat inside its own network
namespace."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from arena_kernel.codecs.line import LineCodec
from arena_kernel.errors import SetupError
from arena_kernel.model import FaultKind
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Reply, Table
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.sandbox.bwrap import Confined, Sandbox, private_env
from arena_kernel.sandbox.cgroups import offering, run_cgroup
from arena_kernel.sandbox.pids import pids_parent
from arena_kernel.sandbox.runtime import command_needs
from arena_kernel.sandbox.view import View
from arena_kernel.testkit import run_match, stored_games
from arena_kernel.transports.base import BotProgram, ConnectError, Launch
from arena_kernel.transports.stdio import StdioTransport
from arena_kernel.transports.tcp import TcpTransport


def run(coro: object) -> object:
    return asyncio.run(asyncio.wait_for(coro, 90))  # type: ignore[arg-type]


class Recorder:
    """What a connection delivered, and why it closed."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.closed: list[str] = []

    def on_data(self, data: bytes) -> None:
        self.data += data

    def on_closed(self, reason: str) -> None:
        self.closed.append(reason)


LOOK = """
import json, os, sys
def attempt(action):
    try:
        action()
        return "ok"
    except OSError as exc:
        return exc.strerror
def write(path):
    with open(path, "w") as f:
        f.write("x")
seen = {
    "folder": sorted(os.listdir(".")),
    "cache": attempt(lambda: write("cache/new")),
    "folder_write": attempt(lambda: write("new")),
    "tmp": attempt(lambda: write("/tmp/new")),
    "home": sorted(os.listdir(home)) if os.path.isdir(home := os.environ["LOOK_HOME"]) else None,
    "link": attempt(lambda: open("outside").read()),
    "cwd": os.getcwd(),
}
print(json.dumps(seen), flush=True)
"""


def sandboxed(bwrap: str, folder: Path, argv: list[str], **view: object) -> Confined:
    """``argv`` in a sandbox that shows ``folder`` (its private copy beside it)."""
    needs = command_needs(argv, folder, {"PATH": "/usr/bin"})
    box = Sandbox(bwrap, View(folder=folder, read_only=needs, **view), env=private_env({}))  # type: ignore[arg-type]
    return box.command(argv, None, folder.parent / f"{folder.name}.files")


def test_a_bot_sees_its_folder_less_what_is_hidden_as_it_was_at_its_start(tmp_path, sandbox):
    folder = tmp_path / "match"
    (folder / "cache").mkdir(parents=True)
    (folder / "logs").mkdir()
    (folder / "arena.sqlite").write_text("results")
    (folder / "bot.py").write_text(LOOK)
    secret = tmp_path / "secret"
    secret.write_text("s")
    (folder / "outside").symlink_to(secret)
    hidden = frozenset({folder / "arena.sqlite", folder / "logs"})
    argv = [sys.executable, "bot.py"]
    confined = sandboxed(sandbox.bwrap, folder, argv, hidden=hidden, read_write=(folder / "cache",))
    env = {**os.environ, "LOOK_HOME": str(Path.home())}  # not in argv: that would show it
    bot = subprocess.Popen(confined.argv, cwd=folder, env=env, stdout=subprocess.PIPE, text=True)
    (folder / "later.txt").write_text("made after the start")
    seen = json.loads(bot.communicate(timeout=60)[0])
    confined.close()
    assert seen["folder"] == ["bot.py", "cache", "outside"]
    assert seen["cache"] == "ok" and (folder / "cache" / "new").read_text() == "x"
    assert seen["folder_write"] == "ok", "its private copy"
    assert not (folder / "new").exists(), "the organiser's folder is unchanged"
    kept = tmp_path / "match.files"
    assert sorted(p.name for p in kept.iterdir()) == ["new"], "what it wrote is kept"
    assert seen["tmp"] == "ok" and not Path("/tmp/new").exists()
    home = Path.home()
    runtime = {
        p.relative_to(home).parts[0] for p in command_needs(argv, folder, {}) if home in p.parents
    }
    assert seen["home"] in (None, sorted(runtime)), "only the way to the bot's runtime"
    assert seen["link"] == "No such file or directory", "a link is not a way out"
    assert seen["cwd"] == str(folder)
    assert (folder / "arena.sqlite").read_text() == "results"


def test_a_folder_with_nothing_hidden_is_shown_whole(tmp_path, sandbox):
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text("import os; print(sorted(os.listdir('.')))")
    command = sandboxed(sandbox.bwrap, folder, [sys.executable, "bot.py"]).argv
    out = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "['bot.py']"


def test_the_private_tmp_is_capped(tmp_path, sandbox):
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "fill.py").write_text(
        textwrap.dedent(
            """
            import os
            written = 0
            try:
                with open("/tmp/fill", "wb") as f:
                    while written < 64 << 20:
                        f.write(b"x" * (1 << 20)); f.flush(); written += 1 << 20
            except OSError as exc:
                print(exc.strerror, written >> 20)
            """
        )
    )
    command = sandboxed(sandbox.bwrap, folder, [sys.executable, "fill.py"], tmp_mb=4).argv
    out = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=60)
    reason, megabytes = out.stdout.split()[:-1], int(out.stdout.split()[-1])
    assert " ".join(reason) == "No space left on device" and megabytes <= 4


# -- through the transports --------------------------------------------------------


def launch_in(tmp_path: Path, bwrap: str, argv: tuple[str, ...], **fields: object) -> Launch:
    folder = tmp_path / "bot"
    folder.mkdir(exist_ok=True)
    needs = command_needs(argv, folder, {"PATH": "/usr/bin"})
    box = Sandbox(bwrap, View(folder=folder, read_only=needs), env=private_env({}))
    launch = Launch(
        program=BotProgram("bot", argv=argv, cwd=str(folder)),
        codec=LineCodec(),
        identifier="bot",
        limits=ResourceLimits(),
        log_dir=tmp_path / "logs",
        startup=20.0,
        kill_grace=0.5,
        sandbox=box,
    )
    return replace(launch, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("source", "limits", "said"),
    [
        ("import sys; sys.exit(3)", ResourceLimits(), "exited with status 3"),
        (
            "import os, signal; os.kill(os.getpid(), signal.SIGKILL)",
            ResourceLimits(),
            "killed by SIGKILL",
        ),
        (
            "while True: pass",
            ResourceLimits(cpu_seconds=1),
            "killed by SIGXCPU (CPU time limit of 1 s exceeded)",
        ),
    ],
)
def test_a_sandboxed_bot_exit_reads_as_without_a_sandbox(tmp_path, sandbox, source, limits, said):
    script = tmp_path / "exit.py"
    script.write_text(source)
    launch = launch_in(tmp_path, sandbox.bwrap, (sys.executable, str(script)), limits=limits)

    async def main() -> list[str]:
        conn = await StdioTransport().connect(launch)
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        async with asyncio.timeout(30):
            while not rec.closed:
                await asyncio.sleep(0.02)
        await conn.close()
        return rec.closed

    assert run(main()) == [said]


TCP_BOT = """
import os, socket, sys
host, port = sys.argv[1], int(sys.argv[2])
outside = int(sys.argv[3])
with socket.create_connection((host, port)) as arena:
    try:
        socket.create_connection(("127.0.0.1", outside), timeout=2).close()
        reached = "reached"
    except OSError as exc:
        reached = exc.strerror or str(exc)
    arena.sendall(f"{os.environ['ARENA_PORT']} {reached}\\n".encode())
    arena.recv(10)
"""


@pytest.mark.parametrize("fixed_port", [0, 5533])
def test_a_sandboxed_tcp_bot_reaches_its_seat_and_nothing_else(tmp_path, sandbox, fixed_port):
    script = tmp_path / "tcp_bot.py"
    script.write_text(TCP_BOT)
    service = socket.create_server(("127.0.0.1", 0))
    service.setblocking(False)
    outside = service.getsockname()[1]
    argv = (sys.executable, str(script), "{host}", "{port}", str(outside))

    async def main() -> list[bytes]:
        transport = TcpTransport(port=fixed_port)  # no prepare(): nothing of it is used
        replies = []
        try:
            conns = await asyncio.gather(
                *(
                    transport.connect(launch_in(tmp_path, sandbox.bwrap, argv, identifier=f"b{i}"))
                    for i in range(2)
                )
            )
            for conn in conns:
                rec = Recorder()
                conn.start(rec.on_data, rec.on_closed)
                async with asyncio.timeout(30):
                    while b"\n" not in bytes(rec.data):
                        await asyncio.sleep(0.02)
                replies.append(bytes(rec.data))
                await conn.close()
        finally:
            await transport.aclose()
        return replies

    try:
        replies = run(main())
    finally:
        with pytest.raises(BlockingIOError):
            service.accept()  # nobody came through to the machine's service
        service.close()
    for reply in replies:
        port, reached = reply.decode().strip().split(" ", 1)
        assert reached == "Connection refused"
        if fixed_port:
            assert int(port) == fixed_port


def test_a_sandboxed_tcp_bot_that_never_connects_is_a_connect_error(tmp_path, sandbox):
    script = tmp_path / "mute.py"
    script.write_text("import time; time.sleep(30)")
    launch = launch_in(tmp_path, sandbox.bwrap, (sys.executable, str(script)), startup=1.0)

    async def main() -> str:
        transport = TcpTransport()
        try:
            with pytest.raises(ConnectError) as caught:
                await transport.connect(launch)
        finally:
            await transport.aclose()
        return str(caught.value)

    assert run(main()) == 'bot "bot" did not connect within 1 s'


def test_a_cgroup_caps_the_processes_of_one_bot_and_is_removed_after_it(tmp_path, sandbox):
    parent = pids_parent()
    if parent is None:
        pytest.skip("no pids cgroup arena may create here (RLIMIT_NPROC is the cap)")
    script = tmp_path / "forks.py"
    script.write_text(
        "import os, time\n"
        "made = 0\n"
        "try:\n"
        "    while made < 50:\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(30)\n"
        "            os._exit(0)\n"
        "        made += 1\n"
        "except OSError as exc:\n"
        "    print(made, exc.strerror, flush=True)\n"
    )
    launch = launch_in(
        tmp_path, sandbox.bwrap, (sys.executable, str(script)), limits=ResourceLimits(processes=8)
    )
    assert launch.sandbox is not None
    launch = replace(launch, sandbox=replace(launch.sandbox, pids_parent=parent))

    async def main() -> tuple[bytes, list[Path]]:
        conn = await StdioTransport().connect(launch)
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        async with asyncio.timeout(30):
            while b"\n" not in rec.data:
                await asyncio.sleep(0.02)
        during = list(parent.glob("bot-*"))
        await conn.close()
        return bytes(rec.data), during

    said, during = run(main())
    made, reason = said.decode().split(" ", 1)
    assert int(made) < 8 and reason.strip() == "Resource temporarily unavailable"
    assert len(during) == 1 and not during[0].exists()


def test_cgroups_left_by_a_dead_arena_are_removed(sandbox):
    parent = pids_parent()
    if parent is None:
        pytest.skip("no pids cgroup arena may create here")
    stale = parent.parent / "arena-4194303"  # above any pid_max: never a running arena
    (stale / "bot-0").mkdir(parents=True)
    try:
        run_cgroup.cache_clear()
        offering.cache_clear()
        assert pids_parent() == parent
        assert not stale.exists()
    finally:
        if stale.exists():
            (stale / "bot-0").rmdir()
            stale.rmdir()


@pytest.mark.parametrize("mode", ["required", "none"])
def test_a_fixed_port_held_on_the_machine_matters_only_to_unsandboxed_bots(
    mode, write_match, sandbox
):
    """Confined bots listen on the fixed port in their own namespaces: a port another
    program holds on the machine costs them nothing, and the transport is not prepared.
    Unsandboxed, the same run stops before its first game, in one line."""
    holder = socket.create_server(("127.0.0.1", 0))
    port = holder.getsockname()[1]
    bot = 'builtin = "optimal"\nargs = ["--tcp", "{host}", "{port}"]\n'
    path = write_match(
        f"""
        game = "nim"
        transport = "tcp"
        [transport_options.tcp]
        port = {port}
        [sandbox]
        mode = "{mode}"
        """
        + "".join(f'[[bots]]\nname = "{name}"\n{bot}' for name in ("one", "two"))
    )
    try:
        if mode == "none":
            with pytest.raises(SetupError, match=f"cannot listen on 127.0.0.1:{port}"):
                run_match(path)
            return
        summary = run_match(path)
    finally:
        holder.close()
    assert summary.played == 2 and summary.errors == []
    for result, detail, _events in stored_games(summary):
        assert result.sandbox == "bwrap" and not detail.faults


THINKER = """
import os, sys, time

def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

for line in sys.stdin:
    child = os.fork()
    if child == 0:
        burn(float(line))
        os._exit(0)
    os.waitpid(child, 0)
    print("done", flush=True)
"""
"""A bot whose forked child does the thinking: each request is the CPU seconds to use."""


def test_a_sandboxed_bot_on_a_cpu_clock_is_charged_for_its_childs_cpu(tmp_path, sandbox):
    script = tmp_path / "thinker.py"
    script.write_text(THINKER)
    launch = launch_in(tmp_path, sandbox.bwrap, (sys.executable, str(script)), cpu_clock=True)
    assert launch.sandbox is not None
    launch = replace(launch, sandbox=replace(launch.sandbox, pids_parent=pids_parent()))
    clocks = Clocks(startup=20.0, reply=0.2, grace=0.02, mode="cpu", wall_cap=50.0)

    async def main() -> list[Reply]:
        channel = Channel("bot", "bot", await StdioTransport().connect(launch), LineCodec())
        table = Table([channel], clocks, EventLog())
        try:
            return [await table.ask(0, seconds) for seconds in ("0", "0.12", "0.3")]
        finally:
            await channel.close()

    _, within, over = run(main())
    assert within.ok and 0.11 <= within.cpu <= 0.22
    assert over.fault is not None and over.fault.kind is FaultKind.TIMEOUT
    assert over.cpu >= 0.2
