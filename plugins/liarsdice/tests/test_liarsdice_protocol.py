"""The referee against real processes over real TCP: a Node.js bot written from the spec
alone (with every way of getting a reply wrong), a bot hard-wired to the contest's port,
and the built-in bots. A bad reply costs its round, with the reason, and the run goes on."""

from __future__ import annotations

import json
import socket

import pytest

from kernel.runner.api import run_match
from kernel.testing.results import stored_games

FAST = "[clock]\nreply = 1.0\nstartup = 5.0\n"


def sent(events):
    return [(e.seat, json.loads(e.text)) for e in events if e.kind == "send"]


@pytest.mark.parametrize("players", [2, 3, 6])
def test_node_bots_play_whole_sessions(dice_match, dice_bot, players):
    bots = {"node-1": dice_bot("--name", "first")}
    bots.update({f"b{i}": ("prob", "basic", "random")[i % 3] for i in range(players - 1)})
    bots["node-2"] = dice_bot()
    summary = run_match(dice_match(bots, f"seats = {players}\ngames = 3\nconcurrency = 1"))
    assert summary.played == 3 and not summary.errors
    for result, detail, events in stored_games(summary):
        assert not detail.faults, detail.faults
        assert sorted(result.ranks) == list(range(1, len(result.seating) + 1))
        if "node-1" in result.seating:
            assert detail.details["names"]["node-1"] == "first"
        for seat in range(len(result.seating)):
            numbers = {m["game_number"] for s, m in sent(events) if s == seat}
            assert len(numbers) == 1, "one game_number per bot per game"


def test_only_the_first_name_counts(dice_match, dice_bot):
    bots = {"node": dice_bot("--name", "alice", "--name-twice"), "prob": "prob"}
    summary = run_match(dice_match(bots, "games = 2\nconcurrency = 1"))
    assert summary.played == 2 and not summary.errors
    for _result, detail, _events in stored_games(summary):
        assert detail.details["names"] == {"node": "alice"}


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        # As the arena's listener does: a port in TIME_WAIT from an earlier run is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_a_bot_hard_wired_to_port_5533_plays(dice_match, contest_sample):
    if not port_is_free(5533):
        pytest.skip("port 5533 is in use on this machine")
    text = "games = 4\nconcurrency = 1\n[transport_options.tcp]\nport = 5533"
    summary = run_match(dice_match({"sample": contest_sample, "prob": "prob"}, text))
    assert summary.played == 4 and not summary.errors
    for _result, detail, events in stored_games(summary):
        assert not detail.faults, detail.faults
        assert detail.details["names"] == {"sample": "sample"}
        assert any(e.kind == "recv" for e in events)


MISBEHAVIOUR = {
    # --misbehave KIND: (fault kind, words in the recorded reason)
    "wrong-id": ("illegal", "x' is not '"),
    "garbage": ("malformed", "invalid JSON"),
    "bad-shape": ("illegal", "move 'raise' is not one of pass, challenge or a bid"),
    "pass-on-turn": ("illegal", "passed on its own turn"),
    "low-bid": ("illegal", "does not raise"),
    "late": ("timeout", "no reply within 1 s"),
    "huge": ("oversize", "longer than"),
    "disconnect": ("exit", ""),
}


@pytest.mark.parametrize("kind", sorted(MISBEHAVIOUR))
def test_a_bad_reply_loses_its_round_and_the_game_goes_on(dice_match, dice_bot, kind):
    fault_kind, words = MISBEHAVIOUR[kind]
    bots = {"bad": dice_bot("--misbehave", kind, "--delay", "1500"), "prob": "prob"}
    text = f"games = 4\nconcurrency = 1\n{FAST}[game_options]\ndice = 3"
    summary = run_match(dice_match(bots, text))
    assert summary.played == 4 and not summary.errors
    games = stored_games(summary)
    faulted = [(r, d, e) for r, d, e in games if d.faults]
    assert faulted, "the misbehaviour cost something"
    result, detail, events = faulted[0]
    fault = detail.faults[0]
    assert fault.seat == result.seating.index("bad")
    assert fault.kind == fault_kind and words in fault.detail, fault
    # The bad bot (session id 1: it connected first) lost that round, by a fault.
    other = 1 - fault.seat
    overs = [m for seat, m in sent(events) if seat == other and m["subject"] == "round_over"]
    after = next(m for m in overs if m["round_challenger"] == -1)
    assert after["round_loser"] == 1
    if kind == "disconnect":
        # Gone for good: every later round of the session is lost by a fault.
        rounds = [m for r, _d, e in games for s, m in sent(e) if m["subject"] == "round_over"]
        assert all(m["round_challenger"] == -1 for m in rounds[rounds.index(after) :])
    else:
        # One bad reply, one lost round: the bot plays on in step (a stale reply to the
        # timed-out request is recognised by its message_id and costs nothing more).
        assert sum(len(d.faults) for _r, d, _e in games) == 1, [d.faults for _r, d, _e in games]


def test_out_of_turn_challenges_count(dice_match, dice_bot):
    bots = {"bad": dice_bot("--misbehave", "challenge-always"), "basic": "basic"}
    summary = run_match(dice_match(bots, "games = 2\nconcurrency = 1\n[game_options]\ndice = 3"))
    assert not summary.errors
    decided_by_bad = 0
    for result, detail, events in stored_games(summary):
        assert not detail.faults
        bad = result.seating.index("bad")
        asked = {m["message_id"]: m for s, m in sent(events) if m["subject"] == "move_request"}
        moves = {}  # (round, move) -> the other bot's reply
        for e in events:
            if e.kind == "recv" and e.seat != bad:
                reply = json.loads(e.text)
                request = asked[reply["message_id"]]
                moves[request["round_number"], request["move_number"]] = reply["move"]
        messages = sent(events)
        for i, (seat, m) in enumerate(messages):
            if seat != bad or m["subject"] != "move_request" or m["last_bid"] == [0, 0]:
                continue
            mover = m["other_hands"][0][0]
            if mover == 0:
                continue
            # bad challenged out of turn. The mover comes first in playing order: if it
            # challenged too, its challenge counts; if it bid, bad's challenge decides.
            over = next(x for s, x in messages[i:] if s == bad and x["subject"] == "round_over")
            if moves[m["round_number"], m["move_number"]] == "challenge":
                assert over["round_challenger"] == mover
            else:
                assert over["round_challenger"] == 0
                decided_by_bad += 1
    assert decided_by_bad
