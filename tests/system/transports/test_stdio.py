"""The stdio transport and process supervision, with real child processes."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import os
import resource
import signal
import time

import pytest
from transport_helpers import Recorder, alive, run

from arena_kernel.errors import SetupError
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.transports.base import ConnectError
from arena_kernel.transports.process import describe_exit
from arena_kernel.transports.stderr_log import stderr_log_path
from arena_kernel.transports.stdio import StdioTransport

ECHO = """
    import sys
    for line in sys.stdin:
        sys.stdout.write("echo " + line)
        sys.stdout.flush()
"""


async def started(launch):
    conn = await StdioTransport().connect(launch)
    rec = Recorder()
    conn.start(rec.on_data, rec.on_closed)
    return conn, rec


async def until_zombie(pid: int) -> None:
    """The leader has exited; the transport keeps it unreaped until close()."""
    async with asyncio.timeout(5):
        while alive(pid):
            await asyncio.sleep(0.01)


def test_echo_round_trip(bot_script, make_launch):
    async def main():
        conn, rec = await started(make_launch(bot_script(ECHO)))
        conn.write(b"hello\n")
        conn.write(b"world\n")
        await rec.received(b"echo hello\necho world\n")
        pid = conn.pid
        assert alive(pid)
        await conn.close()
        assert not alive(pid)
        await conn.close()  # idempotent
        assert rec.closed == []  # the referee ended it: no fault to report

    run(main())


def test_write_larger_than_the_pipe_returns_at_once_and_arrives_whole(bot_script, make_launch):
    async def main():
        conn, rec = await started(make_launch(bot_script(ECHO)))
        line = b"x" * (2 << 20) + b"\n"
        before = time.monotonic()
        conn.write(line)
        conn.write(b"after\n")
        assert time.monotonic() - before < 0.1
        await rec.received(b"echo " + line + b"echo after\n")
        await conn.close()

    run(main())


def test_reply_written_just_before_exit_comes_before_on_closed(bot_script, make_launch):
    bot = bot_script(
        """
        import sys
        sys.stdin.readline()
        sys.stdout.write("bye " + "y" * 50000 + "\\n")
        sys.stdout.flush()
        sys.exit(3)
        """
    )

    async def main():
        conn = await StdioTransport().connect(make_launch(bot))
        conn.write(b"go\n")
        # Start only once the process is gone: its exit is then known before any read.
        await until_zombie(conn.pid)
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        await rec.wait_closed()
        assert rec.events[-1] == ("closed", "exited with status 3")
        assert bytes(rec.data) == b"bye " + b"y" * 50000 + b"\n"
        await asyncio.sleep(0.1)
        assert len(rec.closed) == 1
        await conn.close()

    run(main())


def test_child_holding_stdout_does_not_delay_on_closed(bot_script, make_launch):
    bot = bot_script(
        """
        import os, sys, time
        child = os.fork()
        if child == 0:
            time.sleep(30)
            os._exit(0)
        print("child", child, flush=True)
        """
    )

    async def main():
        conn, rec = await started(make_launch(bot))
        async with asyncio.timeout(2):
            reason = await rec.wait_closed()
        assert reason == "exited with status 0"
        child = int(rec.data.split()[1])
        assert alive(child)
        await conn.close()
        assert not alive(child)

    run(main())


GRACE = 2.0
"""Long enough that a loaded machine ends a group that obeys SIGTERM well within it."""


@pytest.mark.parametrize("leader_ignores_term", [False, True])
def test_close_kills_the_whole_process_group(bot_script, make_launch, leader_ignores_term):
    bot = bot_script(
        f"""
        import os, signal, sys, time
        def fork(ignore_term):
            pid = os.fork()
            if pid == 0:
                if ignore_term:
                    signal.signal(signal.SIGTERM, signal.SIG_IGN)
                time.sleep(30)
                os._exit(0)
            return pid
        plain, stubborn = fork(False), fork(True)
        if {leader_ignores_term}:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print(plain, stubborn, flush=True)
        time.sleep(30)
        """
    )

    async def main():
        conn, rec = await started(make_launch(bot, kill_grace=GRACE))
        await rec.until(lambda: rec.data.endswith(b"\n"))
        pids = [conn.pid, *map(int, rec.data.split())]
        assert all(map(alive, pids))
        before = time.monotonic()
        await conn.close()
        took = time.monotonic() - before
        assert not any(map(alive, pids))
        # The grace period is spent only on a leader that ignores SIGTERM.
        assert (took >= GRACE) if leader_ignores_term else (took < GRACE)

    run(main())


def test_output_closed_by_a_running_bot(bot_script, make_launch):
    bot = bot_script(
        """
        import os, time
        os.close(1)
        time.sleep(30)
        """
    )

    async def main():
        conn, rec = await started(make_launch(bot))
        assert await rec.wait_closed() == "closed its output"
        assert alive(conn.pid)
        await conn.close()

    run(main())


def test_writes_to_a_dead_bot_are_dropped(bot_script, make_launch):
    async def main():
        conn, rec = await started(make_launch(bot_script("import sys; sys.exit(0)")))
        await rec.wait_closed()
        for _ in range(10):
            conn.write(b"z" * 100_000 + b"\n")
        await conn.close()
        assert rec.closed == ["exited with status 0"]

    run(main())


def test_killed_by_a_signal_is_described(bot_script, make_launch):
    bot = bot_script("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")

    async def main():
        conn, rec = await started(make_launch(bot))
        assert await rec.wait_closed() == "killed by SIGSEGV"
        await conn.close()

    run(main())


def test_memory_limit(bot_script, make_launch):
    bot = bot_script("block = bytearray(1 << 30)\nprint('allocated', flush=True)")
    launch = make_launch(bot, limits=ResourceLimits(memory_mb=200))

    async def main():
        conn, rec = await started(launch)
        assert await rec.wait_closed() == "exited with status 1"
        await conn.close()
        assert rec.data == b""

    run(main())
    assert "MemoryError" in stderr_log_path(launch).read_text()


def test_memory_limit_ignores_reserved_address_space(bot_script, make_launch):
    """A JVM reserves gigabytes of address space it never touches; only written memory
    counts against ``memory_mb`` (an address-space limit killed a real contest bot)."""
    bot = bot_script(
        "import mmap\n"
        "reserved = mmap.mmap(-1, 1 << 30, flags=mmap.MAP_PRIVATE, prot=0)  # PROT_NONE\n"
        "print('reserved', flush=True)\n"
        "import sys; sys.stdin.read()"
    )
    launch = make_launch(bot, limits=ResourceLimits(memory_mb=200))

    async def main():
        conn, rec = await started(launch)
        await rec.received(b"reserved\n")
        await conn.close()
        assert bytes(rec.data) == b"reserved\n", stderr_log_path(launch).read_text()

    run(main())


def test_cpu_limit(bot_script, make_launch):
    bot = bot_script("while True:\n    pass")

    async def main():
        conn, rec = await started(make_launch(bot, limits=ResourceLimits(cpu_seconds=1)))
        reason = await rec.wait_closed(timeout=60)
        assert reason == "killed by SIGXCPU (CPU time limit of 1 s exceeded)"
        await conn.close()

    run(main())


def test_describe_exit():
    assert describe_exit(os.CLD_EXITED, 3) == "exited with status 3"
    assert describe_exit(os.CLD_KILLED, signal.SIGTERM, cpu_limit=1) == "killed by SIGTERM"
    assert describe_exit(os.CLD_DUMPED, signal.SIGABRT) == "killed by SIGABRT"
    assert describe_exit(os.CLD_KILLED, 99) == "killed by signal 99"
    # A bot that caught SIGXCPU is killed at the hard limit; its CPU time tells why.
    assert describe_exit(os.CLD_KILLED, signal.SIGKILL, 2, cpu_used=2.5) == (
        "killed by SIGKILL (CPU time limit of 2 s exceeded)"
    )
    assert describe_exit(os.CLD_KILLED, signal.SIGKILL, 2, cpu_used=0.1) == "killed by SIGKILL"
    # Its memory cgroup counted an out-of-memory kill: the kernel's SIGKILL, or the exit of
    # a bot that lost one of its processes to it.
    assert describe_exit(os.CLD_KILLED, signal.SIGKILL, oom_mb=100) == (
        "killed by the out-of-memory killer: its processes together passed memory_mb = 100 MiB"
    )
    assert describe_exit(os.CLD_EXITED, 1, oom_mb=100) == (
        "exited with status 1, after the out-of-memory killer ended one of its processes: "
        "its processes together passed memory_mb = 100 MiB"
    )


def test_stderr_is_capped_and_drained(bot_script, make_launch):
    bot = bot_script(
        """
        import sys
        for _ in range(256):
            sys.stderr.write("e" * 4095 + "\\n")
            sys.stderr.flush()
        print("done", flush=True)
        """
    )
    launch = make_launch(bot, limits=ResourceLimits(stderr_kb=8))

    async def main():
        conn, rec = await started(launch)
        assert await rec.wait_closed() == "exited with status 0"
        assert rec.data == b"done\n"  # never blocked on its stderr
        await conn.close()

    run(main())
    log = stderr_log_path(launch).read_bytes()
    marker = b"[arena: stderr truncated at 8 KiB]\n"
    assert log == (b"e" * 4095 + b"\n") * 2 + marker


def test_environment_cwd_and_identifier(bot_script, make_launch, tmp_path):
    bot = bot_script(
        """
        import os, sys
        print(sys.argv[1], os.environ["ARENA_ID"], os.environ["COLOUR"], os.getcwd(), flush=True)
        """
    )
    workdir = tmp_path / "work"
    workdir.mkdir()
    launch = make_launch(
        (*bot, "--name={identifier}"),
        identifier="seat-7",
        env={"COLOUR": "blue"},
        cwd=str(workdir),
    )

    async def main():
        conn, rec = await started(launch)
        await rec.wait_closed()
        await conn.close()
        assert rec.data.decode().split() == ["--name=seat-7", "seat-7", "blue", str(workdir)]

    run(main())


def test_missing_executable(make_launch, tmp_path):
    with pytest.raises(ConnectError) as caught:
        run(StdioTransport().connect(make_launch(("./no-such-bot", "x"), cwd=str(tmp_path))))
    assert (
        str(caught.value) == f'cannot start bot "bot": no such file: "./no-such-bot" in {tmp_path}'
    )


def test_unknown_command(make_launch):
    with pytest.raises(ConnectError) as caught:
        run(StdioTransport().connect(make_launch(("no-such-command-xyz",))))
    assert (
        str(caught.value) == 'cannot start bot "bot": no command "no-such-command-xyz" on the PATH'
    )


def test_not_executable(make_launch, tmp_path):
    path = tmp_path / "bot.sh"
    path.write_text("echo hi\n")
    with pytest.raises(ConnectError) as caught:
        run(StdioTransport().connect(make_launch((str(path),))))
    assert str(caught.value) == f'cannot start bot "bot": "{path}" is not an executable file'


def test_a_quiet_bot_leaves_no_log_and_no_folder(bot_script, make_launch):
    launch = make_launch(bot_script(ECHO))

    async def main():
        conn, rec = await started(launch)
        conn.write(b"hi\n")
        await rec.received(b"echo hi\n")
        await conn.close()

    run(main())
    assert not launch.log_dir.exists()


def test_a_log_left_by_an_earlier_attempt_is_not_taken_for_this_one(bot_script, make_launch):
    """A resumed run replays an unfinished game with the same log path: a bot that writes
    nothing this time has no log, not the one of the interrupted attempt."""
    launch = make_launch(bot_script(ECHO))
    launch.log_dir.mkdir()
    stderr_log_path(launch).write_text("from the interrupted attempt\n")

    async def main():
        conn, rec = await started(launch)
        conn.write(b"hi\n")
        await rec.received(b"echo hi\n")
        await conn.close()

    run(main())
    assert not stderr_log_path(launch).exists()


def open_descriptors() -> set[int]:
    return {int(fd) for fd in os.listdir("/proc/self/fd")}


@pytest.fixture
def few_descriptors():
    """Lower this process's open-file limit to just above what it uses, for one test."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(open_descriptors()) + 64, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.parametrize("spare", range(10))
def test_out_of_descriptors_while_starting_a_bot_is_the_arenas_failure(
    spare, bot_script, make_launch, few_descriptors, no_leftover_processes
):
    """Whichever descriptor is the one too many (a pipe to the bot, its stderr pipe, the
    pipe that reports exec failures, the pidfd that watches the started bot), starting
    fails with one clear SetupError, closes what it opened, and leaves no process."""
    launch = make_launch(bot_script(ECHO))

    async def main():
        gc.collect()  # an event loop another test left unclosed closes its files when collected
        before = open_descriptors()
        filler = []
        with contextlib.suppress(OSError):
            while True:
                filler.append(os.open("/dev/null", os.O_RDONLY))
        for _ in range(spare):
            os.close(filler.pop())
        try:
            conn = await StdioTransport().connect(launch)
        except SetupError as exc:
            assert str(exc) == (
                'cannot start bot "bot": the arena is out of file descriptors (Too many open '
                "files); raise the limit (ulimit -n) or lower concurrency"
            )
            outcome = "refused"
        else:
            outcome = "started"
        finally:
            for fd in filler:
                os.close(fd)
        if outcome == "started":
            await conn.close()
        assert open_descriptors() == before, "every descriptor opened is closed"
        return outcome

    outcome = run(main())
    assert outcome == ("refused" if spare < 8 else "started")
    no_leftover_processes()


def test_a_bot_started_but_not_watchable_is_killed_and_the_failure_is_the_arenas(
    bot_script, make_launch, monkeypatch, no_leftover_processes
):
    """The pidfd is opened once the bot runs: if that fails, the bot must not live on."""
    started_pids = []
    real_pidfd_open = os.pidfd_open

    def no_descriptor_left(pid, *args):
        started_pids.append(pid)
        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))

    monkeypatch.setattr(os, "pidfd_open", no_descriptor_left)
    with pytest.raises(SetupError, match="the arena is out of file descriptors"):
        run(StdioTransport().connect(make_launch(bot_script(ECHO))))
    monkeypatch.setattr(os, "pidfd_open", real_pidfd_open)
    assert started_pids and not alive(started_pids[0])
    no_leftover_processes()
