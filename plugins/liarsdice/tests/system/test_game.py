"""The referee against real processes over real TCP: whole sessions with the built-in bots
as programs (and in process), who is asked what, with which ids, and what everyone is told
after each round; a Node.js bot written from the spec alone (with every way of getting a
reply wrong) and a bot hard-wired to the contest's port. A bad reply costs its round, with
the reason, and the run goes on."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

from arena_kernel.testkit import run_match, stored_games


def sent(events):
    return [(e.seat, json.loads(e.text)) for e in events if e.kind == "send"]


def transcript_checks(result, events, session_ids: dict[str, int]) -> None:
    """Every rule about ids, order and broadcasts, checked on one stored game."""
    n = len(result.seating)
    ids = [session_ids[name] for name in result.seating]
    told = sent(events)
    requests = [(s, m) for s, m in told if m["subject"] == "move_request"]
    overs = [(s, m) for s, m in told if m["subject"] == "round_over"]
    assert len({m["message_id"] for _s, m in requests}) == len(requests), "fresh message ids"
    for seat, m in requests:
        others = m["other_hands"]
        assert [pid for pid, _ in others].count(0) == 1, "own id is 0"
        absolute = [ids[seat] if pid == 0 else pid for pid, _ in others]
        assert ids[seat] not in [pid for pid, _ in others]
        dice = dict(zip(absolute, [d for _, d in others], strict=True))
        assert len(m["your_hand"]) == dice[ids[seat]]
        assert m["your_hand"] == sorted(m["your_hand"])
    # Requests of one move: the same players, in the same order, starting with the mover.
    moves: dict[tuple, list] = {}
    for seat, m in requests:
        key = (m["round_number"], m["move_number"])
        others = [ids[seat] if pid == 0 else pid for pid, _ in m["other_hands"]]
        moves.setdefault(key, []).append((ids[seat], others))
    for group in moves.values():
        orders = {tuple(order) for _pid, order in group}
        assert len(orders) == 1
        assert sorted(pid for pid, _ in group) == sorted(next(iter(orders)))
    # round_over goes to every player of the game, the ones out of dice too.
    assert len(overs) % n == 0 and overs
    winner_seat = result.ranks.index(1)
    for start in range(0, len(overs), n):
        group = overs[start : start + n]
        assert sorted(s for s, _ in group) == list(range(n))
        for seat, m in group:
            state_ids = sorted(pid for pid, _ in m["state"])
            assert state_ids == sorted(0 if i == ids[seat] else i for i in ids)
    for seat, m in overs[-n:]:
        expected = 0 if seat == winner_seat else ids[winner_seat]
        assert m["game_winner"] == expected, "the winner's own id is 0 there too"
    assert all(m["game_winner"] == -1 for _seat, m in overs[:-n])


@pytest.mark.parametrize("players", [2, 3, 6])
def test_built_in_programs_play_whole_sessions(dice_match, players):
    names = [f"bot{i}" for i in range(players)]
    kinds = ["prob", "basic", "random"]
    bots = {name: kinds[i % 3] for i, name in enumerate(names)}
    games = 2 * players
    summary = run_match(dice_match(bots, f"seats = {players}\ngames = {games}\nconcurrency = 1"))
    assert summary.played == games and not summary.errors
    session_ids = {name: i + 1 for i, name in enumerate(names)}
    orders = set()
    for result, detail, events in stored_games(summary):
        assert not detail.faults, detail.faults
        assert sorted(result.ranks) == list(range(1, players + 1))
        transcript_checks(result, events, session_ids)
        orders.add(tuple(detail.details["playing_order"]))
        game_numbers = {m["game_number"] for _s, m in sent(events)}
        assert game_numbers == {result.index + 1}, "every bot is in every game here"
    assert len(orders) > 1, "the playing order is drawn again for every game"


def test_dice_per_player_is_an_option(dice_match):
    bots = {"a": "prob", "b": "basic"}
    summary = run_match(dice_match(bots, "games = 2\n[game_options]\ndice = 2"))
    assert summary.played == 2 and not summary.errors
    for _result, detail, events in stored_games(summary):
        first = sent(events)[0][1]
        assert len(first["your_hand"]) == 2 and detail.details["rounds"] <= 3


def test_in_process_bots_play_the_same_protocol(dice_match):
    path = dice_match(
        {"a": "prob", "b": "basic", "c": "random"}, "seats = 3\ngames = 3\nconcurrency = 1"
    )
    path.write_text(path.read_text().replace('builtin = "', 'inproc = true\nbuiltin = "'))
    summary = run_match(path)
    assert summary.played == 3 and not summary.errors
    for result, detail, events in stored_games(summary):
        assert not detail.faults
        transcript_checks(result, events, {"a": 1, "b": 2, "c": 3})


def test_a_message_id_of_another_type_is_a_wrong_reply_like_any_other(dice_match, scripted_bot):
    """A list (or an object) is no request's id: the reply loses its round, with the
    reason, and the referee goes on."""
    reply = {"reply": '{"message_id": [1], "move": "challenge"}'}
    bad = scripted_bot([reply], only='{"subject":"move_request"', tcp=True)
    path = dice_match({"bad": bad, "good": "prob"}, "games = 1\n[game_options]\ndice = 2")
    summary = run_match(path)
    assert summary.played == 1 and not summary.errors
    [(result, detail, _events)] = stored_games(summary)
    assert result.ranks == (2, 1)
    assert detail.faults and {f.seat for f in detail.faults} == {0}
    assert all(f.detail.startswith("message_id [1] is not 'g1r") for f in detail.faults)


FAST = "[clock]\nreply = 1.0\nstartup = 5.0\n"


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


def replay(database: str, game_id: int) -> str:
    """``arena replay DATABASE GAME_ID`` as a user runs it."""
    command = [sys.executable, "-m", "arena_kernel", "replay", database, str(game_id)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


def test_every_replay_shows_what_each_bot_said_at_its_handshake(dice_match, dice_bot):
    bots = {"node": dice_bot("--name", "alice", "--name-twice"), "mute": dice_bot()}
    summary = run_match(dice_match(bots, "games = 3\nconcurrency = 1"))
    assert summary.played == 3 and not summary.errors
    said = 'handshake: node (session id 1) said {"name": "alice"}'
    again = 'handshake: node (session id 1) said {"name": "alice-again"}'
    mute = "handshake: mute (session id 2) no set_name read yet"
    games = stored_games(summary)
    for result, _detail, events in games:
        notes = [e.text for e in events if e.kind == "note" and e.text.startswith("handshake")]
        if result.index == 0:  # the greetings are read with the first replies
            assert sorted(notes) == sorted(
                [
                    mute,
                    "handshake: node (session id 1) no set_name read yet",
                    said,
                    f"{again}: ignored, only the first set_name counts",
                ]
            ), notes
        else:
            assert sorted(notes) == sorted([said, mute]), notes
    for result, _detail, _events in games:
        transcript = replay(summary.run.database, result.game_id)
        assert f"-- referee: {said}\n" in transcript and f"-- referee: {mute}\n" in transcript


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


@pytest.mark.parametrize("strict", [False, True])
def test_the_contest_samples_overbids_stand_unless_strict_count(dice_match, contest_sample, strict):
    if not port_is_free(5533):
        pytest.skip("port 5533 is in use on this machine")
    options = f"[game_options]\ndice = 2\nstrict_count = {str(strict).lower()}"
    text = f"games = 12\nconcurrency = 1\n{options}\n[transport_options.tcp]\nport = 5533"
    summary = run_match(dice_match({"one": contest_sample, "two": contest_sample}, text))
    assert summary.played == 12 and not summary.errors
    overbids = faults = 0
    for _result, detail, events in stored_games(summary):
        faults += len(detail.faults)
        for seat in (0, 1):
            for request, move, _t in replies(events, seat):
                if isinstance(move, list) and move[1] > on_table(request):
                    overbids += 1
                    after = next_last_bid(events, request)
                    assert after is None if strict else after in (None, move)
        if strict:
            assert all("(the dice on the table)" in f.detail for f in detail.faults)
    # Two samples overbid in most of their games (9 of 12 on average, with 2 dice or 6):
    # none in 12 games is a one-in-thousands chance.
    assert overbids > 0
    assert faults == (overbids if strict else 0)


MISBEHAVIOUR = {
    # --misbehave KIND: (fault kind, words in the recorded reason)
    "wrong-id": ("illegal", "x' is not '"),
    "garbage": ("malformed", "invalid JSON"),
    "bad-shape": ("illegal", "move 'raise' is not one of pass, challenge or a bid"),
    "pass-on-turn": ("illegal", "passed on its own turn"),
    "low-bid": ("illegal", "does not raise"),
    "late": ("timeout", "no reply within 1 s"),
    "huge": ("oversize", "longer than"),
    "half-bid": ("illegal", ".5 is not a whole number"),
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
    # bad challenges out of turn only in the rounds it opens (after a round it lost), and
    # which rounds those are depends on the session ids, given in connection order: four
    # games of five dice have enough rounds for some whatever that order.
    summary = run_match(dice_match(bots, "games = 4\nconcurrency = 1\n[game_options]\ndice = 5"))
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


def requests_by_id(events):
    return {m["message_id"]: m for _s, m in sent(events) if m["subject"] == "move_request"}


def replies(events, seat):
    """``(request, move, text)`` for each reply of ``seat`` to a request of this game."""
    asked = requests_by_id(events)
    for e in events:
        if e.kind == "recv" and e.seat == seat:
            reply = json.loads(e.text)
            if reply.get("message_id") in asked:
                yield asked[reply["message_id"]], reply["move"], e.text


def key(request) -> tuple[int, int]:
    return request["round_number"], request["move_number"]


def next_last_bid(events, request):
    """``last_bid`` of the round's next move after ``request`` (None: the round ended)."""
    following = (request["round_number"], request["move_number"] + 1)
    for _s, m in sent(events):
        if m["subject"] == "move_request" and key(m) == following:
            return m["last_bid"]
    return None


def on_table(request) -> int:
    return sum(dice for _pid, dice in request["other_hands"])


@pytest.mark.parametrize("floats", ["face", "count"])
def test_a_bid_in_whole_floats_is_the_bid_it_names(dice_match, dice_bot, floats):
    bots = {"node": dice_bot("--floats", floats), "prob": "prob"}
    summary = run_match(dice_match(bots, "games = 2\nconcurrency = 1\n[game_options]\ndice = 3"))
    assert summary.played == 2 and not summary.errors
    stood = 0
    for result, detail, events in stored_games(summary):
        assert not detail.faults, detail.faults
        bids = [m["last_bid"] for _s, m in sent(events) if m["subject"] == "move_request"]
        assert all(type(n) is int for bid in bids for n in bid), "the referee sends ints"
        for request, move, text in replies(events, result.seating.index("node")):
            if isinstance(move, list):
                assert (".0, " if floats == "face" else ".0]") in text, text
                after = next_last_bid(events, request)
                stood += after is not None
                assert after in (None, [int(n) for n in move])
    assert stood, "a bid written in floats stood as the next move's last_bid"


def run_two(dice_match, bad, other, options="", games=2):
    text = f"games = {games}\nconcurrency = 1\n[game_options]\ndice = 3\n{options}"
    summary = run_match(dice_match({"bad": bad, "other": other}, text))
    assert summary.played == games and not summary.errors
    return stored_games(summary)


def test_an_overbid_stands_unless_strict_count(dice_match, dice_bot):
    games = run_two(dice_match, dice_bot("--misbehave", "overbid"), "prob")
    assert all(not d.faults for _r, d, _e in games)
    result, _detail, events = games[0]
    bad = result.seating.index("bad")
    ((request, bid),) = [
        (r, move)
        for r, move, _t in replies(events, bad)
        if isinstance(move, list) and move[1] > on_table(r)
    ]
    assert next_last_bid(events, request) == bid, "the overbid stood"
    # prob, asked about a bid no dice can make true, challenges it: the bidder (id 1) loses.
    overs = [m for s, m in sent(events) if s == 1 - bad and m["subject"] == "round_over"]
    assert any(m["round_loser"] == 1 and m["round_challenger"] == 0 for m in overs)

    strict = run_two(dice_match, dice_bot("--misbehave", "overbid"), "prob", "strict_count = true")
    faults = [f for _r, d, _e in strict for f in d.faults]
    assert len(faults) == 1 and faults[0].kind == "illegal", faults
    assert faults[0].detail.endswith("(the dice on the table)"), faults[0].detail


def test_a_bid_out_of_turn_is_a_pass_unless_strict_turn(dice_match, dice_bot):
    games = run_two(dice_match, dice_bot("--misbehave", "bid-out-of-turn"), "basic")
    assert all(not d.faults for _r, d, _e in games)
    ((result, events, request, bid),) = [
        (r, e, request, move)
        for r, _d, e in games
        for request, move, _t in replies(e, r.seating.index("bad"))
        if isinstance(move, list) and request["other_hands"][0][0] != 0
    ]
    notes = [e.text for _r, _d, es in games for e in es if e.kind == "note" and "turn" in e.text]
    assert notes == [f"bad bid {bid} out of turn: taken as a pass"]
    # The mover's reply to the same move decided it: its bid stood, or its challenge ended it.
    move = (request["round_number"], request["move_number"])
    other = 1 - result.seating.index("bad")
    (by_mover,) = [m for r, m, _t in replies(events, other) if key(r) == move]
    after = next_last_bid(events, request)
    assert after == by_mover if isinstance(by_mover, list) else after is None and by_mover != "pass"

    strict = run_two(
        dice_match, dice_bot("--misbehave", "bid-out-of-turn"), "basic", "strict_turn = true"
    )
    faults = [f for _r, d, _e in strict for f in d.faults]
    assert len(faults) == 1 and faults[0].kind == "illegal", faults
    assert faults[0].detail.startswith("bid [6, ") and faults[0].detail.endswith("] out of turn")
