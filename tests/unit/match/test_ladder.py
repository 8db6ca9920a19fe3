"""A league's ladder: rated bots best first by their Plackett-Luce rating over every
counted game, then the unrated ones in the league's order, each with its status."""

from __future__ import annotations

from arena_kernel.match.ladder import ladder, ladder_table
from arena_kernel.scoring.plackett_luce import PlackettLuceScorer
from arena_kernel.scoring.played import PlayedGame
from arena_kernel.store.league import LeagueBlock, LeagueBot


def bot(number: int, seat: str, joined: int = 0, retired: int | None = None) -> LeagueBot:
    return LeagueBot(number, seat, seat, 1, "x", {}, joined, retired)


def test_the_ladder_ranks_by_rating_and_says_who_plays() -> None:
    games = [
        PlayedGame(i, seating, ranks, False)
        for i, (seating, ranks) in enumerate(
            [(("a", "b"), (1, 2)), (("b", "c"), (1, 2)), (("c", "a"), (2, 1)), (("b", "a"), (1, 1))]
            * 3
        )
    ]
    games.append(PlayedGame(12, ("c", "d"), (1, 2), True))
    bots = [bot(1, "c"), bot(2, "a"), bot(3, "b", retired=2), bot(4, "d"), bot(5, "e", joined=2)]
    blocks = [LeagueBlock(0, 0, ("a", "b", "c"), (("a", "b"),) * 8), LeagueBlock(1, 8, ("a",), ())]
    rungs = ladder(games, bots, blocks, {"d"})
    assert [(r.place, r.bot.seat, r.games, r.status) for r in rungs] == [
        (1, "a", 9, "plays"),
        (2, "b", 9, "retired"),
        (3, "c", 6, "plays"),
        (None, "d", 0, "out"),
        (None, "e", 0, "joins"),
    ]
    expected = PlackettLuceScorer().standings(games, ["a", "b", "c"]).rows
    assert [(r.bot.seat, round(r.rating, 1), round(r.error, 1)) for r in rungs[:3]] == [
        row[:3] for row in expected
    ]
    table = ladder_table(rungs, blocks, 13)
    assert table.title == "League: 13 games stored, 2 blocks"
    assert table.rows[4] == (None, "e", None, None, 0, "joins", None)
    assert table.rows[0][-1] == 0
