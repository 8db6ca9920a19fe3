"""A league on a real Dask cluster plans and stores the games the local executor does:
two sittings of a three-seat league of duel bots, a bot joining in the second, the
second sitting resumed by the other executor."""

from __future__ import annotations

from pathlib import Path

from arena_kernel.runner.api import prepare, run_prepared
from arena_kernel.runner.league import Sitting
from arena_kernel.store import Store
from arena_kernel.testing.results import game_outcomes

LEAGUE = """\
game = "duel"
plugins = ["arena_kernel.testing.duel"]
format = "league"
seats = 3
seed = 5
concurrency = 2
[league]
block = 4
"""

BOTS = ("elo100", "elo700", "elo300", "elo500", "elo900")


def bots(names: tuple[str, ...]) -> str:
    return "".join(f'[[bots]]\nname = "{n}"\nbuiltin = "{n}"\ninproc = true\n' for n in names)


def play(write_match, folder: Path, executors: tuple[str, str], address: str) -> Path:
    where = f'database = "{folder / "league.sqlite"}"\nlogs = "{folder / "logs"}"\n'
    for names, games, executor in ((BOTS, 10, executors[0]), ((*BOTS, "elo1100"), 9, executors[1])):
        path = write_match(where + LEAGUE + bots(names), name=f"{folder.name}.toml")
        options = {"scheduler": address} if executor == "dask" else None
        prepared = prepare(path, executor=executor, executor_options=options)
        summary = run_prepared(prepared, sitting=Sitting(games=games))
        assert summary.errors == [] and summary.played == games
    return folder / "league.sqlite"


def planned(database: Path) -> tuple[list, list]:
    with Store(database) as store:
        return store.league_blocks(1), store.rating_history(1)


def test_a_league_on_the_cluster_plays_the_games_it_plays_here(
    write_match, dask_cluster, tmp_path: Path
) -> None:
    address = dask_cluster.scheduler_address
    folders = [tmp_path / name for name in ("local", "dask", "both")]
    for folder in folders:
        folder.mkdir()
    here = play(write_match, folders[0], ("local", "local"), address)
    there = play(write_match, folders[1], ("dask", "dask"), address)
    both = play(write_match, folders[2], ("dask", "local"), address)

    assert game_outcomes(there) == game_outcomes(here) == game_outcomes(both)
    assert planned(there) == planned(here) == planned(both)
    blocks, _ratings = planned(here)
    assert all(len(seating) == 3 for block in blocks for seating in block.games)
    assert any("elo1100" in seating for seating in blocks[-1].games)
