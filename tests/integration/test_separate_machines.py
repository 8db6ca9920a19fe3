"""Real games on workers on machines of their own (network and mount namespaces on this
one: :mod:`arena_kernel.testing.separate_machines`), each with its own copy of the
contest's folder and nothing else of the coordinator's: a Game of Stones round robin and
Speed Clue sessions store the very games a local run of the same match files stores."""

from __future__ import annotations

from pathlib import Path

from arena_kernel.runner.api import prepare, run_prepared
from arena_kernel.testing.results import game_outcomes
from arena_kernel.testing.separate_machines import separate_machines

STONES = """
game = "stones"
seed = 2014
rounds = 1
concurrency = 2
[game_options]
setup = "random"
[[bots]]
name = "first"
builtin = "random"
args = ["--seed", "1"]
[[bots]]
name = "second"
builtin = "random"
args = ["--seed", "2"]
[[bots]]
name = "greedy"
builtin = "greedy"
args = ["--seed", "3"]
"""
"""Six games of three built-in bots as processes, seeded: their moves repeat."""

CLUE = """
game = "speedclue"
seats = 3
seatings = "permutations"
seed = 5
concurrency = 2
[[bots]]
name = "deducer"
builtin = "deducer"
args = ["--seed", "1"]
[[bots]]
name = "random-1"
builtin = "random"
args = ["--seed", "2"]
[[bots]]
name = "random-2"
builtin = "random"
args = ["--seed", "3"]
"""
"""Every seat order of three bots that stay connected for a session: two sessions."""


def test_stones_and_speed_clue_on_separate_machines_store_the_local_games(
    tmp_path: Path,
) -> None:
    contest = tmp_path / "contest"  # the bots' folder: the machines have copies of it
    contest.mkdir()
    runs = {}
    for name, text in (("stones", STONES), ("clue", CLUE)):
        for where in ("local", "machines"):
            path = contest / f"{name}-{where}.toml"
            files = f'database = "{tmp_path / where}.sqlite"\nlogs = "{tmp_path / where}-logs"\n'
            path.write_text(files + text)
            runs[name, where] = path
    here = {name: run_prepared(prepare(runs[name, "local"])) for name in ("stones", "clue")}
    with (
        separate_machines() as bed,
        bed.cluster(tmp_path / "cluster", machines=2, shipped={contest: contest}) as (cluster, _),
    ):
        options = {"scheduler": cluster.scheduler_address}
        there = {
            name: run_prepared(
                prepare(runs[name, "machines"], executor="dask", executor_options=options)
            )
            for name in ("stones", "clue")
        }

    for name, played in (("stones", 6), ("clue", 6)):
        assert here[name].errors == there[name].errors == []
        assert here[name].played == there[name].played == played
        local = game_outcomes(here[name].run.database, here[name].run.run_id)
        assert game_outcomes(there[name].run.database, there[name].run.run_id) == local
