"""The line-protocol referee with real bot processes (Python and Node.js): full games, and
each of the spec's rules for bad replies."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena_dominion.cards import card
from arena_dominion.strategies import BigMoneyUltimate, simulate
from arena_dominion_text.game import cellar_discards
from arena_kernel.testkit import run_match, stored_games

BOTS = Path(__file__).parents[1] / "bots"


def test_node_big_money_against_python_bots(match, arena_node):
    path = match({"node": [arena_node, str(BOTS / "bigmoney.js")], "bmu": "bmu"}, "rounds = 1")
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    for game, detail, events in stored_games(summary):
        assert not detail.faults, detail.faults
        assert sorted(game.ranks)[0] == 1 and game.scores and max(game.scores) > 0
        sent = [e.text for e in events if e.kind == "send"]
        assert sent[0] == "player player1 name" and sent[1] == "player player1 version 1"
        assert any(t.startswith("game kingdom-cards cellar market militia") for t in sent)
        assert any(t.startswith("supply curse 10 copper 46 ") for t in sent)
        assert any(
            t.startswith("play-request play-turn actions 1 buys 1 extra-money 0 hand ")
            for t in sent
        )
        assert any(" gained " in t for t in sent) and any(" top-discard " in t for t in sent)


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_player_games_with_every_builtin_bot(match, players):
    bots = dict(
        list({"bmu": "bmu", "smithy": "smithy", "militia": "militia", "random": "random"}.items())[
            :players
        ]
    )
    path = match(bots, f"seats = {players}\ngames = 1\n[game_options]\nturn_cap = 40")
    summary = run_match(path)
    ((game, detail, _events),) = stored_games(summary)
    assert summary.played == 1 and not summary.errors
    assert not detail.faults, detail.faults
    assert len(game.ranks) == players and min(game.ranks) == 1


def turn_requests(events, seat):
    return [e.text for e in events if e.kind == "send" and e.seat == seat and "play-turn" in e.text]


def test_invalid_action_with_actions_left_consumes_one_and_asks_again(match, plan_bot):
    bad = plan_bot(turn=["play-reply action smithy", "play-reply action smithy"])
    path = match({"bad": bad, "bm": "bigmoney"}, "games = 1")
    summary = run_match(path)
    ((game, detail, events),) = stored_games(summary)
    seat = game.seating.index("bad")
    requests = turn_requests(events, seat)
    assert "actions 1 buys 1" in requests[0] and "actions 0 buys 1" in requests[1]
    # With no action left the second invalid action ends the turn: the next request is
    # the start of the next turn, with a fresh action.
    assert "actions 1 buys 1" in requests[2]
    assert [str(f.kind) for f in detail.faults] == ["illegal"]
    assert "smithy" in detail.faults[0].detail


def test_garbage_reply_is_an_invalid_reply_not_a_crash(match, plan_bot):
    path = match({"bad": plan_bot(turn=["buy me a province"]), "bm": "bigmoney"}, "games = 1")
    summary = run_match(path)
    ((_game, detail, _events),) = stored_games(summary)
    assert summary.played == 1 and not summary.errors
    assert "not a play-reply" in detail.faults[0].detail


def test_buys_go_left_to_right_and_stop_at_the_first_that_fails(match, plan_bot):
    # Opening hands hold 2 to 5 coins: a Province never fits, so nothing is bought even
    # though a Copper (cost 0) comes after it in the list.
    bad = plan_bot(turn=["play-reply buy province copper"])
    path = match({"bad": bad, "bm": "bigmoney"}, "games = 1")
    ((game, _detail, events),) = stored_games(run_match(path))
    me = f"player{game.seating.index('bad') + 1}"
    first_turn_end = [e.text for e in events if e.text.startswith(f"{me} gained")]
    assert not first_turn_end or "copper" not in first_turn_end[0].split()[:3]


def test_a_bot_that_stops_answering_is_disqualified_and_the_game_goes_on(match, plan_bot):
    path = match(
        {"silent": plan_bot(silent_turn=2), "a": "bigmoney", "b": "bmu"},
        "seats = 3\ngames = 1\n[clock]\nreply = 5.0",
    )
    summary = run_match(path)
    ((game, detail, events),) = stored_games(summary)
    silent = game.seating.index("silent")
    assert game.ranks[silent] == 3 and sorted(game.ranks) == [1, 2, 3]
    assert [str(f.kind) for f in detail.faults] == ["timeout"]
    assert "disqualified: player" in game.reason
    assert any(e.kind == "note" and "is disqualified" in e.text for e in events)


def test_a_bot_that_does_not_confirm_the_version_is_disqualified(match, plan_bot):
    path = match(
        {"old": plan_bot(version="player player1 version 2"), "bm": "bigmoney"}, "games = 1"
    )
    ((game, detail, _events),) = stored_games(run_match(path))
    assert game.ranks[game.seating.index("old")] == 2
    assert "did not confirm version 1" in detail.faults[0].detail


def test_invalid_attack_answers_get_random_discards(match, plan_bot):
    bad = plan_bot(attack=["play-reply discard banana", "play-reply reaction moat"])
    path = match({"bad": bad, "militia": "militia"}, "rounds = 1\n[game_options]\nturn_cap = 30")
    summary = run_match(path)
    faults = [f for _g, d, _e in stored_games(summary) for f in d.faults]
    assert faults, "the militia bot attacked within 30 turns"
    assert all(str(f.kind) == "illegal" for f in faults)
    assert any("banana" in f.detail for f in faults)
    assert any(f.detail == "reacted with a moat it does not hold" for f in faults)
    discarded = [
        e.text
        for _g, _d, events in stored_games(summary)
        for e in events
        if " discarded " in e.text
    ]
    assert discarded, "the engine's random discards are announced"


def test_a_bad_name_reply_gets_the_default_name_and_nothing_else(match, plan_bot):
    path = match({"odd": plan_bot(name="hello"), "bm": "bigmoney"}, "games = 1")
    ((game, detail, events),) = stored_games(run_match(path))
    seat = game.seating.index("odd")
    assert any(
        e.kind == "note" and e.text == f"player{seat + 1} is PLAYER{seat + 1}" for e in events
    )
    assert not detail.faults


def test_cellar_discards_up_to_the_first_word_not_a_card_left_in_hand():
    hand = [card(n) for n in ("cellar", "estate", "estate", "copper", "duchy")]
    estate, copper = card("estate"), card("copper")
    assert cellar_discards(hand, ["estate", "copper", "gold", "duchy"]) == (
        [estate, copper],
        "no gold left in the hand",
    )
    assert cellar_discards(hand, ["estate", "banana", "duchy"]) == (
        [estate],
        "'banana' is not a card",
    )
    assert cellar_discards(hand, ["copper", "copper"]) == ([copper], "no copper left in the hand")
    assert cellar_discards(hand, ["cellar"]) == ([], "no cellar left in the hand")
    assert cellar_discards(hand, ["estate", "estate"]) == ([estate, estate], None)


def test_a_match_file_turns_the_suicide_check_on_with_a_bot_argument(arena_match):
    """Built-in bots run as programs; ``args`` reaches them. The line-protocol bots rebuild
    the scores and turn order from the lines, so each game is the engine's own game with
    the check on (same seed, same decisions), and the check changed some of them."""
    bots = "".join(
        f'[[bots]]\nname = "{name}"\nbuiltin = "bmu"\nargs = ["--suicide-check"]\n'
        for name in ("a", "b")
    )
    path = arena_match("dominion_text", {}, f"seed = 5\ngames = 4\n{bots}")
    summary = run_match(path)
    games = stored_games(summary)
    assert summary.played == 4 and not summary.errors
    changed = 0
    for game, detail, _events in games:
        assert not detail.faults
        checked = simulate([BigMoneyUltimate(suicide_check=True) for _ in "ab"], detail.seed)
        assert game.scores == tuple(float(vp) for vp in checked.vp)
        changed += simulate([BigMoneyUltimate(), BigMoneyUltimate()], detail.seed) != checked
    assert changed, "with this seed the check decides at least one of the games"
