"""A worker is handed ahead as many sessions as it ends in a coordinator's answering time:
many for quick ones, one for long ones, none when the run wants none."""

from __future__ import annotations

from arena_kernel.executors.pace import COVER, Pace


def paced(gaps: list[float], pace: Pace | None = None, now: float = 100.0) -> Pace:
    """``pace`` (a new one) told of an end at ``now`` and after each of ``gaps``."""
    pace = pace or Pace()
    pace.ended(now)
    for gap in gaps:
        now += gap
        pace.ended(now)
    return pace


def test_a_worker_not_yet_seen_ending_is_handed_one_ahead() -> None:
    assert Pace().ahead(32) == 1
    assert paced([]).ahead(32) == 1


def test_quick_sessions_are_handed_enough_ahead_to_cover_the_answer() -> None:
    pace = paced([0.002] * 50)
    assert abs(pace.ahead(32) - COVER / 0.002) <= 1
    assert pace.ahead(8) == 8


def test_long_sessions_are_handed_one_ahead() -> None:
    assert paced([30.0] * 5).ahead(32) == 1


def test_the_pace_follows_a_change_of_the_sessions_length() -> None:
    pace = paced([0.002] * 50)
    quick = pace.ahead(32)
    paced([1.0] * 30, pace, now=200.0)
    assert quick > 1
    assert pace.ahead(32) == 1


def test_a_run_that_wants_none_ahead_gets_none() -> None:
    assert paced([0.001] * 10).ahead(0) == 0
    assert Pace().ahead(0) == 0


def test_ends_seen_at_one_moment_hand_the_most() -> None:
    assert paced([0.0, 0.0]).ahead(32) == 32
