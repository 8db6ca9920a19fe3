"""``arena init`` starter files: commented, and valid for any game as they are written."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest
from match_fakes import FakeGame, Nim, Rps, Stones, make_registries

from arena_kernel.errors import PluginError
from arena_kernel.games.base import BuiltinBot, Game, Option
from arena_kernel.match.loader import validate
from arena_kernel.match.starter import MAX_LISTED_BOTS, starter_file
from arena_kernel.referee.clocks import Clocks


class Crowd(FakeGame):
    """Many built-in bots, more seats than bots are listed, unusual option types."""

    name = "crowd"
    seats = (5, 6)
    clocks = Clocks(startup=2, reply=0.25, kill=0)
    options = {
        "weights": Option([1, 2.5], "Initial weights"),
        "layout": Option({"rows": 3, "names": ["a b", 'c"d']}, "Board layout"),
        "empty": Option({}, "Nothing at all"),
        "label": Option('quote " and \\ backslash', ""),
        "unset": Option(None, "No default"),
        "odd key": Option(1, "A key that TOML must quote", choices=(1, 2)),
    }
    bots = {f"bot{n}": BuiltinBot(f"Bot number {n}", f"crowd.bot{n}") for n in range(7)}


class Solo(FakeGame):
    name = "solo"
    seats = (1,)
    bots = {"only": BuiltinBot("", "solo.only", inproc=object)}


class Pair(FakeGame):
    """One built-in bot for two seats: the starter must still name two distinct bots."""

    name = "pair"
    bots = {"copy": BuiltinBot("Copies", "pair.copy"), "copy-2": BuiltinBot("", "pair.c2")}
    seats = (3,)


ALL_GAMES = (Stones, Nim, Rps, Crowd, Solo, Pair)


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda game: game.name)
def test_starter_loads_back_with_the_game_defaults(game: type[Game], tmp_path: Path) -> None:
    registries = make_registries(*ALL_GAMES)
    text = starter_file(game.name, registries)
    path = tmp_path / "match.toml"
    spec = validate(tomllib.loads(text), path, text, registries)
    assert spec.game == game.name
    assert spec.seats == (min(game.seats),)
    assert len(spec.bots) >= max(2, *spec.seats)
    assert spec.game_options == game.validate_options({})
    assert spec.clock == dataclasses.asdict(game.clocks)
    if game.bots:
        assert all(bot.builtin in game.bots for bot in spec.bots)
    else:
        assert all(bot.cmd for bot in spec.bots)


def test_starter_lists_options_with_help_and_the_built_in_bots() -> None:
    text = starter_file("stones", make_registries(Stones))
    assert "# Number of heaps\n# (at least 1; at most 19)\nsize = 9\n" in text
    assert '# (one of "normal", "misere")\nrule = "normal"\n' in text
    assert "# Let the second player swap sides\n# after the first move\nswap = false\n" in text
    assert 'builtin = "random"  # Takes at random\n# inproc = true' in text
    assert 'builtin = "greedy"  # Takes the most\n\n' in text
    assert "reply = 2.0\n" in text and "game = 30.0\n" in text
    assert '# cmd = ["python3", "my_bot.py"]' in text and "# connect = true" in text


def test_starter_lists_few_bots_and_names_the_rest() -> None:
    raw = tomllib.loads(starter_file("crowd", make_registries(Crowd)))
    listed = [bot["builtin"] for bot in raw["bots"]]
    assert listed == [f"bot{n}" for n in range(max(5, MAX_LISTED_BOTS))]
    assert "#   bot6: Bot number 6" in starter_file("crowd", make_registries(Crowd))


def test_starter_repeats_bots_under_new_names_when_seats_need_more() -> None:
    raw = tomllib.loads(starter_file("pair", make_registries(Pair)))
    assert [(b["name"], b["builtin"]) for b in raw["bots"]] == [
        ("copy", "copy"),
        ("copy-2", "copy-2"),
        ("copy-3", "copy"),
    ]


def test_starter_for_a_game_without_bots_uses_commands() -> None:
    raw = tomllib.loads(starter_file("rps", make_registries(Rps)))
    assert [bot["cmd"] for bot in raw["bots"]] == [["python3", "bot1.py"], ["python3", "bot2.py"]]


def test_starter_for_an_unknown_game() -> None:
    with pytest.raises(PluginError, match=r'unknown game "stnoes" \(did you mean "stones"\?\)'):
        starter_file("stnoes", make_registries(Stones))
