"""Ranks when the referee put players out of the game."""

from arena_dominion.outcome import ranks_without


def test_players_out_rank_below_everyone_and_the_rest_are_reranked():
    assert ranks_without([1, 2, 3, 4], {0}) == [4, 1, 2, 3]
    assert ranks_without([1, 1, 3, 4], {3}) == [1, 1, 3, 4]
    assert ranks_without([2, 1, 3], {1, 2}) == [1, 2, 2]
    assert ranks_without([1, 2], set()) == [1, 2]
