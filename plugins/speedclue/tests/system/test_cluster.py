"""Speed Clue sessions (bots connected for many games) played on a Dask cluster store
the very games the local executor stores for the same match file: a session is played
whole by one worker, with the same games in the same order on the same bots."""

from __future__ import annotations

from pathlib import Path

from arena_kernel.testkit import game_outcomes, run_match

CONTEST = """
seats = [3, 4]
seatings = "permutations"
seed = 5
concurrency = 2
[game_options]
violations = "forfeit"
"""

BOTS = {"deducer-1": "deducer", "deducer-2": "deducer", "random-1": "random", "random-2": "random"}


def seeded(text: str) -> str:
    """Each built-in bot with a seed of its own, so that its choices repeat."""
    for number, bot in enumerate(BOTS, start=1):
        head = f'name = "{bot}"\nbuiltin = "{BOTS[bot]}"'
        text = text.replace(head, f'{head}\nargs = ["--seed", "{number}"]')
    return text


def test_sessions_on_the_cluster_store_the_local_games(
    clue_match, dask_cluster, tmp_path: Path
) -> None:
    path = clue_match(BOTS, CONTEST)
    text = seeded(path.read_text())
    path.write_text(text)
    local = tmp_path / "local.toml"
    local.write_text(text.replace("arena.sqlite", "local.sqlite").replace("/logs", "/local-logs"))

    here = run_match(local)
    there = run_match(
        path, executor="dask", executor_options={"scheduler": dask_cluster.scheduler_address}
    )

    assert here.errors == there.errors == []
    assert there.played == here.played == 4 * 6 + 24  # 4 groups of 3, 1 of 4, every order
    assert {g[1] for g in game_outcomes(there.run.database)} == {0, 1}  # two sessions
    assert game_outcomes(there.run.database) == game_outcomes(here.run.database)
