"""The dask executor on a real cluster of worker processes: the same games as the local
executor, every game stored once when a worker or the coordinator is killed, resume
across executors, and every worker checked before the first game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cluster_runs import descendants, listening_addresses, stored_indexes

from arena_kernel.errors import ArenaError, SetupError
from arena_kernel.markers import hookimpl
from arena_kernel.runner.api import prepare, run_match, run_prepared
from arena_kernel.runner.run import RunSummary
from arena_kernel.store import Store
from arena_kernel.testing.cluster import busy_workers, local_cluster, worker_pids
from arena_kernel.testing.results import game_outcomes
from arena_kernel.testkit import game_seed

PYTHON = sys.executable

NIM = f"""
game = "nim"
seed = 11
rounds = {{rounds}}
concurrency = 2
[game_options]
pile = 15
spread = 10
[[bots]]
name = "talker"
cmd = ["{PYTHON}", "-c", "{{talk}}"]
[[bots]]
name = "random"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.nim_bot", "random", "--seed", "2"]
[[bots]]
name = "optimal"
builtin = "optimal"
"""

TALK = (
    "import sys, runpy; print('thinking', file=sys.stderr, flush=True); "
    "sys.argv = ['nim_bot', 'random', '--seed', '1']; "
    "runpy.run_module('arena_kernel.testing.nim_bot', run_name='__main__')"
)
"""A seeded random Nim bot that says something on its stderr first."""

RPS = f"""
game = "rps"
seed = 4
rounds = 4
concurrency = 2
[[bots]]
name = "a"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.rps_bot", "random", "--seed", "1"]
[[bots]]
name = "b"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.rps_bot", "random", "--seed", "2"]
[[bots]]
name = "rock"
builtin = "rock"
"""


class Heard:
    """An observer: the notifications it got, in order (what the progress line and the
    live report follow)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    @hookimpl
    def arena_run_start(self) -> None:
        self.calls.append("run_start")

    @hookimpl
    def arena_game_start(self) -> None:
        self.calls.append("game_start")

    @hookimpl
    def arena_game_end(self) -> None:
        self.calls.append("game_end")

    @hookimpl
    def arena_run_end(self) -> None:
        self.calls.append("run_end")


def on_cluster(path: Path, address: str, **options: object) -> RunSummary:
    """Play ``path`` on the cluster at ``address``; the run's summary."""
    return run_prepared(
        prepare(path, executor="dask", executor_options={"scheduler": address, **options})
    )


@pytest.mark.parametrize("text", [NIM.format(talk=TALK, rounds=2), RPS], ids=["games", "sessions"])
def test_the_cluster_stores_the_games_the_local_executor_stores(
    text: str, write_match, dask_cluster, tmp_path: Path
) -> None:
    apart = f'database = "{tmp_path / "local.sqlite"}"\nlogs = "{tmp_path / "local-logs"}"\n'
    here = run_prepared(prepare(write_match(apart + text, name="local.toml")))
    remote = write_match(text, name="remote.toml")
    heard = Heard()
    options = {"scheduler": dask_cluster.scheduler_address}
    summary = run_prepared(prepare(remote, executor="dask", executor_options=options), [heard])

    assert summary.errors == [] and summary.played == here.played == here.run.total_games
    games = summary.played
    assert heard.calls == ["run_start", *["game_start", "game_end"] * games, "run_end"]
    assert game_outcomes(summary.run.database) == game_outcomes(here.run.database)
    assert [t.rows for t in summary.standings] == [t.rows for t in here.standings]


SWISS = 'game = "nim"\nformat = "swiss"\nrounds = 3\nseed = 8\n' + "".join(
    f'[[bots]]\nname = "n{i}"\ncmd = ["{PYTHON}", "-m", "arena_kernel.testing.nim_bot", '
    f'"random", "--seed", "{i}"]\n'
    for i in range(7)
)
"""A Swiss of 7 seeded Nim bots: each round's pairing (and bye) follows the results."""


def test_a_swiss_on_the_cluster_pairs_and_stores_as_the_local_executor(
    write_match, dask_cluster, tmp_path: Path
) -> None:
    apart = f'database = "{tmp_path / "local.sqlite"}"\nlogs = "{tmp_path / "local-logs"}"\n'
    here = run_prepared(prepare(write_match(apart + SWISS, name="local.toml")))
    summary = on_cluster(write_match(SWISS, name="remote.toml"), dask_cluster.scheduler_address)

    assert summary.errors == here.errors == [] and summary.played == here.played == 9
    assert game_outcomes(summary.run.database) == game_outcomes(here.run.database)
    assert summary.format is not None and summary.format.rows == here.format.rows


def test_cpu_clocks_run_on_the_workers_and_their_times_come_back(
    write_match, dask_cluster, tmp_path: Path
) -> None:
    text = NIM.format(talk=TALK, rounds=1) + '[clock]\nmode = "cpu"\n'
    apart = f'database = "{tmp_path / "local.sqlite"}"\nlogs = "{tmp_path / "local-logs"}"\n'
    here = run_prepared(prepare(write_match(apart + text, name="local.toml")))
    summary = on_cluster(write_match(text, name="remote.toml"), dask_cluster.scheduler_address)

    assert summary.errors == here.errors == [] and summary.played == here.played == 6
    assert game_outcomes(summary.run.database) == game_outcomes(here.run.database)
    with Store(Path(summary.run.database)) as store:
        timed = {
            (detail.seating[event.seat], event.cpu is not None)
            for detail in store.games(summary.run.run_id)
            for event in store.events(detail.game_id)
            if event.kind == "recv" and event.elapsed is not None
        }
    # The bots the workers started were measured there; the built-in one runs as a
    # process too.
    assert timed == {("talker", True), ("random", True), ("optimal", True)}


def test_the_bots_stderr_comes_back_to_the_coordinators_logs(write_match, dask_cluster) -> None:
    summary = on_cluster(
        write_match(NIM.format(talk=TALK, rounds=1)), dask_cluster.scheduler_address
    )

    with Store(Path(summary.run.database)) as store:
        logs = [
            (detail.seating[seat], Path(path))
            for detail in store.games(summary.run.run_id)
            for seat, path in detail.stderr_logs.items()
        ]
    assert {bot for bot, _ in logs} == {"talker"} and len(logs) == 4  # its 4 games of 6
    log_root = Path(summary.run.database).parent / "logs" / f"run-{summary.run.run_id}"
    for _bot, path in logs:
        assert path.is_relative_to(log_root) and path.read_text() == "thinking\n"


def test_a_worker_killed_mid_run_loses_no_game(write_match, no_leftover_processes) -> None:
    path = write_match(NIM.format(talk=TALK, rounds=8))  # 48 games
    database = path.parent / "results.sqlite"
    killed: list[tuple[str, int]] = []
    with local_cluster(workers=2) as cluster:
        address = cluster.scheduler_address
        pids = worker_pids(address)

        def kill_a_busy_worker() -> None:
            deadline = time.monotonic() + 120
            while len(stored_indexes(database)) < 4 and time.monotonic() < deadline:
                time.sleep(0.02)
            while time.monotonic() < deadline:
                busy = [w for w, n in busy_workers(address).items() if n and w in pids]
                if busy:
                    os.kill(pids[busy[0]], signal.SIGKILL)  # a worker process of this test
                    killed.append((busy[0], len(stored_indexes(database))))
                    return
                time.sleep(0.01)

        killer = threading.Thread(target=kill_a_busy_worker)
        killer.start()
        summary = on_cluster(path, address)
        killer.join()
    no_leftover_processes(wait=10.0)

    assert killed and killed[0][1] < 48, "the worker was killed while games were left"
    assert summary.errors == []
    assert stored_indexes(database) == list(range(48))  # each game once: idx is unique


@pytest.mark.parametrize(
    ("first", "then"), [("dask", "dask"), ("local", "dask"), ("dask", "local")]
)
def test_a_killed_coordinator_resumes_with_either_executor(
    first: str, then: str, write_match, dask_cluster
) -> None:
    path = write_match(NIM.format(talk=TALK, rounds=4))  # 24 games
    database = path.parent / "results.sqlite"
    address = dask_cluster.scheduler_address
    command = [PYTHON, "-m", "arena_kernel.cli.main", "run", "-q", str(path)]
    if first == "dask":
        command += ["--executor", "dask", "--scheduler", address]
    coordinator = subprocess.Popen(command, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    while len(stored_indexes(database)) < 3:
        assert coordinator.poll() is None, coordinator.stderr.read().decode()
        assert time.monotonic() < deadline, "the run stored nothing"
        time.sleep(0.01)
    os.kill(coordinator.pid, signal.SIGKILL)
    coordinator.wait()
    coordinator.stderr.close()
    stored = len(stored_indexes(database))
    assert 3 <= stored < 24

    options = {"scheduler": address} if then == "dask" else None
    summary = run_prepared(prepare(path, executor=then, executor_options=options))

    assert summary.errors == []
    assert (summary.skipped, summary.played) == (stored, 24 - stored)
    assert stored_indexes(database) == list(range(24))


def test_every_worker_is_checked_for_every_bot_before_the_first_game(
    write_match, tmp_path: Path
) -> None:
    """A bot's command found on one worker's PATH and not on the other's: the run stops
    before any game, naming the worker and the bot."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    bot = bin_dir / "nimbot"
    bot.write_text(f"#!/bin/sh\nexec {PYTHON} -m arena_kernel.testing.nim_bot optimal\n")
    bot.chmod(0o755)
    path = write_match(
        NIM.format(talk=TALK, rounds=1).replace(
            'name = "optimal"\nbuiltin = "optimal"', 'name = "onpath"\ncmd = ["nimbot"]'
        )
    )
    with_bot = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    with local_cluster(workers=1, env=with_bot) as cluster:
        address = cluster.scheduler_address
        (with_bot_address,) = worker_pids(address)
        plain = subprocess.Popen(
            [PYTHON, "-m", "distributed.cli.dask_worker", address, "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while len(worker_pids(address)) < 2:
                assert plain.poll() is None, "the second worker did not start"
                time.sleep(0.1)
            (plain_address,) = set(worker_pids(address)) - {with_bot_address}
            with pytest.raises(SetupError) as raised:
                on_cluster(path, address)
        finally:
            plain.terminate()
            plain.wait(30)
    message = str(raised.value)
    assert f"worker {plain_address}" in message and 'bot "onpath" cannot be started' in message
    assert message.count("worker ") == 1, "only the worker without the bot is named"
    assert stored_indexes(path.parent / "results.sqlite") == []


def test_a_session_that_kills_every_worker_it_meets_is_reported_not_retried_for_ever(
    write_match,
) -> None:
    """The cluster of the run's own (no scheduler given): 2 tries, then a run error for
    that game alone; every other game is stored, and the next run plays it again."""
    fatal = game_seed(11, 3)
    text = NIM.format(talk=TALK, rounds=1).replace('game = "nim"', 'game = "fatal_nim"')
    text = text.replace("spread = 10", f"spread = 10\nfatal_seed = {fatal}")
    path = write_match(
        f'plugins = ["fatal_game"]\n{text}[executor_options.dask]\nworkers = 2\ntries = 2\n'
    )
    summary = run_match(path, executor="dask")

    assert summary.played == 5
    (error,) = summary.errors
    assert error.startswith("session-3: every worker that played it died")
    assert stored_indexes(path.parent / "results.sqlite") == [0, 1, 2, 4, 5]


def test_a_session_the_scheduler_lets_go_of_is_a_run_error_not_waited_for(
    write_match, monkeypatch
) -> None:
    """The scheduler forgets a session in play (as a very loaded one can): the run ends
    with a run error for it, its games unstored, every other game stored."""
    import threading

    from arena_kernel.executors import dask as dask_executor

    monkeypatch.setattr(dask_executor, "STALE", 1.0)
    forgotten = game_seed(11, 3)
    text = NIM.format(talk=TALK, rounds=1).replace('game = "nim"', 'game = "forgotten_nim"')
    text = text.replace("spread = 10", f"spread = 10\nforgotten_seed = {forgotten}")
    path = write_match(
        f'plugins = ["forgotten_game"]\n{text}[executor_options.dask]\nworkers = 2\n'
    )
    ended: list = []
    # A thread of its own: on a coordinator that waits for the session without end, the
    # test fails rather than hangs.
    player = threading.Thread(target=lambda: ended.append(run_match(path, executor="dask")))
    player.daemon = True
    player.start()
    player.join(240)
    assert ended, "the run still waits for the session the scheduler let go of"
    (summary,) = ended
    assert summary.played == 5
    (error,) = summary.errors
    assert error.startswith("session-3: the Dask scheduler let go of it"), error
    assert stored_indexes(path.parent / "results.sqlite") == [0, 1, 2, 4, 5]


def test_without_distributed_the_dask_executor_says_what_to_install(
    write_match, monkeypatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    path = write_match(NIM.format(talk=TALK, rounds=1))
    with pytest.raises(SetupError, match=r"pip install 'arena-kernel\[dask\]'"):
        run_match(path, executor="dask")
    assert stored_indexes(path.parent / "results.sqlite") == []


def test_a_scheduler_that_cannot_be_reached_is_a_clear_error(write_match) -> None:
    path = write_match(NIM.format(talk=TALK, rounds=1))
    with pytest.raises(SetupError, match=r"cannot reach a Dask scheduler .* tcp://127.0.0.1:9"):
        run_prepared(
            prepare(
                path,
                executor="dask",
                executor_options={"scheduler": "tcp://127.0.0.1:9", "timeout": 2},
            )
        )


def test_executor_options_are_checked(write_match) -> None:
    path = write_match(NIM.format(talk=TALK, rounds=1))
    with pytest.raises(ArenaError, match='executor "local" has no option "scheduler"'):
        prepare(path, executor_options={"scheduler": "tcp://127.0.0.1:8786"})
    with pytest.raises(ArenaError, match=r'unknown executor "dsak" .*did you mean "dask"'):
        prepare(path, executor="dsak")
    bad = write_match(NIM.format(talk=TALK, rounds=1) + "[executor_options.dask]\nworkers = 0\n")
    with pytest.raises(ArenaError, match=r"line \d+: \[executor_options.dask\]: workers"):
        prepare(bad)


class Ports:
    """An observer: the ports this process and every process below it listen on, when the
    first game starts (the cluster the run started is up)."""

    def __init__(self) -> None:
        self.found: set[str] | None = None

    @hookimpl
    def arena_game_start(self) -> None:
        if self.found is None:
            self.found = listening_addresses([os.getpid(), *descendants(os.getpid())])


def test_the_cluster_the_run_starts_listens_on_loopback_alone(write_match) -> None:
    path = write_match(NIM.format(talk=TALK, rounds=1) + "[executor_options.dask]\nworkers = 1\n")
    ports = Ports()
    summary = run_prepared(prepare(path, executor="dask"), [ports])

    assert summary.errors == [] and summary.played == 6
    assert ports.found, "the scheduler, the worker and its nanny listen"
    assert all(address.startswith("127.0.0.1:") for address in ports.found), ports.found
