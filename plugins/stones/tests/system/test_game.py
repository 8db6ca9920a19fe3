"""The referee with real bot processes: a Node.js bot written from the spec alone and the
built-in Python bots play full games; every kind of bad reply loses with its reason."""

from __future__ import annotations

import json

import pytest

from arena_kernel.testkit import run_match, stored_games


def test_full_games_between_node_and_python_bots_end_with_a_winner(stones_match, node_bot):
    path = stones_match({"node": node_bot("--seed", "3"), "greedy": "greedy"}, "rounds = 2")
    summary = run_match(path)
    assert summary.played == 4 and not summary.errors
    for game, detail, events in stored_games(summary):
        assert sorted(game.ranks) == [1, 2]
        assert not detail.faults, detail.faults
        assert " wins: " in game.reason
        processed = [
            json.loads(e.text) for e in events if e.kind == "send" and '"Player"' in e.text
        ]
        # Both bots get every processed move; only the last one names the winner.
        assert len(processed) % 2 == 0 and processed
        assert all(p["Winner"] == 0 for p in processed[:-2])
        assert processed[-1]["Winner"] in (1, -1)
        first_request = next(e for e in events if e.kind == "send" and "AllowedMoves" in e.text)
        assert first_request.seat == 0 and json.loads(first_request.text)["AllowedMoves"] == [1]


def test_enums_as_strings_both_ways(stones_match, node_bot):
    path = stones_match(
        {"node": node_bot("--strings"), "random": "random"},
        '[game_options]\nenums = "strings"',
    )
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    for _game, detail, events in stored_games(summary):
        assert not detail.faults
        sent = [json.loads(e.text) for e in events if e.kind == "send"]
        assert sent[0] in ({"Color": "1"}, {"Color": "-1"})
        assert all(
            isinstance(t, str) for m in sent if "AllowedMoves" in m for t in m["AllowedMoves"]
        )
        node_seat = 0 if _game.seating[0] == "node" else 1
        replies = [json.loads(e.text) for e in events if e.kind == "recv" and e.seat == node_seat]
        assert replies and all(isinstance(r["Type"], str) for r in replies)


MISBEHAVIOUR = {
    # --misbehave KIND: (fault kind, words in the recorded reason)
    "sleep": ("timeout", "no reply within"),
    "crash": ("exit", "exited with status 3"),
    "garbage": ("malformed", "invalid JSON"),
    "empty-attack": ("illegal", "attack onto an empty cell at"),
    "centre": ("illegal", "centre"),
    "offboard": ("illegal", "From is off the board"),
    "wrong-type": ("illegal", "Type not in AllowedMoves"),
    "move-opponent": ("illegal", "is not yours"),
}


@pytest.mark.parametrize("kind", sorted(MISBEHAVIOUR))
def test_each_bad_reply_loses_with_its_reason(stones_match, node_bot, kind):
    fault_kind, words = MISBEHAVIOUR[kind]
    path = stones_match(
        {"bad": node_bot("--misbehave", kind), "random": "random"},
        'startup_failures = "forfeit"\n[clock]\nreply = 5.0\nstartup = 5.0',
    )
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    for game, detail, _events in stored_games(summary):
        bad = game.seating.index("bad")
        assert game.ranks[bad] == 2 and game.ranks[1 - bad] == 1, game.reason
        assert [str(f.kind) for f in detail.faults] == [fault_kind], detail.faults
        assert words in detail.faults[0].detail, detail.faults[0].detail
        colour = "white" if bad == 0 else "black"
        assert game.reason.startswith(f"{colour} loses: ")


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        ('{"From": null, "To": null}', "Type is missing"),
        ('{"Type": 7, "From": null, "To": null}', "Type 7 is not a move type"),
        ('{"Type": 1, "From": {"X": 1}, "To": null}', 'From must be null or {"X": x, "Y": y}'),
        ('{"Type": 1, "From": {"X": "a", "Y": 0}, "To": {"X": 0, "Y": 0}}', "From.X must be"),
        ('{"Type": "--1", "From": null, "To": null}', "Type must be an integer, not '--1'"),
        ('{"Type": 1, "From": {"X": "\u00b2", "Y": 0}, "To": null}', "From.X must be"),
        ("[1, 2, 3]", "a move must be a JSON object"),
    ],
)
def test_replies_that_are_not_moves(stones_match, scripted_bot, reply, words):
    path = stones_match({"bad": scripted_bot([{"reply": reply}]), "random": "random"}, "games = 1")
    summary = run_match(path)
    ((game, detail, _events),) = stored_games(summary)
    assert game.seating == ("bad", "random") and game.ranks == (2, 1)
    assert [str(f.kind) for f in detail.faults] == ["illegal"]
    assert words in detail.faults[0].detail
    assert game.reason.startswith("white loses: not a move: ")


GSON_PASS = {"strings": '{"Type":"0"}', "integers": '{"Type":0}'}
"""What the Java bot writes for a pass (with ``--int-type`` for "integers")."""
PASS_ECHO = {
    "strings": {"Type": "0"},
    "integers": {"Type": 0, "From": None, "To": None},
}
"""The referee's echo of a pass: the contest engine's with ``enums = "strings"``, the
protocol document's by default."""


@pytest.mark.parametrize("enums", sorted(GSON_PASS))
def test_a_java_bot_passing_without_from_and_to_plays_whole_games(stones_match, java_bot, enums):
    args = () if enums == "strings" else ("--int-type",)
    path = stones_match(
        {"java": java_bot("--seed", "7", *args), "random": "random"},
        f'[game_options]\nenums = "{enums}"\n[clock]\nstartup = 20.0\nreply = 10.0',
    )
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    for game, detail, events in stored_games(summary):
        java = game.seating.index("java")
        assert not detail.faults, detail.faults
        assert " wins: " in game.reason and "not a move" not in game.reason
        passes = [e for e in events if e.kind == "recv" and e.seat == java]
        passes = [e.text for e in passes if '"From"' not in e.text]
        assert passes and set(passes) == {GSON_PASS[enums]}
        # Every pass is echoed to both bots (the Java bot checks its board against each
        # request, so an echo it misread would have ended it with a fault).
        echoes = [json.loads(e.text) for e in events if e.kind == "send" and '"Move"' in e.text]
        pass_echoes = [m for m in echoes if m["Move"]["Type"] in (0, "0")]
        java_colour = 1 if java == 0 else -1
        assert len([m for m in pass_echoes if int(m["Player"]) == java_colour]) == 2 * len(passes)
        assert all(m["Move"] == PASS_ECHO[enums] for m in pass_echoes)


def test_an_illegal_move_is_named_in_both_notations(stones_match, scripted_bot):
    # From the fixed start White's (8, 7) and (8, 6) are both white: arena's I8 and I7,
    # the contest logs' I4 and I3.
    reply = '{"Type": 1, "From": {"X": 8, "Y": 7}, "To": {"X": 8, "Y": 6}}'
    path = stones_match({"bad": scripted_bot([{"reply": reply}]), "random": "random"}, "games = 1")
    ((game, detail, _events),) = stored_games(run_match(path))
    problem = "attack onto your own stack at I7 (contest logs: I4 -> I3)"
    assert [(str(f.kind), f.detail) for f in detail.faults] == [("illegal", problem)]
    assert game.reason == f"white loses: illegal move: {problem}"
