"""The line-protocol referee with real bot processes (Python and Node.js): full games, and
each of the spec's rules for bad replies; then its corners, each asserted on the exact
lines the referee sent and the exact fault it recorded: Cellar lists cut at a word that is
no card, words after a complete reply, ``top-discard`` after a reshuffle, and what a
disqualified bot no longer receives."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from arena_dominion_text.players import BigMoneyUltimate
from arena_dominion_text.simulate import simulate
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


# -- corners of the protocol, line by line ---------------------------------------------------

SHORT_GAME = "games = 1\n[game_options]\nturn_cap = 30"


def play_one(match, bots, extra=SHORT_GAME):
    """The one game of a match: its result, detail and events, and a seat lookup."""
    summary = run_match(match(bots, extra))
    assert summary.played == 1 and not summary.errors
    ((game, detail, events),) = stored_games(summary)
    return game, detail, events


def talk(events, seat: int) -> list[tuple[str, str]]:
    """What went to and came from ``seat``, in order: ``("send" | "recv", line)``."""
    return [(e.kind, e.text) for e in events if e.seat == seat and e.kind in ("send", "recv")]


def faults(detail) -> list[tuple[str, str]]:
    return [(str(f.kind), f.detail) for f in detail.faults]


def hand_of(request: str) -> list[str]:
    words = request.split()
    return words[words.index("hand") + 1 :]


def without(hand: list[str], *cards: str) -> list[str]:
    """``hand`` with the first copy of each card taken out, the rest in order."""
    left = list(hand)
    for c in cards:
        left.remove(c)
    return left


def turn_request(hand: list[str], actions: int, buys: int = 1, extra: int = 0) -> str:
    return f"play-request play-turn actions {actions} buys {buys} extra-money {extra} hand " + (
        " ".join(hand)
    )


# -- Cellar -----------------------------------------------------------------------------------


def test_cellar_discards_up_to_a_word_that_is_no_card(match, plan_bot):
    reply = "play-reply action cellar estate banana copper"
    bot = plan_bot(
        when=[{"hand": ["cellar", "estate"], "reply": reply}], otherwise="play-reply buy cellar"
    )
    game, detail, events = play_one(match, {"bot": bot, "bm": "bigmoney"})
    seat = game.seating.index("bot")
    me = f"player{seat + 1}"
    assert faults(detail) == [], "the spec's Cellar, not a fault"
    notes = [e.text for e in events if e.kind == "note"]
    assert f"{me}: cellar: 'banana' is not a card; discarded only the cards before it: estate" in (
        notes
    )
    lines = talk(events, seat)
    at = lines.index(("recv", reply))
    before = hand_of(lines[at - 1][1])
    # The Estate is discarded (and shown), one card drawn for it, the Cellar's Action
    # replaces the one it used: the request comes again.
    assert lines[at + 1] == ("send", f"{me} top-discard estate")
    kind, request = lines[at + 2]
    after = hand_of(request)
    assert kind == "send" and request == turn_request(after, actions=1)
    assert len(after) == len(before) - 1
    assert not Counter(without(before, "cellar", "estate")) - Counter(after)
    other = talk(events, 1 - seat)
    assert ("send", f"{me} top-discard estate") in other


def test_cellar_naming_no_card_it_can_discard_costs_the_cellar_and_the_action(match, plan_bot):
    reply = "play-reply action cellar banana estate"
    bot = plan_bot(
        when=[{"hand": ["cellar"], "reply": reply, "then": ["play-reply pass"]}],
        otherwise="play-reply buy cellar",
    )
    game, detail, events = play_one(match, {"bot": bot, "bm": "bigmoney"})
    seat = game.seating.index("bot")
    me = f"player{seat + 1}"
    assert faults(detail) == [("illegal", "cellar: 'banana' is not a card, so nothing to discard")]
    lines = talk(events, seat)
    at = lines.index(("recv", reply))
    before = hand_of(lines[at - 1][1])
    assert lines[at + 1 : at + 4] == [
        ("send", turn_request(without(before, "cellar"), actions=0)),
        ("recv", "play-reply pass"),
        ("send", f"{me} played cellar"),
    ]


# -- words after a complete reply -------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "reply", "fault"),
    [
        ("smithy", "play-reply action smithy estate", "'play-reply action smithy': 'estate'"),
        (
            "workshop",
            "play-reply action workshop silver village",
            "'play-reply action workshop silver': 'village'",
        ),
        (
            "workshop",
            "play-reply reply workshop silver village",
            "'play-reply reply workshop silver': 'village'",
        ),
        (
            "remodel",
            "play-reply action remodel estate silver gold",
            "'play-reply action remodel estate silver': 'gold'",
        ),
    ],
)
def test_words_after_a_complete_action_reply_make_it_invalid(match, plan_bot, card, reply, fault):
    """Invalid as the spec treats any invalid reply: the Action and the card are used up,
    nothing else happens (no card trashed or gained), and the request comes again."""
    bot = plan_bot(
        when=[{"hand": [card], "reply": reply, "then": ["play-reply pass"]}],
        otherwise=f"play-reply buy {card}",
    )
    game, detail, events = play_one(match, {"bot": bot, "bm": "bigmoney"})
    seat = game.seating.index("bot")
    me = f"player{seat + 1}"
    assert faults(detail) == [("illegal", f"extra words after the complete reply {fault}")]
    lines = talk(events, seat)
    at = lines.index(("recv", reply))
    before = hand_of(lines[at - 1][1])
    assert lines[at + 1 : at + 4] == [
        ("send", turn_request(without(before, card), actions=0)),
        ("recv", "play-reply pass"),
        ("send", f"{me} played {card}"),
    ]


def test_words_after_pass_make_it_invalid_too(match, plan_bot):
    """With the Action left, ``pass now`` costs it and the request comes again; the second
    ``pass now``, with no Action left, ends the turn."""
    bot = plan_bot(turn=["play-reply pass now", "play-reply pass now"])
    game, detail, events = play_one(match, {"bot": bot, "bm": "bigmoney"})
    seat = game.seating.index("bot")
    me = f"player{seat + 1}"
    fault = ("illegal", "extra words after the complete reply 'play-reply pass': 'now'")
    assert faults(detail) == [fault, fault]
    lines = talk(events, seat)
    at = lines.index(("recv", "play-reply pass now"))
    hand = hand_of(lines[at - 1][1])
    assert lines[at - 1] == ("send", turn_request(hand, actions=1))
    assert lines[at + 1 : at + 3] == [
        ("send", turn_request(hand, actions=0)),
        ("recv", "play-reply pass now"),
    ]
    # The turn is over: clean-up shows a card of the hand (nothing was played).
    assert lines[at + 3][1].startswith(f"{me} top-discard")


def test_the_same_replies_without_the_extra_word_are_carried_out(match, plan_bot):
    reply = "play-reply action workshop silver"
    bot = plan_bot(
        when=[{"hand": ["workshop"], "reply": reply, "then": ["play-reply pass"]}],
        otherwise="play-reply buy workshop",
    )
    game, detail, events = play_one(match, {"bot": bot, "bm": "bigmoney"})
    seat = game.seating.index("bot")
    me = f"player{seat + 1}"
    assert faults(detail) == []
    lines = talk(events, seat)
    at = lines.index(("recv", reply))
    before = hand_of(lines[at - 1][1])
    assert lines[at + 1 : at + 5] == [
        ("send", turn_request(without(before, "workshop"), actions=0)),
        ("recv", "play-reply pass"),
        ("send", f"{me} gained silver"),
        ("send", f"{me} played workshop"),
    ]


# -- top-discard ------------------------------------------------------------------------------


def test_top_discard_is_bare_once_the_clean_up_shuffled_the_pile_away(match):
    """Each player's second clean-up draws from an empty deck, so the whole discard pile,
    the card just shown on top included, is shuffled into the deck."""
    _game, detail, events = play_one(match, {"a": "bigmoney", "b": "bigmoney"})
    assert faults(detail) == []
    seen = [text for kind, text in talk(events, 0) if kind == "send"]
    for me in ("player1", "player2"):
        tops = [line for line in seen if line.startswith(f"{me} top-discard")]
        # The first clean-up shows the last card played (the deck still had five cards).
        played = seen[seen.index(tops[0]) - 1]
        assert played.startswith(f"{me} played ")
        assert tops[0] == f"{me} top-discard {played.split()[-1]}"
        assert tops[1] == f"{me} top-discard"


# -- disqualified bots ------------------------------------------------------------------------


def test_a_disqualified_bot_gets_no_more_lines_and_its_turns_no_supply_line(match, plan_bot):
    game, detail, events = play_one(
        match,
        {"silent": plan_bot(silent_turn=2), "a": "bigmoney", "b": "bmu"},
        "seats = 3\ngames = 1\n[clock]\nreply = 5.0\n[game_options]\nturn_cap = 30",
    )
    silent = game.seating.index("silent")
    assert [f.kind for f in detail.faults] == ["timeout"]
    out = next(i for i, e in enumerate(events) if e.kind == "note" and "is disqualified" in e.text)
    sent_after = [e.text for e in events[out:] if e.kind == "send" and e.seat == silent]
    assert sent_after == []
    last = [e.text for e in events[:out] if e.kind == "send" and e.seat == silent][-1]
    assert last.startswith("play-request play-turn actions 1 buys 1 extra-money 0 hand ")
    for seat in set(range(3)) - {silent}:
        seen = [text for kind, text in talk(events, seat) if kind == "send"]
        supply = [i for i, line in enumerate(seen) if line.startswith("supply ")]
        assert len(supply) > 20, "the game went on after the disqualification"
        assert all(b - a > 1 for a, b in pairwise(supply)), (
            "every supply line starts a turn that sends something"
        )


def test_a_bot_that_does_not_confirm_the_version_hears_nothing_more(match, plan_bot):
    bot = plan_bot(version="player player1 version 2")
    game, _detail, events = play_one(match, {"old": bot, "bm": "bigmoney"})
    seat = game.seating.index("old")
    me = f"player{seat + 1}"
    assert [e.text for e in events if e.kind == "send" and e.seat == seat] == [
        f"player {me} name",
        f"player {me} version 1",
    ]
