"""A real league of stones built-ins, played by ``arena run`` in three sittings: the first
stopped by --games in the middle of a block, the second (with a bot added) by Ctrl-C, the
third to the end. It stores the same games, blocks and ratings as the same league played
in two uninterrupted sittings, the bot added at the same block."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from arena_kernel.store import Store

ARENA = [sys.executable, "-m", "arena_kernel"]

LEAGUE = """\
game = "stones"
format = "league"
seed = 21
concurrency = 2
[league]
block = 4
[game_options]
setup = "random"
[[bots]]
name = "r1"
builtin = "random"
args = ["--seed", "1"]
[[bots]]
name = "g1"
builtin = "greedy"
args = ["--seed", "1"]
[[bots]]
name = "r2"
builtin = "random"
args = ["--seed", "2"]
"""

JOINS = """\
[[bots]]
name = "g2"
builtin = "greedy"
args = ["--seed", "2"]
"""

TOTAL = 24


def arena(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*ARENA, *args], cwd=folder, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return done


def stored(folder: Path) -> int:
    try:
        with sqlite3.connect(folder / "arena.sqlite") as db:
            return int(db.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def league(folder: Path) -> tuple[list, list, list, list]:
    """What two plays of the league must have stored alike: each game (index, seed,
    seating, ranks, reason), the blocks, the bots and the ratings after each block."""
    with Store(folder / "arena.sqlite") as store:
        (run,) = store.runs()
        games = [
            (g.index, g.seed, g.seating, g.ranks, g.reason, g.void) for g in store.games(run.run_id)
        ]
        bots = [(b.seat, b.identity, b.joined, b.retired) for b in store.league_bots(run.run_id)]
        return games, store.league_blocks(run.run_id), bots, store.rating_history(run.run_id)


def test_three_sittings_store_the_games_of_an_uninterrupted_league(tmp_path: Path) -> None:
    sittings, straight = tmp_path / "sittings", tmp_path / "straight"
    for folder in (sittings, straight):
        folder.mkdir()
        (folder / "league.toml").write_text(LEAGUE)

    arena(sittings, "run", "league.toml", "--games", "6", "-q")
    assert stored(sittings) == 6
    with (sittings / "league.toml").open("a") as file:
        file.write(JOINS)
    second = subprocess.Popen(
        [*ARENA, "run", "league.toml", "-q"],
        cwd=sittings,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 240
    while stored(sittings) < 14 and second.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(second.pid, signal.SIGINT)
    _out, err = second.communicate(timeout=120)
    assert second.returncode == 130, err
    assert "arena: interrupted" in err
    middle = stored(sittings)
    assert 14 <= middle < TOTAL
    third = arena(sittings, "run", "league.toml", "--games", str(TOTAL - middle), "-q")
    assert f"{TOTAL - middle} games played now" in third.stdout
    games, blocks, bots, ratings = league(sittings)
    (joined,) = [b for b in bots if b[0] == "g2"]
    assert joined[2] == 2, "g2 joins at the block after the one the first sitting left"

    arena(straight, "run", "league.toml", "--games", str(blocks[2].first_index), "-q")
    with (straight / "league.toml").open("a") as file:
        file.write(JOINS)
    arena(straight, "run", "league.toml", "--games", str(TOTAL - blocks[2].first_index), "-q")

    assert league(straight) == (games, blocks, bots, ratings)
    assert [g[0] for g in games] == list(range(TOTAL))
    assert all(set(block.bots) == {"r1", "g1", "r2", "g2"} for block in blocks[2:])
    assert any("g2" in seating for block in blocks[2:] for seating in block.games)
    assert len(ratings) > 0 and {p.block for p in ratings} == set(range(TOTAL // 4))
