"""The dask executor on clusters started as a user starts one: a ``dask scheduler`` and
``dask worker`` processes of their own (each with its nanny), on loopback. What a cluster
that outlives one run needs: a coordinator that stops with one error line when the
scheduler goes away, an SPRT that stays decided while pairs are still in play, workers
that close the run of a coordinator killed with -9, no stored session played again when
a worker dies, and the settings of a scheduler of the user's own checked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from cluster_runs import WORKER_ENV, coordinator, descendants, stored_indexes, wait_for_stored
from scripted_pairs import sprt_in_play

from arena_kernel.markers import hookimpl
from arena_kernel.model import RunInfo
from arena_kernel.runner.api import prepare, run_prepared
from arena_kernel.store import Store
from arena_kernel.testing.cluster import distributed_or_skip, process_cluster, tls_files

PYTHON = sys.executable

NIM = f"""
game = "{{game}}"
seed = 11
rounds = {{rounds}}
concurrency = 2
[game_options]
pile = 15
spread = 10
{{options}}
[[bots]]
name = "one"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.nim_bot", "random", "--seed", "1"]
[[bots]]
name = "two"
cmd = ["{PYTHON}", "-m", "arena_kernel.testing.nim_bot", "random", "--seed", "2"]
"""
"""Nim between two seeded random bots that are processes: two games a round."""


def nim(rounds: int, game: str = "nim", options: str = "", tail: str = "") -> str:
    return NIM.format(game=game, rounds=rounds, options=options) + tail


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill", "term"])
def test_the_coordinator_stops_with_one_error_line_when_the_scheduler_goes(
    how: signal.Signals, write_match, tmp_path: Path
) -> None:
    path = write_match(nim(rounds=10))  # 20 games
    database = tmp_path / "results.sqlite"
    with process_cluster(tmp_path / "cluster") as cluster:
        run = coordinator(path, cluster.scheduler_address)
        wait_for_stored(database, 3, run)
        assert cluster.scheduler is not None
        cluster.scheduler.send_signal(how)
        try:
            _, stderr = run.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)  # the coordinator this test started
            run.communicate()
            pytest.fail("the coordinator did not stop within a minute of the scheduler's end")
    lines = stderr.splitlines()
    assert run.returncode == 2, stderr
    (error,) = [line for line in lines if line.startswith("arena: error:")]
    assert "lost the connection to the Dask scheduler" in error and "run it again" in error
    assert error == lines[-1] and "Traceback" not in stderr, stderr
    stored = stored_indexes(database)
    assert 3 <= len(stored) < 20

    summary = run_prepared(prepare(path))  # the games in play then: played now, once

    assert (summary.skipped, summary.played, summary.errors) == (len(stored), 20 - len(stored), [])
    assert stored_indexes(database) == list(range(20))


class Header:
    """An observer: the executor's note of each run's header."""

    def __init__(self) -> None:
        self.notes: list[str | None] = []

    @hookimpl
    def arena_run_start(self, run: RunInfo) -> None:
        self.notes.append(run.executor_note)


def test_an_sprt_decision_stays_decided_when_pairs_in_play_arrive_after_it(
    write_match, tmp_path: Path
) -> None:
    path = write_match(sprt_in_play(delay=3.0))
    header = Header()
    with process_cluster(tmp_path / "cluster", workers=1, threads=4, env=WORKER_ENV) as cluster:
        options = {"scheduler": cluster.scheduler_address}
        summary = run_prepared(prepare(path, executor="dask", executor_options=options), [header])

    assert summary.errors == []
    assert header.notes == [None], "a scheduler set as the README says: nothing to say"
    assert summary.sprt is not None
    llr, _bounds, verdict, pairs, *_ = summary.sprt.rows[0]
    assert verdict.startswith("H1 accepted") and pairs == 1 and llr == pytest.approx(0.419, 1e-3)
    assert summary.stopped is not None and "accepted H1 after 1 pairs" in summary.stopped
    with Store(Path(summary.run.database)) as store:
        steps = store.sprt_steps(summary.run.run_id)
        (record,) = store.run_records()
    assert record.finished is not None, "a decided run is finished"
    first, *after = steps
    assert (first.seq, first.pair, first.total, first.decision) == (1, 0, 2.0, "H1")
    assert {step.pair for step in after} >= {1} and all(s.decision is None for s in after)
    assert next(s for s in after if s.pair == 1).total == 0.0
    assert any("completed after the decision" in note for note in summary.sprt.notes)


def test_workers_close_the_run_of_a_coordinator_killed_with_minus_9(
    write_match, tmp_path: Path
) -> None:
    path = write_match(nim(rounds=200, tail="[executor_options.dask]\nlease = 2.0\n"))
    distributed = distributed_or_skip()
    with process_cluster(tmp_path / "cluster", workers=1) as cluster:
        (worker_pid,) = cluster.wait_for_workers(1).values()
        run = coordinator(path, cluster.scheduler_address)
        wait_for_stored(tmp_path / "results.sqlite", 2, run)
        wardens = [p for p, line in descendants(worker_pid).items() if "warden" in line]
        assert wardens, "the worker plays the run with a warden of its own"
        os.killpg(run.pid, signal.SIGKILL)  # the coordinator this test started
        run.communicate()

        from arena_kernel.executors.remote import open_runs

        deadline = time.monotonic() + 60
        with distributed.Client(cluster.scheduler_address, timeout=30) as client:
            while True:
                runs = client.run(open_runs)
                left = [p for p in wardens if p in descendants(worker_pid)]
                if not any(runs.values()) and not left:
                    break
                assert time.monotonic() < deadline, f"still open: {runs}, wardens {left}"
                time.sleep(0.2)


def test_a_worker_that_dies_plays_no_stored_session_again(write_match, tmp_path: Path) -> None:
    tally = tmp_path / "tally"
    path = write_match('plugins = ["tallied_nim"]\n' + nim(10, "tallied_nim", f'tally = "{tally}"'))
    database = tmp_path / "results.sqlite"
    with process_cluster(tmp_path / "cluster", workers=2, env=WORKER_ENV) as cluster:
        pids = cluster.wait_for_workers(2)
        run = coordinator(path, cluster.scheduler_address)
        wait_for_stored(database, 6, run)
        before = set(stored_indexes(database))
        os.kill(next(iter(pids.values())), signal.SIGKILL)  # a worker of this test's cluster
        _, stderr = run.communicate(timeout=300)
    assert run.returncode == 0, stderr
    assert stored_indexes(database) == list(range(20))
    plays = Counter(int(line) for line in tally.read_text().split())
    with Store(database) as store:
        seeds = {game.index: game.seed for game in store.games(1)}
    again = sorted(index for index in before if plays[seeds[index]] != 1)
    assert not again, f"games stored before the worker died were played again: {again}"


def test_a_scheduler_with_dasks_defaults_is_told_what_to_set(write_match, tmp_path: Path) -> None:
    path = write_match(nim(rounds=1))
    with process_cluster(tmp_path / "cluster", workers=1, settings={}) as cluster:
        run = coordinator(path, cluster.scheduler_address)
        _, stderr = run.communicate(timeout=300)
    assert run.returncode == 0, stderr
    (note,) = [line for line in stderr.splitlines() if "worker-saturation" in line]
    assert note.startswith(f"arena: the Dask scheduler at {cluster.scheduler_address}: ")
    assert "worker-saturation 1.1 hands a worker sessions beyond its threads" in note
    tries = "allowed-failures 3 starts a session 4 times on workers that die, not `tries` = 3"
    assert tries in note
    assert note.endswith(
        "start it with DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION=1.0 "
        "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES=2"
    )
    assert stored_indexes(tmp_path / "results.sqlite") == [0, 1]


def test_a_cluster_with_tls_plays_for_a_coordinator_with_a_certificate_alone(
    write_match, tmp_path: Path
) -> None:
    tls = tls_files(tmp_path / "tls")
    path = write_match(nim(rounds=1, tail="[executor_options.dask]\ntimeout = 5.0\n"))
    with process_cluster(tmp_path / "cluster", workers=1, tls=tls) as cluster:
        assert cluster.scheduler_address.startswith("tls://")
        stranger = coordinator(path, cluster.scheduler_address)
        _, refused = stranger.communicate(timeout=300)
        member = coordinator(path, cluster.scheduler_address, tls.client_environment())
        _, stderr = member.communicate(timeout=300)
    assert stranger.returncode == 2, refused
    (error,) = refused.splitlines()
    assert error.startswith("arena: error: ") and "cannot reach a Dask scheduler" in error
    assert member.returncode == 0, stderr
    assert stored_indexes(tmp_path / "results.sqlite") == [0, 1]
