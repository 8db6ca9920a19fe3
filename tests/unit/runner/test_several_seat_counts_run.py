"""A real run that plays two group sizes (``seats = [2, 3]``) of the kernel's Nim."""

from __future__ import annotations

from collections import Counter

from arena_kernel.runner.api import run_match
from arena_kernel.store import Store

MATCH = """
game = "nim"
seats = [3, 2]
seatings = "permutations"
rounds = 2
concurrency = 2
[game_options]
pile = 9
[[bots]]
name = "optimal"
builtin = "optimal"
inproc = true
[[bots]]
name = "random"
builtin = "random"
inproc = true
[[bots]]
name = "other"
builtin = "random"
inproc = true
"""


def test_a_run_plays_every_seat_count_and_resumes(write_match) -> None:
    path = write_match(MATCH)
    summary = run_match(path)
    per_round = 3 * 2 + 1 * 6  # C(3,2) pairs in 2 orders, then one trio in 6
    assert summary.errors == []
    assert summary.played == summary.run.total_games == 2 * per_round
    with Store(summary.run.database) as store:
        results = store.results(summary.run.run_id)
    assert [len(game.seating) for game in results[:per_round]] == [2] * 6 + [3] * 6
    assert Counter(len(game.seating) for game in results) == {2: 12, 3: 12}
    assert all(len(game.ranks) == len(game.seating) for game in results)
    # Three-seat games among them: Plackett-Luce rates the run, not Elo.
    assert [table.title for table in summary.standings] == ["Wins", "OpenSkill (Plackett-Luce)"]
    again = run_match(path)
    assert (again.played, again.skipped) == (0, 2 * per_round)
