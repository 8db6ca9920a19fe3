"""A round robin of Game of Stones played on a Dask cluster stores the very games the
local executor stores for the same match file (the bots seeded: the same moves)."""

from __future__ import annotations

from pathlib import Path

from arena_kernel.testkit import game_outcomes, run_match

ROUND_ROBIN = """
seed = 2014
rounds = 2
concurrency = 2
[game_options]
setup = "random"
"""

BOTS = {"first": "random", "second": "random", "greedy": "greedy"}


def test_a_round_robin_on_the_cluster_stores_the_local_games(
    arena_match, dask_cluster, tmp_path: Path
) -> None:
    path = arena_match("stones", BOTS, ROUND_ROBIN)
    text = path.read_text()
    for number, bot in enumerate(BOTS, start=1):  # seeded: each bot's moves repeat
        head = f'name = "{bot}"\nbuiltin = "{BOTS[bot]}"'
        text = text.replace(head, f'{head}\nargs = ["--seed", "{number}"]')
    path.write_text(text)
    local = tmp_path / "local.toml"
    local.write_text(text.replace("arena.sqlite", "local.sqlite").replace("/logs", "/local-logs"))

    here = run_match(local)
    there = run_match(
        path, executor="dask", executor_options={"scheduler": dask_cluster.scheduler_address}
    )

    assert here.errors == there.errors == []
    assert there.played == here.played == 12
    assert game_outcomes(there.run.database) == game_outcomes(here.run.database)
