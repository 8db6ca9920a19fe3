"""Session bots between games: what a bot sends after its game was stored goes to the
session's log (``session.log``), not into that stored game, where nobody would see it."""

from __future__ import annotations

import json
import re
import sys

from arena_kernel.runner.api import run_match
from arena_kernel.store import Store

THROWS = 3
"""Throws per game: every one but a game's last is followed by a ``result`` line."""

# b and c throw rock; each throws 2 * THROWS times against slowpoke first, then takes its
# time against the other, so that their two games outlast slowpoke's late reply.
PATIENT = f"""
import sys, time
throws = 0
for line in sys.stdin:
    if line.strip() == "throw":
        throws += 1
        if throws > {2 * THROWS}:
            time.sleep(0.15)
        print("rock", flush=True)
    elif line.strip() == "bye":
        print("bye", flush=True)
"""


def test_a_late_reply_after_a_bots_last_game_lands_in_the_session_log(
    write_match, scripted_bot, no_leftover_processes
) -> None:
    # Schedule (rotations of slowpoke-b, slowpoke-c, b-c): slowpoke plays games 0 to 3,
    # then b and c play games 4 and 5. Slowpoke answers the last throw of game 3 late: the
    # timeout ends game 3 (stored with the fault) and the reply comes during games 4-5.
    on_time = [{"reply": "rock"}, {"silent": True}] * (4 * THROWS - 1)
    late = {"sleep": 0.8, "reply": "paper, too late"}
    slowpoke = scripted_bot([*on_time, late, {"reply": "bye"}])
    patient = [sys.executable, "-c", PATIENT]
    path = write_match(
        f"""
        game = "rps"
        concurrency = 1
        [game_options]
        throws = {THROWS}
        [clock]
        reply = 0.4
        grace = 0.05
        [[bots]]
        name = "slowpoke"
        cmd = {json.dumps(slowpoke)}
        [[bots]]
        name = "b"
        cmd = {json.dumps(patient)}
        [[bots]]
        name = "c"
        cmd = {json.dumps(patient)}
        """
    )
    summary = run_match(path)
    no_leftover_processes()
    assert summary.played == 6 and not summary.errors

    with Store(summary.run.database) as store:
        games = store.results(summary.run.run_id)
        assert [g.seating for g in games][3:] == [("c", "slowpoke"), ("b", "c"), ("c", "b")]
        timed_out = store.game(games[3].game_id).faults
        assert [(f.seat, str(f.kind)) for f in timed_out] == [(1, "timeout")]
        stored = [e.text for g in games for e in store.events(g.game_id)]
    assert not any("too late" in text for text in stored)

    lines = next((path.parent / "logs").rglob("session.log")).read_text().splitlines()
    assert re.fullmatch(r" *\d+\.\d{4} late  slowpoke: paper, too late", lines[0]), lines
    assert "send  slowpoke: bye" in lines[1], "it arrived between games, before the farewells"
