"""A league from the command line: sittings cut by --games and --until, the ladder in
``arena run``, ``arena standings`` and ``arena export``, its final (``--from-league DB
--top N``), a bot whose version changed refused in one line or rated afresh, and the
league-only flags refused elsewhere."""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from pathlib import Path

from arena_cli import arena, one_error_line

LEAGUE = """\
game = "duel"
plugins = ["arena_kernel.testing.duel"]
format = "league"
seed = 9
[league]
block = 4
"""


def inproc(*names: str) -> str:
    return "".join(f'[[bots]]\nname = "{n}"\nbuiltin = "{n}"\ninproc = true\n' for n in names)


def test_a_league_its_ladder_and_its_final(tmp_path: Path) -> None:
    (tmp_path / "league.toml").write_text(LEAGUE + inproc("elo0", "elo600", "elo1200", "elo1800"))
    first = arena("run", "league.toml", "--games", "6", "-q", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "6 games played now, 0 already stored" in first.stdout
    assert "League: 6 games stored, 2 blocks" in first.stdout
    before = time.time()
    timed = arena("run", "league.toml", "--until", "3s", "-q", cwd=tmp_path)
    after = time.time()
    assert timed.returncode == 0, timed.stderr
    with sqlite3.connect(tmp_path / "arena.sqlite") as db:
        starts = [t for (t,) in db.execute("SELECT started_at FROM games WHERE idx >= 6")]
    db.close()
    assert all(before < start < after + 3 + 1 for start in starts), "none after the time"
    assert arena("run", "league.toml", "--games", "30", "-q", cwd=tmp_path).returncode == 0
    total = 36 + len(starts)

    standings = arena("standings", "arena.sqlite", cwd=tmp_path)
    assert standings.returncode == 0, standings.stderr
    ladder = standings.stdout.split("League: ")[1].splitlines()
    assert ladder[0] == f"{total} games stored, {-(-total // 4)} blocks"
    order = ["elo1800", "elo1200", "elo600", "elo0"]
    assert [line.split()[1] for line in ladder[3:7]] == order

    exported = arena("export", "arena.sqlite", "--format", "json", cwd=tmp_path)
    document = json.loads(exported.stdout)
    assert [row["bot"] for row in document["ladder"]] == order
    assert {row["status"] for row in document["ladder"]} == {"plays"}
    assert {row["block"] for row in document["ratings"]} == set(range(total // 4))

    final = arena("run", "--from-league", "arena.sqlite", "--top", "3", "-q", cwd=tmp_path)
    assert final.returncode == 0, final.stderr
    assert final.stdout.startswith("run 2 (league-final): 6 games played now")
    again = arena("run", "--from-league", "arena.sqlite", "--top", "3", "-q", cwd=tmp_path)
    assert again.stdout.startswith("run 2 (league-final): 0 games played now, 6 already stored")
    with_file = arena(
        "run", "league.toml", "--from-league", "arena.sqlite", "--top", "3", cwd=tmp_path
    )
    one_error_line(with_file, "give no MATCH_FILE")
    one_error_line(arena("run", "--from-league", "arena.sqlite", cwd=tmp_path), "needs --top N")
    one_error_line(
        arena("run", "--from-league", "arena.sqlite", "--top", "5", cwd=tmp_path),
        "the league has 4 rated bots that still play, fewer than the top 5",
    )
    one_error_line(arena("run", "league.toml", "--until", "soon", cwd=tmp_path), "not a time")


def test_league_flags_are_refused_for_other_formats(tmp_path: Path) -> None:
    (tmp_path / "nim.toml").write_text(
        'game = "nim"\nplugins = ["arena_kernel.testing.games"]\n' + inproc("optimal", "random")
    )
    one_error_line(
        arena("run", "nim.toml", "--games", "3", cwd=tmp_path),
        '--games is for a league (format = "league")',
    )


BOT = """\
import runpy, sys
sys.argv = ["duel_bot", "{elo}"]
runpy.run_module("arena_kernel.testing.duel_bot", run_name="__main__")
"""


def test_a_bot_whose_version_changed_is_refused_or_rated_afresh(tmp_path: Path) -> None:
    for name, elo in (("alice", 700), ("bob", 300)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "bot.py").write_text(BOT.format(elo=elo))
    bots = "".join(
        f'[[bots]]\nname = "{name}"\ncmd = ["{sys.executable}", "bot.py"]\ncwd = "{name}"\n'
        for name in ("alice", "bob")
    )
    (tmp_path / "league.toml").write_text(LEAGUE + bots + inproc("elo500"))
    assert arena("run", "league.toml", "--games", "3", "-q", cwd=tmp_path).returncode == 0

    (tmp_path / "alice" / "bot.py").write_text(BOT.format(elo=900))
    refused = arena("run", "league.toml", "-q", cwd=tmp_path)
    one_error_line(refused, 'bot "alice" runs something else', "(bot.py changed)", "--new-rating")

    alone = bots.split('[[bots]]\nname = "bob"')[0]
    (tmp_path / "league.toml").write_text(LEAGUE + alone + inproc("elo500"))
    one_error_line(arena("run", "league.toml", cwd=tmp_path), 'bot "bob" has', "retired = true")
    (tmp_path / "league.toml").write_text(LEAGUE + bots + inproc("elo500"))

    afresh = arena(
        "run", "league.toml", "--new-rating", "alice", "--games", "5", "-q", cwd=tmp_path
    )
    assert afresh.returncode == 0, afresh.stderr
    assert '"alice v2"' not in afresh.stderr
    document = json.loads(arena("export", "arena.sqlite", "--format", "json", cwd=tmp_path).stdout)
    status = {
        row["bot"]: (row["name"], row["version"], row["status"]) for row in document["ladder"]
    }
    assert status == {
        "alice": ("alice", 1, "retired"),
        "alice v2": ("alice", 2, "plays"),
        "bob": ("bob", 1, "plays"),
        "elo500": ("elo500", 1, "plays"),
    }
    more = arena("run", "league.toml", "--games", "2", "-q", cwd=tmp_path)
    assert more.returncode == 0, more.stderr
