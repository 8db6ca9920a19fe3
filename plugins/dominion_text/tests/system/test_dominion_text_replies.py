"""Corners of the line protocol, each through real bot processes and asserted on the exact
lines the referee sent and the exact fault it recorded: Cellar lists cut at a word that is
no card, words after a complete reply, ``top-discard`` after a reshuffle, and what a
disqualified bot no longer receives."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from arena_kernel.testkit import run_match, stored_games

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
