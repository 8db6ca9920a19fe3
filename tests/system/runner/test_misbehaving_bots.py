"""Real processes that misbehave lose their game with the right reason; the run goes on
(one that never comes up too, with ``startup_failures = "forfeit"``)."""

from __future__ import annotations

import json
from pathlib import Path

from arena_kernel.runner.api import run_match
from arena_kernel.store import Store

BAD_BOTS = {
    # name: (script of answers to "move" requests, expected fault kind, words the recorded
    # detail must contain). Every bot's first answer is on the start-up clock, which leaves
    # a loaded machine plenty of time to start it; only the misbehaviour meets a tight clock.
    "slow starter": ([{"sleep": 60}], "timeout", "no reply within 8 s of its start (start-up"),
    "sleeper": (
        [{"reply": "take 1"}, {"sleep": 60, "reply": "take 1"}],
        "timeout",
        "no reply within 2 s",
    ),
    "crasher": ([{"reply": "take 1"}, {"exit": 3}], "exit", "exited with status 3"),
    "garbage": ([{"bytes": "\xff\xfe take\n"}], "malformed", "UTF-8"),
    "nonsense": ([{"reply": "banana"}], "illegal", "expected take"),
    "flooder": ([{"flood": 10 * 1024 * 1024}], "oversize", "longer than"),
    "forker": ([{"fork": True}], "exit", "exited"),
}


def test_each_misbehaviour_loses_its_games_with_the_right_reason(
    write_match, scripted_bot, no_leftover_processes
) -> None:
    bots = ['[[bots]]\nname = "good"\nbuiltin = "optimal"\ninproc = true\n']
    for name, (steps, _kind, _words) in BAD_BOTS.items():
        cmd = json.dumps(scripted_bot(steps, only="move"))
        bots.append(f'[[bots]]\nname = "{name}"\ncmd = {cmd}\n')
    path = write_match(
        """
        game = "nim"
        format = "gauntlet"
        challenger = "good"
        concurrency = 2
        startup_failures = "forfeit"
        [clock]
        reply = 2
        grace = 0.05
        startup = 8
        """
        + "\n".join(bots)
    )
    summary = run_match(path)
    no_leftover_processes()

    assert summary.errors == []
    assert summary.played == 2 * len(BAD_BOTS)
    with Store(summary.run.database) as store:
        results = store.results(summary.run.run_id)
        assert len(results) == 2 * len(BAD_BOTS)
        for result in results:
            detail = store.game(result.game_id)
            bad_seat = 0 if result.seating[1] == "good" else 1
            bad = result.seating[bad_seat]
            _steps, kind, words = BAD_BOTS[bad]
            assert result.ranks[bad_seat] == 2 and result.ranks[1 - bad_seat] == 1, bad
            faults = [f for f in detail.faults if f.seat == bad_seat]
            assert faults, f"{bad}: no fault recorded"
            assert str(faults[0].kind) == kind, (bad, faults)
            assert words in faults[0].detail, (bad, faults[0].detail)
            assert not [f for f in detail.faults if f.seat == 1 - bad_seat]


def test_flood_is_not_stored_whole(write_match, scripted_bot) -> None:
    path = write_match(
        f"""
        game = "nim"
        [[bots]]
        name = "good"
        builtin = "optimal"
        [[bots]]
        name = "flooder"
        cmd = {json.dumps(scripted_bot([{"flood": 10 * 1024 * 1024}]))}
        """
    )
    summary = run_match(path)
    db = Path(summary.run.database)
    assert db.stat().st_size < 2 * 1024 * 1024
    with Store(db) as store:
        games = store.results(summary.run.run_id)
        longest = max(len(e.text) for g in games for e in store.events(g.game_id))
    assert longest < 10_000
