"""A league's bots against its match file: keyed by what they run, a changed version
refused in one line or rated afresh, a bot that left the file refused, retirements and
returns, and the match-file keys of a league."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from match_fakes import Stones

from arena_kernel.errors import ArenaError
from arena_kernel.match.bot_identity import digest, what_it_runs
from arena_kernel.match.league import Roster, playable, roster
from arena_kernel.store.league import LeagueBlock

HEAD = 'game = "stones"\nformat = "league"\ndatabase = "data/league.sqlite"\n'


def bot(name: str, how: str, retired: bool = False) -> str:
    return f'[[bots]]\nname = "{name}"\n{how}\n' + ("retired = true\n" if retired else "")


def league(tmp_path: Path, load, *bots: str):
    for folder in ("ann", "bo"):
        (tmp_path / folder).mkdir(exist_ok=True)
        if not (tmp_path / folder / "bot.py").exists():
            (tmp_path / folder / "bot.py").write_text(f"print('{folder}')\n")
    return load(HEAD + "".join(bots))


ANN = 'cmd = ["python3", "bot.py"]\ncwd = "ann"'
BO = 'cmd = ["python3", "bo/bot.py"]'
CY = 'builtin = "greedy"'


def first(tmp_path: Path, load) -> tuple[object, Roster]:
    spec = league(tmp_path, load, bot("ann", ANN), bot("bo", BO), bot("cy", CY))
    return spec, roster(spec, Stones, [], {}, 0, None)


def test_new_bots_join_keyed_by_what_they_run(tmp_path: Path, load) -> None:
    spec, found = first(tmp_path, load)
    assert [(b.seat, b.version, b.joined, b.retired) for b in found.added] == [
        ("ann", 1, 0, None),
        ("bo", 1, 0, None),
        ("cy", 1, 0, None),
    ]
    ann, bo, _cy = found.added
    assert ann.runs["files"] == {"bot.py": ann.runs["files"]["bot.py"]}
    assert bo.runs["files"].keys() == {"bo/bot.py"}
    assert ann.identity == digest(what_it_runs(spec.bots[0], spec, Stones)) != bo.identity
    assert found.playing(0) == ["ann", "bo", "cy"]


def test_what_a_bot_runs_leaves_out_its_folders_path_and_what_running_it_writes(
    tmp_path: Path, load
) -> None:
    spec, found = first(tmp_path, load)
    (tmp_path / "ann" / "__pycache__").mkdir()
    (tmp_path / "ann" / "__pycache__" / "bot.cpython-311.pyc").write_text("x")
    (tmp_path / "bo" / "notes.txt").write_text("not in its command")
    again = roster(
        league(tmp_path, load, bot("ann", ANN), bot("bo", BO), bot("cy", CY)),
        Stones,
        found.added,
        {},
        1,
        None,
    )
    assert again.added == () and again.retired == {}
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    (moved / "bot.py").write_text("print('ann')\n")
    spec = league(
        tmp_path, load, bot("ann", f'cmd = ["python3", "bot.py"]\ncwd = "{moved}"'), bot("cy", CY)
    )
    ann = found.added[0]
    assert digest(what_it_runs(spec.bots[0], spec, Stones)) == ann.identity


def test_a_changed_version_is_refused_in_one_line_saying_what_changed(tmp_path: Path, load) -> None:
    _spec, found = first(tmp_path, load)
    (tmp_path / "ann" / "bot.py").write_text("print('ann 2')\n")
    (tmp_path / "ann" / "weights.bin").write_bytes(b"\0")
    spec = league(tmp_path, load, bot("ann", ANN), bot("bo", BO), bot("cy", CY))
    with pytest.raises(ArenaError) as caught:
        roster(spec, Stones, found.added, {"ann": 12}, 3, None)
    message = str(caught.value)
    assert "\n" not in message
    assert message.endswith(
        'bot "ann" runs something else than the one its 12 stored games in this league were '
        "played by (bot.py changed, weights.bin is new): give the new version a name of its "
        'own, or run with --new-rating ann to rate it afresh as "ann v2"'
    )
    (tmp_path / "ann" / "bot.py").write_text("print('ann')\n")
    (tmp_path / "ann" / "weights.bin").unlink()
    spec = league(
        tmp_path,
        load,
        bot("ann", ANN),
        bot("bo", 'cmd = ["python3", "bo/bot.py", "-v"]'),
        bot("cy", CY),
    )
    with pytest.raises(ArenaError, match=r'"bo" runs something else .*\(its cmd changed\)'):
        roster(spec, Stones, found.added, {}, 3, None)


def test_a_new_rating_is_a_bot_of_its_own_and_retires_the_old_one(tmp_path: Path, load) -> None:
    _spec, found = first(tmp_path, load)
    (tmp_path / "ann" / "bot.py").write_text("print('ann 2')\n")
    spec = league(tmp_path, load, bot("ann", ANN), bot("bo", BO), bot("cy", CY))
    blocks = 3
    again = roster(spec, Stones, found.added, {}, blocks, None, new_ratings=("ann",))
    (new,) = again.added
    assert (new.seat, new.name, new.version, new.joined, new.number) == ("ann v2", "ann", 2, 3, 4)
    assert again.retired == {"ann": 3}
    assert again.tables["ann v2"].name == "ann v2" and "ann" not in again.tables
    assert again.playing(3) == ["bo", "cy", "ann v2"]
    with pytest.raises(ArenaError, match="--new-rating dan: there is no bot of that name"):
        roster(spec, Stones, found.added, {}, blocks, None, new_ratings=("dan",))


def test_a_bot_that_left_the_file_is_refused(tmp_path: Path, load) -> None:
    _spec, found = first(tmp_path, load)
    spec = league(tmp_path, load, bot("ann", ANN), bot("cy", CY))
    with pytest.raises(ArenaError, match=r'bot "bo" has 1 stored game in this league but no '):
        roster(spec, Stones, found.added, {"bo": 1}, 1, None)


def test_retired_bots_play_no_more_from_the_next_game(tmp_path: Path, load) -> None:
    _spec, found = first(tmp_path, load)
    spec = league(tmp_path, load, bot("ann", ANN, retired=True), bot("bo", BO), bot("cy", CY))
    (tmp_path / "ann" / "bot.py").unlink()  # a retired bot's files may be gone
    in_progress = roster(spec, Stones, found.added, {}, 5, 4)
    assert in_progress.retired == {"ann": 4} and "ann" not in in_progress.tables
    between = roster(spec, Stones, found.added, {}, 5, None)
    assert between.retired == {"ann": 5}
    block = LeagueBlock(4, 40, ("ann", "bo", "cy"), (("ann", "bo"), ("bo", "cy"), ("cy", "ann")))
    assert playable(block, in_progress.bots) == [41]
    assert playable(block, between.bots) == [40, 41, 42]
    (tmp_path / "ann" / "bot.py").write_text("print('ann')\n")
    back = roster(
        league(tmp_path, load, bot("ann", ANN), bot("bo", BO), bot("cy", CY)),
        Stones,
        [dataclasses.replace(b, retired=5) if b.seat == "ann" else b for b in found.added],
        {},
        7,
        None,
    )
    assert back.retired == {"ann": None} and back.playing(7) == ["ann", "bo", "cy"]
    unknown = roster(spec, Stones, [], {}, 0, None)
    assert [b.seat for b in unknown.added] == ["bo", "cy"]


def test_a_league_is_one_run_whatever_its_bots(tmp_path: Path, load) -> None:
    spec, _found = first(tmp_path, load)
    fewer = league(tmp_path, load, bot("ann", ANN), bot("cy", CY))
    assert spec.key() == fewer.key()
    tuned = load(
        HEAD + '[league]\nblock = 7\npairing = "uniform"\n' + bot("ann", ANN) + bot("cy", CY)
    )
    assert tuned.key() == spec.key() and tuned.league["block"] == 7
    assert load(HEAD.replace("league", "round-robin", 1) + bot("a", CY) + bot("b", CY)).key() != (
        spec.key()
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HEAD + "rounds = 2\n" + bot("a", CY) + bot("b", CY), 'format = "league" takes no rounds'),
        (HEAD + "games = 9\n" + bot("a", CY) + bot("b", CY), 'format = "league" takes no games'),
        (HEAD + "seats = [2, 3]\n" + bot("a", CY) + bot("b", CY) + bot("c", CY), "one seat count"),
        (
            HEAD + bot("a", CY) + bot("b", CY, retired=True),
            "needs at least 2 bots that are not retired, but there are 1",
        ),
        (
            'game = "stones"\n[league]\nblock = 3\n' + bot("a", CY) + bot("b", CY),
            '[league] is only used with format = "league"',
        ),
        (
            'game = "stones"\n' + bot("a", CY) + bot("b", CY, retired=True),
            'bots[2].retired only applies to format = "league"',
        ),
        (HEAD + "[league]\nleast = 2\n" + bot("a", CY) + bot("b", CY), "least must be at most 1"),
        (HEAD + "[league]\npairs = 2\n" + bot("a", CY) + bot("b", CY), "pairs"),
    ],
)
def test_league_keys_are_checked(fails, text: str, message: str) -> None:
    assert message in fails(text)
