"""The run header's warning for wall-clock limits on a crowded machine, and its absence."""

from __future__ import annotations

import pytest

from arena_kernel.executors.crowding import crowding_note
from arena_kernel.referee.clocks import Clocks


def test_more_games_than_cores_on_the_wall_clock_is_warned_of_per_crowded_machine() -> None:
    wall = Clocks()
    assert crowding_note(wall, {"here": (8, 2)}) == (
        "warning: wall-clock limits with 8 games at once on 2 cores: bots wait for a core, "
        'and the wait counts against their limits; [clock] mode = "cpu" charges a bot only '
        "the CPU time it uses (see docs/clocks.md)"
    )
    note = crowding_note(wall, {"a": (4, 8), "b": (3, 1), "c": (6, 4)})
    assert note is not None
    assert "with 3 games at once on 1 core (b), 6 games at once on 4 cores (c):" in note


@pytest.mark.parametrize(
    ("clocks", "crowding"),
    [
        (Clocks(), {"here": (2, 2)}),
        (Clocks(), {"here": (3, 0)}),  # cores not told (an old worker)
        (Clocks(), {}),  # a scheduler that says nothing of its machines
        (Clocks(mode="cpu"), {"here": (8, 2)}),
    ],
)
def test_no_warning_where_waiting_for_a_core_is_not_charged(clocks, crowding) -> None:
    assert crowding_note(clocks, crowding) is None
