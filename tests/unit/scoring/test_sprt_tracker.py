"""The SPRT of a run a pair at a time: the first crossing of a bound is the decision, the
pairs completed after it are kept apart and cannot undo it, a resumed run takes its
stored steps as they are, and a bot put out of the run takes the test's pairs with it."""

from __future__ import annotations

import pytest

from arena_kernel.scoring.played import PlayedGame
from arena_kernel.scoring.sprt import SprtSettings, bounds, sprt
from arena_kernel.scoring.sprt_run import SprtStep, SprtTracker

SETTINGS = SprtSettings(elo0=0, elo1=200, alpha=0.4, beta=0.4)
"""Bounds of +-0.405: one pair that a wins both games of accepts H1 (LLR 0.419); a second
pair that b wins both of brings the LLR back inside them (-0.315)."""


def pair(number: int, a_wins: int) -> list[PlayedGame]:
    """The two games of pair ``number``, ``a_wins`` of them won by a (a seated first in
    the pair's first game, second in its other)."""
    first = (1, 2) if a_wins >= 1 else (2, 1)
    second = (2, 1) if a_wins == 2 else (1, 2)
    return [
        PlayedGame(2 * number, ("a", "b"), first, False),
        PlayedGame(2 * number + 1, ("b", "a"), second, False),
    ]


def test_the_first_crossing_is_the_decision_and_a_pair_after_it_cannot_undo_it() -> None:
    tracker = SprtTracker(SETTINGS, "a")
    for game in pair(0, a_wins=2) + pair(1, a_wins=0):
        tracker.add(game)

    assert tracker.decided, "the pair in play when the test decided does not undo it"
    assert tracker.result.decision == "H1" and tracker.result.pairs == 1
    assert tracker.result.llr == pytest.approx(sprt([0, 0, 0, 0, 1], SETTINGS).llr)
    decided, after = tracker.steps
    assert (decided.seq, decided.pair, decided.total, decided.decision) == (1, 0, 2.0, "H1")
    assert tracker.after() == [after] and after.decision is None and after.total == 0.0
    assert after.llr == pytest.approx(sprt([1, 0, 0, 0, 1], SETTINGS).llr)
    lower, upper = bounds(SETTINGS)
    assert lower < after.llr < upper, "inside the bounds again with it"

    table = tracker.table(["a", "b"])
    llr, _bounds, verdict, pairs, *_ = table.rows[0]
    assert verdict.startswith("H1 accepted") and pairs == 1 and llr == round(decided.llr, 3)
    assert table.notes[0].endswith(": 0, 0, 0, 0, 1"), "the pentanomial at the decision"
    assert "1 pair completed after the decision" in table.notes[1]
    assert table.notes[1].endswith(f"the LLR is {after.llr:.3f}")


def test_a_game_completes_a_pair_whichever_colour_comes_first() -> None:
    tracker = SprtTracker(SETTINGS, "a")
    second, first = pair(0, a_wins=1)[::-1]
    assert tracker.add(second) is None
    step = tracker.add(first)
    assert step is not None and (step.seq, step.pair, step.total) == (1, 0, 1.0)
    assert tracker.add(PlayedGame(2, ("a", "b"), (1, 2), True)) is None, "void: not counted"


def test_a_resumed_test_takes_its_stored_steps_as_they_are() -> None:
    stored = [SprtStep(1, 3, 2.0, 0.5, "H1")]  # an LLR as an older arena computed it
    games = [*pair(3, a_wins=2), *pair(0, a_wins=0), pair(1, a_wins=2)[0]]
    tracker = SprtTracker.resume(SETTINGS, "a", stored, games)

    assert tracker.decided and tracker.result.llr == 0.5 and tracker.result.decision == "H1"
    assert tracker.steps[0] == stored[0]
    (derived,) = tracker.steps[1:]  # pair 0, stored without its step: worked out now
    assert (derived.seq, derived.pair, derived.total, derived.decision) == (2, 0, 0.0, None)
    step = tracker.add(pair(1, a_wins=2)[1])  # the half of pair 1 was found stored
    assert step is not None and (step.seq, step.pair) == (3, 1)


def test_clearing_the_test_forgets_its_pairs() -> None:
    tracker = SprtTracker(SETTINGS, "a")
    for game in pair(0, a_wins=2):
        tracker.add(game)
    tracker.clear()
    assert not tracker.decided and tracker.steps == [] and tracker.result.pairs == 0
