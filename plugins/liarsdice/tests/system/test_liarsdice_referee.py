"""Whole sessions through the referee with the built-in bots as real TCP programs: who is
asked what, with which ids, and what everyone is told after each round."""

from __future__ import annotations

import json

import pytest

from arena_kernel.testkit import run_match, stored_games


def messages(events, kind="send"):
    return [(e.seat, json.loads(e.text)) for e in events if e.kind == kind]


def transcript_checks(result, events, session_ids: dict[str, int]) -> None:
    """Every rule about ids, order and broadcasts, checked on one stored game."""
    n = len(result.seating)
    ids = [session_ids[name] for name in result.seating]
    sent = messages(events)
    requests = [(s, m) for s, m in sent if m["subject"] == "move_request"]
    overs = [(s, m) for s, m in sent if m["subject"] == "round_over"]
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
        game_numbers = {m["game_number"] for _s, m in messages(events)}
        assert game_numbers == {result.index + 1}, "every bot is in every game here"
    assert len(orders) > 1, "the playing order is drawn again for every game"


def test_dice_per_player_is_an_option(dice_match):
    bots = {"a": "prob", "b": "basic"}
    summary = run_match(dice_match(bots, "games = 2\n[game_options]\ndice = 2"))
    assert summary.played == 2 and not summary.errors
    for _result, detail, events in stored_games(summary):
        first = messages(events)[0][1]
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
