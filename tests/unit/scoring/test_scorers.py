"""The built-in scorers: wins/draws/losses, Bradley-Terry Elo and openskill ratings."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from arena_kernel.model import Standings
from arena_kernel.scoring import EloScorer, OpenSkillScorer, Scorer, WinsScorer, fit_elo
from arena_kernel.scoring.builtin import arena_register_scorers
from arena_kernel.store import StoredGame


def games(*results: tuple[Sequence[str], Sequence[int]], void: bool = False) -> list[StoredGame]:
    """One stored game per ``(seating, ranks)``, indexed in order."""
    return [
        StoredGame(
            game_id=n + 1,
            index=n,
            seating=tuple(seating),
            ranks=tuple(ranks),
            scores=None,
            void=void,
            disqualified=frozenset(),
            reason="test",
        )
        for n, (seating, ranks) in enumerate(results)
    ]


def won(winner: str, loser: str, times: int = 1) -> list[tuple[Sequence[str], Sequence[int]]]:
    return [((winner, loser), (1, 2))] * times


def drew(a: str, b: str, times: int = 1) -> list[tuple[Sequence[str], Sequence[int]]]:
    return [((a, b), (1, 1))] * times


def rows_by_bot(table: Standings) -> dict[str, dict[str, object]]:
    return {row[0]: dict(zip(table.columns, row, strict=True)) for row in table.rows}


def reindexed(stored: list[StoredGame], start: int) -> list[StoredGame]:
    return [
        StoredGame(g.game_id, start + n, g.seating, g.ranks, None, g.void, g.disqualified, "")
        for n, g in enumerate(stored)
    ]


def test_builtin_hook_registers_the_four_scorers() -> None:
    registered: list[type] = []
    arena_register_scorers(register=registered.append)
    assert {cls.name for cls in registered} == {"wins", "elo", "openskill", "plackett-luce"}
    assert all(issubclass(cls, Scorer) and cls.summary for cls in registered)


# -- wins ------------------------------------------------------------------------------------


def test_wins_counts_two_player_games() -> None:
    table = WinsScorer().standings(
        games(*won("ann", "ben", 2), *drew("ben", "ann"), *won("ben", "ann")), ["ann", "ben"]
    )
    assert table.columns == (
        "bot",
        "games",
        "wins",
        "draws",
        "losses",
        "points",
        "win %",
        "mean rank",
    )
    assert table.rows == [
        ("ann", 4, 2, 1, 1, 2.5, 50.0, 1.25),
        ("ben", 4, 1, 1, 2, 1.5, 25.0, 1.5),
    ]
    assert table.notes == []


def test_wins_with_more_seats_shared_first_is_a_draw() -> None:
    table = WinsScorer().standings(
        games((("a", "b", "c"), (1, 1, 3)), (("a", "b", "c"), (1, 2, 2))), ["a", "b", "c"]
    )
    rows = rows_by_bot(table)
    assert (rows["a"]["wins"], rows["a"]["draws"], rows["a"]["losses"]) == (1, 1, 0)
    assert (rows["b"]["wins"], rows["b"]["draws"], rows["b"]["losses"]) == (0, 1, 1)
    assert (rows["c"]["wins"], rows["c"]["draws"], rows["c"]["losses"]) == (0, 0, 2)
    assert rows["c"]["mean rank"] == 2.5


def test_wins_sorted_by_points_then_wins_and_idle_bots_listed() -> None:
    stored = games(*won("zed", "bob"), *won("yan", "zed"), *drew("amy", "bob", 2))
    table = WinsScorer().standings(stored, ["amy", "bob", "idle", "yan", "zed"])
    assert [row[0] for row in table.rows] == ["yan", "zed", "amy", "bob", "idle"]
    assert table.rows[-1] == ("idle", 0, 0, 0, 0, 0.0, None, None)


def test_bots_missing_from_the_roster_still_get_a_row() -> None:
    table = WinsScorer().standings(games(*won("ann", "ghost")), ["ann"])
    assert [row[0] for row in table.rows] == ["ann", "ghost"]


# -- void games, for every scorer ------------------------------------------------------------


@pytest.mark.parametrize("scorer", [WinsScorer(), EloScorer(), OpenSkillScorer()])
def test_void_games_are_ignored(scorer: Scorer) -> None:
    real = games(*won("ann", "ben", 3), *won("ben", "ann"))
    void = reindexed(games(*won("ben", "ann", 5), void=True), start=len(real))
    bots = ["ann", "ben"]
    plain = scorer.standings(real, bots)
    mixed = scorer.standings(real + void, bots)
    assert mixed.rows == plain.rows
    assert mixed.notes == [*plain.notes, "5 void games not counted"]


# -- Elo -------------------------------------------------------------------------------------


def elo_of(table: Standings) -> dict[str, float]:
    return {bot: row["elo"] for bot, row in rows_by_bot(table).items()}


def test_elo_symmetric_results_give_equal_ratings() -> None:
    cycle = games(*won("a", "b", 4), *won("b", "c", 4), *won("c", "a", 4), *drew("a", "c"))
    ratings = elo_of(EloScorer().standings(cycle, ["a", "b", "c"]))
    assert ratings == {"a": 1500.0, "b": 1500.0, "c": 1500.0}


def test_elo_seventy_five_percent_is_191_points() -> None:
    table = EloScorer().standings(games(*won("a", "b", 300), *won("b", "a", 100)), ["a", "b"])
    assert table.columns == ("bot", "elo", "±95%", "games", "score %")
    (a, elo_a, _, games_a, score_a), (b, elo_b, _, _, score_b) = table.rows
    assert (a, b, games_a, score_a, score_b) == ("a", "b", 400, 75.0, 25.0)
    assert elo_a - elo_b == pytest.approx(400 * math.log10(3), abs=2)  # 190.85
    assert (elo_a + elo_b) / 2 == pytest.approx(1500)


def test_elo_draws_count_half() -> None:
    decisive = fit_elo([("a", "b", 1.0)] * 3 + [("a", "b", 0.0)])
    with_draws = fit_elo([("a", "b", 1.0)] * 2 + [("a", "b", 0.5)] * 2)
    assert with_draws["a"].elo == pytest.approx(decisive["a"].elo)
    assert with_draws["a"].elo > 1550


def test_elo_error_bars_shrink_with_more_games() -> None:
    few = fit_elo([("a", "b", 1.0)] * 30 + [("a", "b", 0.0)] * 10)
    many = fit_elo([("a", "b", 1.0)] * 300 + [("a", "b", 0.0)] * 100)
    assert many["a"].error < few["a"].error / 2.5
    # One standard error of a 75 % score over 400 games, in Elo, halved for each side.
    assert many["a"].error == pytest.approx(
        1.96 * 400 / math.log(10) / math.sqrt(400 * 0.75 * 0.25) / 2, rel=0.05
    )


def test_elo_all_wins_stays_finite_and_plausible() -> None:
    table = EloScorer().standings(games(*won("a", "b", 50)), ["a", "b"])
    (a, elo_a, error_a, *_), (b, elo_b, error_b, *_) = table.rows
    assert (a, b) == ("a", "b")
    # The prior's single draw holds a perfect score to a few hundred points, not thousands.
    assert 1800 < elo_a < 2200 and 800 < elo_b < 1200
    assert 0 < error_a == error_b < 400


def test_elo_ratings_average_1500_with_unequal_bots() -> None:
    results = [("a", "b", 1.0)] * 7 + [("b", "c", 1.0)] * 5 + [("c", "a", 0.5)] * 2
    ratings = fit_elo(results)
    assert sum(r.elo for r in ratings.values()) / 3 == pytest.approx(1500)
    assert ratings["a"].elo > ratings["b"].elo > ratings["c"].elo


def test_elo_skips_multiplayer_games_with_a_note() -> None:
    duels = games(*won("a", "b", 3), *won("b", "a"))
    three = reindexed(games((("a", "b", "c"), (3, 2, 1)), (("c", "b", "a"), (1, 2, 3))), 4)
    plain = EloScorer().standings(duels, ["a", "b", "c"])
    mixed = EloScorer().standings(duels + three, ["a", "b", "c"])
    assert mixed.rows == plain.rows
    assert mixed.rows[-1] == ("c", None, None, 0, None)
    assert len(mixed.notes) == 1 and mixed.notes[0].startswith("2 games with more than two")


# -- openskill -------------------------------------------------------------------------------


def test_openskill_consistent_winner_is_rated_highest() -> None:
    seatings = [("b", "ace", "c", "d"), ("c", "d", "ace", "b"), ("d", "b", "c", "ace")] * 4
    order = {"ace": 1, "b": 2, "c": 3, "d": 4}
    stored = games(*((s, [order[bot] for bot in s]) for s in seatings))
    table = OpenSkillScorer().standings(stored, ["b", "c", "d", "ace"])
    assert table.columns == ("bot", "mu", "sigma", "ordinal", "games")
    assert [row[0] for row in table.rows] == ["ace", "b", "c", "d"]
    assert all(row[4] == 12 for row in table.rows)
    ace = table.rows[0]
    assert ace[3] == pytest.approx(ace[1] - 3 * ace[2], abs=0.02)


def test_openskill_ties_share_the_rating() -> None:
    rows = rows_by_bot(OpenSkillScorer().standings(games(*drew("a", "b")), ["a", "b"]))
    assert rows["a"]["mu"] == rows["b"]["mu"] == pytest.approx(25.0)
    assert rows["a"]["sigma"] < 25 / 3


def test_openskill_rates_in_schedule_order_whatever_the_input_order() -> None:
    stored = games(*won("a", "b", 3), *won("b", "c", 2), *won("c", "a", 4))
    in_order = OpenSkillScorer().standings(stored, ["a", "b", "c"])
    assert OpenSkillScorer().standings(stored[::-1], ["a", "b", "c"]) == in_order


# -- estimates (what the report draws with error bars) ---------------------------------------


def test_wins_estimate_is_points_per_game_with_its_wilson_interval() -> None:
    table = WinsScorer().standings(games(*won("a", "b", 8), *drew("a", "b", 2)), ["a", "b", "c"])
    a, b = table.estimates["a"], table.estimates["b"]
    assert a.value == pytest.approx(0.9) and b.value == pytest.approx(0.1)
    # Wilson 95 % interval of 9 points in 10 games (a textbook figure: 0.596 .. 0.982).
    assert (a.low, a.high) == (pytest.approx(0.5958, abs=1e-3), pytest.approx(0.9821, abs=1e-3))
    assert b.low == pytest.approx(1 - a.high) and b.high == pytest.approx(1 - a.low)
    assert "c" not in table.estimates, "a bot with no game has no estimate"
    perfect = WinsScorer().standings(games(*won("a", "b", 3)), ["a", "b"]).estimates["a"]
    assert perfect.value == 1.0 and perfect.high == pytest.approx(1.0) and perfect.low < 1.0


def test_elo_estimate_is_the_rating_with_its_error_bar() -> None:
    table = EloScorer().standings(games(*won("a", "b", 6), *won("b", "a", 2)), ["a", "b"])
    rows = rows_by_bot(table)
    for bot in "ab":
        estimate = table.estimates[bot]
        assert estimate.value == pytest.approx(rows[bot]["elo"], abs=0.05)
        assert estimate.high - estimate.value == pytest.approx(rows[bot]["±95%"], abs=0.05)
        assert estimate.value - estimate.low == pytest.approx(rows[bot]["±95%"], abs=0.05)
    assert table.estimates["a"].value > table.estimates["b"].value


def test_openskill_estimate_spans_mu_plus_minus_three_sigma() -> None:
    table = OpenSkillScorer().standings(games(*won("a", "b", 4)), ["a", "b", "idle"])
    rows = rows_by_bot(table)
    a = table.estimates["a"]
    assert a.value == pytest.approx(rows["a"]["mu"], abs=0.01)
    assert a.low == pytest.approx(rows["a"]["ordinal"], abs=0.02)
    assert a.high - a.value == pytest.approx(a.value - a.low)
    assert "idle" not in table.estimates


def test_wins_breaks_a_tie_of_points_and_wins_by_mean_rank() -> None:
    """In games of four, "late" is second and "last" is last: neither wins, both score 0,
    and the better mean rank comes first whatever the match file's order."""
    played = games(
        (["last", "late", "top", "x"], [4, 2, 1, 3]),
        (["late", "last", "top", "x"], [2, 4, 1, 3]),
    )
    rows = WinsScorer().score(played, ["last", "late", "top", "x"]).rows
    assert [row[0] for row in rows] == ["top", "late", "x", "last"]
