"""The faults table: the games each bot lost with a fault of its own, by kind."""

from __future__ import annotations

from arena_kernel.scoring.faults import fault_losses
from arena_kernel.store import StoredGame


def game(
    index: int,
    seating: tuple[str, ...],
    ranks: tuple[int, ...],
    first_faults: tuple[str | None, ...] = (),
    void: bool = False,
) -> StoredGame:
    return StoredGame(
        game_id=index + 1,
        index=index,
        seating=seating,
        ranks=ranks,
        scores=None,
        void=void,
        disqualified=frozenset(),
        reason="test",
        first_faults=first_faults or (None,) * len(seating),
    )


def test_losses_with_a_fault_are_counted_by_the_kind_of_the_first_fault() -> None:
    games = [
        game(0, ("a", "b"), (1, 2), (None, "connect")),
        game(1, ("b", "a"), (2, 1), ("connect", None)),
        game(2, ("a", "b"), (1, 2), (None, "timeout")),
        game(3, ("c", "b", "a"), (1, 2, 3), (None, None, "exit")),
    ]
    table = fault_losses(games, ["a", "b", "c"])
    assert table is not None
    assert table.columns == ("bot", "lost to faults", "by kind of first fault")
    assert table.rows == [("b", 3, "connect 2, timeout 1"), ("a", 1, "exit 1")]


def test_wins_draws_and_void_games_are_not_losses_to_faults() -> None:
    games = [
        game(0, ("a", "b"), (1, 2), ("illegal", None)),  # won despite a fault
        game(1, ("a", "b"), (1, 1), ("timeout", "timeout")),  # a draw
        game(2, ("a", "b"), (2, 1), ("exit", None), void=True),  # not counted anywhere
        game(3, ("a", "b"), (2, 1)),  # a plain loss
    ]
    assert fault_losses(games, ["a", "b"]) is None


def test_results_that_do_not_know_their_faults_count_none() -> None:
    unknown = StoredGame(1, 0, ("a", "b"), (2, 1), None, False, frozenset(), "by hand")
    assert fault_losses([unknown], ["a", "b"]) is None


def test_a_bot_missing_from_the_list_still_gets_its_row() -> None:
    games = [game(0, ("a", "renamed"), (1, 2), (None, "oversize"))]
    table = fault_losses(games, ["a"])
    assert table is not None and table.rows == [("renamed", 1, "oversize 1")]
