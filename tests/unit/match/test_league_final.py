"""A league's final: the top N rated bots that still play, seeded by the ladder, each
under its ladder name with its file's table, in the format [league] final says."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena_kernel.errors import ArenaError
from arena_kernel.match.final import final_spec
from arena_kernel.match.ladder import Rung
from arena_kernel.store.league import LeagueBot

HEAD = 'game = "stones"\nformat = "league"\nseed = 4\n'
BOTS = "".join(
    f'[[bots]]\nname = "{name}"\nbuiltin = "greedy"\nargs = ["--seed", "{i}"]\n'
    for i, name in enumerate(("ann", "bo", "cy", "di"))
)


def rung(place: int | None, seat: str, status: str = "plays", version: int = 1) -> Rung:
    name = seat.split(" ")[0]
    bot = LeagueBot(place or 9, seat, name, version, "x", {}, 0, None)
    return Rung(place, bot, None if place is None else 1600.0 - place, 30.0, 10, status)


LADDER = [
    rung(1, "cy v2", version=2),
    rung(2, "ann", status="retired"),
    rung(3, "di"),
    rung(4, "ann v2", version=2),
    rung(5, "bo"),
    rung(None, "cy"),
]


def test_a_round_robin_final_of_the_best_that_still_play(load, tmp_path: Path) -> None:
    league = load(HEAD + "[league]\nfinal_rounds = 2\n" + BOTS)
    final = final_spec(league, LADDER, 3, tmp_path / "league.sqlite")
    assert [bot.name for bot in final.bots] == ["cy v2", "di", "ann v2"]
    assert [bot.args for bot in final.bots] == [("--seed", "2"), ("--seed", "3"), ("--seed", "0")]
    assert (final.format, final.rounds, final.league, final.knockout) == ("round-robin", 2, {}, {})
    assert final.name == "match-final" and final.database == tmp_path / "league.sqlite"
    assert final.key() != league.key()


def test_a_knockout_final_seeded_by_the_ladder(load, tmp_path: Path) -> None:
    league = load(HEAD + '[league]\nfinal = "knockout"\n' + BOTS)
    final = final_spec(league, LADDER, 4, tmp_path / "league.sqlite")
    assert [bot.name for bot in final.bots] == ["cy v2", "di", "ann v2", "bo"]
    assert final.format == "knockout" and final.knockout == {"games": 2, "tiebreak": 2}
    with pytest.raises(ArenaError, match="has 4 rated bots that still play, fewer than the top 5"):
        final_spec(league, LADDER, 5, tmp_path / "league.sqlite")
    three = load(HEAD + 'seats = 3\n[league]\nfinal = "knockout"\n' + BOTS)
    with pytest.raises(ArenaError, match='final = "knockout" plays two-player ties'):
        final_spec(three, LADDER, 4, tmp_path / "league.sqlite")
