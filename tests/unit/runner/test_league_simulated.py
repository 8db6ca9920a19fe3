"""A simulated league through the runner: in-process duel bots of known strength join in
three sittings and one retires; the ladder ends in the true order, sooner with the
league's matchmaking than with uniformly random tables, and every bot's games of each
block stay within its share."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from arena_kernel.match.matchmaking import shares
from arena_kernel.runner.api import run_match
from arena_kernel.runner.league import Sitting
from arena_kernel.store import Store

STRENGTHS = {
    "nine": 900,
    "low": 0,
    "five": 500,
    "ten": 1000,
    "three": 300,
    "seven": 700,
    "four": 400,
    "eight": 800,
    "six": 600,
}
"""The bots and their Elo, in the order they appear in the file."""

SITTINGS = [
    (["nine", "low", "five", "ten", "three"], [], 50),
    (["nine", "low", "five", "ten", "three", "seven", "four"], [], 60),
    (list(STRENGTHS), ["low"], 340),
]
"""Each sitting's bots, those of them retired, and its games."""

BLOCK = 10


def match(pairing: str, bots: list[str], retired: list[str], database: Path) -> str:
    text = (
        'game = "duel"\nplugins = ["arena_kernel.testing.duel"]\nformat = "league"\nseed = 12\n'
        f'database = "{database}"\n[league]\nblock = {BLOCK}\npairing = "{pairing}"\n'
    )
    for bot in bots:
        text += f'[[bots]]\nname = "{bot}"\nbuiltin = "elo{STRENGTHS[bot]}"\ninproc = true\n'
        if bot in retired:
            text += "retired = true\n"
    return text


def settled(store: Store, run_id: int) -> int | None:
    """The games after which every block's ladder had every bot in its true order, to
    the end (None: not in order at the end)."""
    by_block: dict[int, list] = {}
    for point in store.rating_history(run_id):
        by_block.setdefault(point.block, []).append(point)
    since = None
    for block in sorted(by_block):
        points = by_block[block]
        order = [p.bot for p in sorted(points, key=lambda p: -p.rating)]
        if order != sorted(order, key=lambda bot: -STRENGTHS[bot]):
            since = None
        elif since is None:
            since = points[0].games
    return since


def play(write_match: Callable[..., Path], pairing: str, database: Path) -> int | None:
    """Play the sittings; the games after which the ladder was settled."""
    for bots, retired, games in SITTINGS:
        path = write_match(match(pairing, bots, retired, database), name=f"{pairing}.toml")
        summary = run_match(path, sitting=Sitting(games=games))
        assert summary.errors == [] and summary.played == games
    with Store(summary.run.database) as store:
        run_id = summary.run.run_id
        blocks = store.league_blocks(run_id)
        if pairing == "adaptive":
            for block in blocks:
                least, most = shares(BLOCK, 2, len(block.bots), 0.5, 2.0)
                played = Counter(bot for game in block.games for bot in game)
                assert all(least <= played[bot] <= most for bot in block.bots), block
        joined = {bot.seat: bot.joined for bot in store.league_bots(run_id)}
        assert joined == dict.fromkeys(SITTINGS[0][0], 0) | {"seven": 5, "four": 5} | {
            "eight": 11,
            "six": 11,
        }
        assert all("low" not in block.bots for block in blocks[11:])
        assert "low" in blocks[10].bots
        return settled(store, run_id)


def test_a_simulated_league_ranks_its_bots_sooner_than_uniform_tables(
    write_match: Callable[..., Path], tmp_path: Path
) -> None:
    adaptive = play(write_match, "adaptive", tmp_path / "adaptive.sqlite")
    uniform = play(write_match, "uniform", tmp_path / "uniform.sqlite")
    print(f"settled after {adaptive} games (adaptive), {uniform} (uniform)")
    assert adaptive is not None, "the ladder ends in the true order"
    assert uniform is None or adaptive < uniform, (adaptive, uniform)
    with Store(tmp_path / "adaptive.sqlite") as store:
        last = store.rating_history(1)[-1].block
        ladder = [p.bot for p in store.rating_history(1) if p.block == last]
    assert ladder == sorted(STRENGTHS, key=lambda bot: -STRENGTHS[bot])
