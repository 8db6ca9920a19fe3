"""The course rules against real programs. ``bots/course_bot.py`` is written the way the
course's bots were (costs from a table without ``curse``, case-sensitive symbols, its own
name learned from the state, a crash on anything unexpected): it plays whole v2 and v3
games; the v3 attack flow matches golden transcripts message for message; and the plays
the course server refused are refused with their reason."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena_kernel.testkit import Event, run_match, stored_games

HERE = Path(__file__).parents[1]
COURSE_BOT = HERE / "bots" / "course_bot.py"
GOLDEN = HERE / "golden"
V2_KINGDOM = ("smithy", "village", "market", "cellar", "workshop", "remodel", "woodcutter", "mine")


def course_bot(*kingdom: str) -> list[str]:
    """The course bot's command, buying one copy of each of ``kingdom`` in that order."""
    return [sys.executable, str(COURSE_BOT), *kingdom]


def played_actions(events: list[Event], seat: int) -> set[str]:
    return {e.text.split()[1].rstrip(")") for e in events if e.seat == seat and "(act " in e.text}


@pytest.mark.parametrize(
    ("version", "kingdom", "rival"),
    [
        (2, V2_KINGDOM, "smithy"),
        # Bought in another order, so that each card comes early enough to be played.
        (3, (*V2_KINGDOM[::-1], "militia", "moat"), "militia"),
    ],
)
def test_a_course_bot_plays_whole_games(arena_match, version, kingdom, rival):
    path = arena_match(
        "dominion_sexpr",
        {"course": course_bot(*kingdom), rival: rival},
        f"[game_options]\nversion = {version}",
    )
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    acted: set[str] = set()
    attacked = 0
    for game, detail, events in stored_games(summary):
        assert not detail.faults, detail.faults
        assert game.reason == "the province pile is empty"
        course = game.seating.index("course")
        acted |= played_actions([e for e in events if e.kind == "recv"], course)
        sent = [e for e in events if e.kind == "send"]
        assert not any("curse" in e.text for e in sent)
        attacked += sum(e.seat == course and e.text.startswith("(attacked ") for e in sent)
    assert (attacked > 0) == (version == 3), "the rival's Militia attacked it"
    assert acted == set(kingdom), "it bought and played every card of its kingdom"


def test_the_curse_of_the_official_rules_crashes_a_course_bot(arena_match):
    """Why the course rules are the default: under the official rules a v2 supply lists
    Curses, and a course bot dies on its first look at the state."""
    path = arena_match(
        "dominion_sexpr",
        {"course": course_bot(), "bigmoney": "bigmoney"},
        'games = 1\nstartup_failures = "forfeit"\n[game_options]\nversion = 2\nrules = "official"',
    )
    ((game, detail, _events),) = stored_games(run_match(path))
    course = game.seating.index("course")
    assert [f.seat for f in detail.faults] == [course]
    assert game.ranks[course] == 2
    assert "unknown card 'curse'" in Path(detail.stderr_logs[course]).read_text()


def attack_transcript(events: list[Event]) -> str:
    """Every Militia of a game, one message a line (``seat kind text``): from the
    attacker's ``(act militia)`` to the attacker's next ``(move ...)``, exclusive."""
    lines: list[str] = []
    inside = False
    for e in events:
        if e.kind == "recv" and e.text == "(act militia)":
            inside = True
            lines.append("")
        elif inside and e.kind == "send" and e.text.startswith("(move "):
            inside = False
        if inside:
            lines.append(f"{e.seat} {e.kind} {e.text}")
    return "\n".join(lines).lstrip("\n") + "\n"


@pytest.mark.parametrize(("seats", "seed", "turn_cap"), [(3, 2, 4), (4, 13, 3)])
def test_the_v3_attack_flow_message_by_message(arena_match, seats, seed, turn_cap):
    """Course bots buying Militia and Moat. Each attack: ``(moved ...)`` to the others,
    then each victim in turn order gets ``(attacked ...)`` with itself first in
    ``(players ...)``, no counters, no plays, and answers (a hand of 3 with
    ``(discard)``); only then one ``(defended ...)`` per victim, in the same order, to
    every process but that victim, a discard showing only its first card."""
    bots = {f"course{i}": course_bot("militia", "moat") for i in range(seats)}
    path = arena_match(
        "dominion_sexpr",
        bots,
        f"seats = {seats}\ngames = 1\nseed = {seed}\n"
        f"[game_options]\nversion = 3\nturn_cap = {turn_cap}",
    )
    ((_game, detail, events),) = stored_games(run_match(path))
    assert not detail.faults, detail.faults
    transcript = attack_transcript(events)
    assert transcript == (GOLDEN / f"militia_{seats}_players_seed{seed}.txt").read_text()
    answers = [line.split(" ", 2)[2] for line in transcript.splitlines() if " recv (" in line]
    assert {"(moat)", "(discard)"} <= set(answers), "a Moat and a hand of 3 in the scenario"
    assert any(a.count(" ") >= 2 and a.startswith("(discard") for a in answers), "a pruned discard"


REFUSALS = [
    (2, ["(buy curse)"], "(buy curse): curse is not a card of this game"),
    (2, ["(act workshop curse)"], "(act workshop curse): curse is not a card of this game"),
    (3, ["(act remodel estate curse)"], "(act remodel estate curse): curse is not a card"),
    (
        2,
        ["(add copper)", "(buy copper)", "(add copper)"],
        "(add copper): no buys left (from version 2 on, the course rules add a treasure only "
        "while a buy is left)",
    ),
    (1, ["(ADD COPPER)"], "not a play: (ADD COPPER) (the course rules read case-sensitive"),
]


@pytest.mark.parametrize(("version", "replies", "reason"), REFUSALS)
def test_the_course_rules_refuse_what_the_course_server_refused(
    arena_match, scripted_bot, version, replies, reason
):
    steps = [{"reply": r} for r in replies]
    path = arena_match(
        "dominion_sexpr",
        {"bad": scripted_bot(steps, only="(move "), "bigmoney": "bigmoney"},
        f"games = 1\n[game_options]\nversion = {version}",
    )
    ((game, detail, events),) = stored_games(run_match(path))
    bad = game.seating.index("bad")
    (fault,) = detail.faults
    assert (fault.seat, str(fault.kind)) == (bad, "illegal") and fault.detail.startswith(reason)
    assert game.ranks[bad] == 2
    shown = [e.text for e in events if e.kind == "send" and e.seat != bad and "(moved" in e.text]
    name = ("playera", "playerb")[bad]
    assert [s for s in shown if f"(moved {name} " in s] == [
        f"(moved {name} {r})" for r in replies[:-1]
    ], "the legal plays are shown, the refused one is not"


def test_the_official_rules_read_any_case_and_show_the_grammars_spelling(arena_match, scripted_bot):
    steps = [{"reply": "(ADD COPPER)"}, {"reply": "(Add Copper)"}, {"reply": "(fly away)"}]
    path = arena_match(
        "dominion_sexpr",
        {"shouty": scripted_bot(steps, only="(move "), "bigmoney": "bigmoney"},
        'games = 1\n[game_options]\nrules = "official"',
    )
    ((game, detail, events),) = stored_games(run_match(path))
    shouty = game.seating.index("shouty")
    name = ("playera", "playerb")[shouty]
    shown = [e.text for e in events if e.seat == 1 - shouty and f"(moved {name} " in e.text]
    assert shown == [f"(moved {name} (add copper))"] * 2
    assert [f.detail for f in detail.faults] == ["(fly away): not a play of version 1"]
