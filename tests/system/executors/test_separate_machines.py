"""The dask executor with its workers on machines of their own (network and mount
namespaces on this one: :mod:`arena_kernel.testing.separate_machines`), each with its own
copy of the bots: a copy that is not the coordinator's is refused before the first game,
naming its worker, and a machine cut off in the middle of a run, then back, loses and
doubles nothing."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest
from cluster_runs import WORKER_ENV, stored_indexes

from arena_kernel.errors import SetupError
from arena_kernel.runner.api import prepare, run_prepared
from arena_kernel.testing.cluster import SAFE_SCHEDULER
from arena_kernel.testing.separate_machines import separate_machines

PYTHON = sys.executable

BOT = """import runpy, sys
sys.argv = ["nim_bot", "random", "--seed", sys.argv[1]]
runpy.run_module("arena_kernel.testing.nim_bot", run_name="__main__")
"""
"""A bot program of the match file's own, as a user ships it: a seeded random Nim bot."""


def nim(bots: Path, rounds: int) -> str:
    return f"""
game = "nim"
seed = 3
rounds = {rounds}
concurrency = 2
[game_options]
pile = 15
spread = 10
[[bots]]
name = "mine"
cmd = ["{PYTHON}", "nimbot.py", "1"]
cwd = "{bots}"
[[bots]]
name = "yours"
cmd = ["{PYTHON}", "nimbot.py", "2"]
cwd = "{bots}"
"""


def bots_folder(path: Path, text: str = BOT) -> Path:
    path.mkdir(parents=True)
    (path / "nimbot.py").write_text(text)
    return path


def on(address: str, path: Path):
    return run_prepared(prepare(path, executor="dask", executor_options={"scheduler": address}))


def test_a_machine_whose_copy_of_a_bot_differs_is_refused_naming_its_worker(
    write_match, tmp_path: Path
) -> None:
    bots = bots_folder(tmp_path / "bots")
    stale = bots_folder(tmp_path / "stale", BOT.replace("random", "optimal"))
    path = write_match(nim(bots, rounds=1))
    with (
        separate_machines() as bed,
        bed.cluster(tmp_path / "cluster", machines=1, shipped={bots: bots}) as (cluster, _),
    ):
        bed.start_worker(cluster, {bots: stale})
        workers = cluster.wait_for_workers(2)
        with pytest.raises(SetupError) as refused:
            on(cluster.scheduler_address, path)
    (stale_worker,) = [w for w in workers if w.startswith(f"tcp://{bed.machines[1].address}:")]
    message = str(refused.value)
    assert f"worker {stale_worker} on " in message and message.count("worker ") == 1
    assert 'bot "mine" is not the coordinator\'s here: nimbot.py differs' in message
    assert "\n" not in message
    assert stored_indexes(tmp_path / "results.sqlite") == []


def test_a_machine_cut_off_mid_run_then_back_loses_and_doubles_nothing(
    write_match, tmp_path: Path
) -> None:
    bots = bots_folder(tmp_path / "bots")
    path = write_match(nim(bots, rounds=20))  # 40 games
    database = tmp_path / "results.sqlite"
    settings = {
        **SAFE_SCHEDULER,
        # A worker silent for 5 s is given up (Dask's least), looked for every 4 s.
        "distributed.scheduler.worker-ttl": "4s",
        "distributed.comm.timeouts.connect": "3s",
    }
    cuts: list[int] = []
    shipped = {bots: bots}
    with (
        separate_machines() as bed,
        bed.cluster(tmp_path / "cluster", 2, shipped, settings, WORKER_ENV) as (cluster, machines),
    ):

        def cut_and_restore() -> None:
            deadline = time.monotonic() + 120
            while len(stored_indexes(database)) < 6 and time.monotonic() < deadline:
                time.sleep(0.02)
            machines[1].cut()
            cuts.append(len(stored_indexes(database)))
            time.sleep(12)  # long enough for the scheduler to give it up, and its session
            machines[1].restore()

        cutter = threading.Thread(target=cut_and_restore)
        cutter.start()
        summary = on(cluster.scheduler_address, path)
        cutter.join()
    assert cuts and cuts[0] < 40, "cut off while games were left"
    log = (tmp_path / "cluster" / "scheduler.log").read_text()
    assert f"Remove worker addr: tcp://{machines[1].address}:" in log, "the machine was lost"
    assert summary.errors == [] and summary.played == 40
    assert stored_indexes(database) == list(range(40))
