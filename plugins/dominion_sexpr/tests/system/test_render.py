"""The S-expression protocol's games in the report: one step per turn, checked against what
the referee sent (each turn's first state, the ``(moved ...)`` plays, the ``(attacked ...)``
requests and ``(defended ...)`` answers), the final VP against the stored scores, bad plays
and silence on the step they happened in, and any log at all rendering."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from arena_dominion_sexpr.render import DominionSexprRenderer
from arena_kernel.plugin import Event, Replay, Step
from arena_kernel.testkit import (
    Store,
    check_drawing,
    checked_steps,
    load_replay,
    run_match,
    spoilt_logs,
    stored_games,
    write_report,
)

NAMES = ("playera", "playerb", "playerc", "playerd")
MOVE_REQUESTS = "(move (("
"""The prefix of a ``(move state)`` request (a ``(moved ...)`` line is not one)."""


def replays(path: Path) -> list[Replay]:
    summary = run_match(path)
    assert not summary.errors, summary.errors
    with Store(summary.run.database) as store:
        return [load_replay(store, game.game_id) for game, _d, _e in stored_games(summary)]


def steps_of(replay: Replay) -> list[Step]:
    return checked_steps(DominionSexprRenderer(), replay)


def events_of(replay: Replay, step: Step) -> tuple[Event, ...]:
    return replay.events[slice(*step.events)]


def field(state: str, name: str) -> list[str]:
    """The words of a flat field of a state, e.g. ``(hand copper estate)``."""
    match = re.search(rf"\({name}((?:\s+[a-z]+)*)\)", state)
    assert match, (name, state[:200])
    return match.group(1).split()


def supply_of(state: str, names: list[str]) -> list[list[object]]:
    """The piles of a state's supply as the picture lists them (a pile absent: empty)."""
    copies = Counter(field(state, "supply"))
    return [[name, copies[name]] for name in names]


def plays(events: tuple[Event, ...], mover: int, seats: int) -> list[list[str]]:
    """The mover's plays as the next seat was told them: ``(moved playera (buy silver))``
    -> ``["buy", "silver"]``."""
    told = f"(moved {NAMES[mover]} ("
    return [
        e.text[len(told) : -2].split()
        for e in events
        if e.kind == "send" and e.seat == (mover + 1) % seats and e.text.startswith(told)
    ]


# -- games of the built-in bots ---------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "rules", "bots"),
    [
        (1, "course", ["mine", "bigmoney"]),
        (2, "official", ["random", "smithy"]),
        (3, "course", ["militia", "random", "smithy"]),
    ],
)
def test_a_step_per_turn_as_the_referees_states_and_plays_tell_it(
    arena_match: Callable[..., Path], version: int, rules: str, bots: list[str]
) -> None:
    extra = (
        f"seats = {len(bots)}\ngames = 1\nseed = 21\n"
        f'[game_options]\nversion = {version}\nrules = "{rules}"\nturn_cap = 30'
    )
    # The random bot seeded, so that the plays these checks count are the same each time.
    seeded = [sys.executable, "-m", "arena_dominion_sexpr.bots.random", "--seed", "1"]
    chosen = {b: seeded if b == "random" else b for b in bots}
    (replay,) = replays(arena_match("dominion_sexpr", chosen, extra))
    steps = steps_of(replay)
    seats = len(bots)
    turns, end = steps[1:-1], steps[-1]
    firsts = [replay.events[step.events[0]] for step in turns]
    assert steps[0].label == "start" and steps[0].events == (0, 0)
    assert all(e.kind == "send" and e.text.startswith(MOVE_REQUESTS) for e in firsts)
    names = [name for name, _left in steps[0].picture["supply"]]
    assert ("curse" in names) == (rules == "official" and version > 1)
    assert steps[0].picture["supply"] == supply_of(firsts[0].text, names)

    seen: Counter[str] = Counter()
    for number, (step, first) in enumerate(zip(turns, firsts, strict=True), start=1):
        turn, mover = step.picture["turn"], first.seat
        assert step.label == f"{number}. {replay.seating[mover]}" and turn["seat"] == mover
        # The turn's first state: the mover's hand and deck, the supply, the trash.
        assert turn["hand"] == field(first.text, "hand")
        assert turn["deck"] == len(field(first.text, "deck"))
        mine = plays(events_of(replay, step), mover, seats)
        assert turn["played"] == [p[1] for p in mine if p[0] in ("add", "act")]
        assert turn["bought"] == [p[1] for p in mine if p[0] == "buy"]
        acts = [p[1:] for p in mine if p[0] == "act"]
        assert turn["gained"] == [a[-1] for a in acts if a[0] in ("workshop", "mine", "remodel")]
        assert turn["trashed"] == [a[1] for a in acts if a[0] in ("mine", "remodel")]
        for word in ("bought", "gained", "trashed"):
            seen[word] += len(turn[word])
        # Militia: who was asked (with how many cards), and the card each answer exposed.
        attacked = [
            (e.seat, len(field(e.text, "hand")))
            for e in events_of(replay, step)
            if e.kind == "send" and e.text.startswith("(attacked")
        ]
        exposed = [
            e.text.split(" (", 1)[1][:-2].split()
            for e in events_of(replay, step)
            if e.kind == "send" and e.seat == mover and e.text.startswith("(defended")
        ]
        assert [a["seat"] for a in turn["attacks"]] == [seat for seat, _hand in attacked]
        for attack, (_seat, hand), answer in zip(turn["attacks"], attacked, exposed, strict=True):
            if answer == ["moat"]:
                assert attack == {"seat": attack["seat"], "moat": True}
            else:
                assert attack["count"] == max(hand - 3, 0) and attack["discarded"] == answer[1:]
        seen["attacks"] += len(attacked)
        if number < len(turns):
            following = firsts[number].text
            assert step.picture["supply"] == supply_of(following, names), step.label
            assert step.picture["trash"] == len(field(following, "trash"))
    assert seen["bought"] > 10
    if version > 1:
        assert seen["gained"] + seen["trashed"] > 0, "the random bot plays its actions"
    if version == 3:
        assert seen["attacks"] > 0, "the militia bot attacked"

    assert [p["vp"] for p in turns[-1].picture["players"]] == list(replay.scores)
    winners = replay.winners()
    if len(winners) == 1:
        best = int(max(replay.scores))
        assert end.caption.startswith(f"{winners[0]} wins with {best} VP: {replay.reason}.")
    else:
        assert end.caption.startswith(f"{' and '.join(winners)} share the win")
    assert end.picture["end"]["winners"] == [replay.seating.index(w) for w in winners]


# -- faults ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        (")) hello", "malformed"),
        ("(buy province)", "(buy province): province costs 8"),
        ("(act smithy)", "(act smithy): smithy is not a kingdom card of version 1"),
    ],
)
def test_a_bad_play_shows_on_the_turn_that_lost_the_game(
    arena_match: Callable[..., Path], scripted_bot: Callable[..., list[str]], reply: str, why: str
) -> None:
    bad = scripted_bot([{"reply": reply}], only=MOVE_REQUESTS)
    (replay,) = replays(arena_match("dominion_sexpr", {"bad": bad, "bm": "bigmoney"}, "games = 1"))
    steps = steps_of(replay)
    seat = replay.seating.index("bad")
    step = steps[-2]
    assert [i for i, s in enumerate(steps) if s.picture["players"][seat]["out"]] == [
        len(steps) - 2,
        len(steps) - 1,
    ]
    assert step.picture["turn"]["seat"] == seat and step.picture["turn"]["number"] == 1
    assert step.caption.startswith("bad (turn 1) did nothing")
    assert "bad is out: " in step.caption and why in step.caption
    assert why in step.picture["players"][seat]["fault"]
    assert any(e.kind == "fault" and e.seat == seat for e in events_of(replay, step))
    assert steps[-1].caption.startswith("bm wins with 3 VP: only one player was left")


def test_with_end_turn_a_bad_play_ends_only_the_turn_and_shows_on_each(
    arena_match: Callable[..., Path], scripted_bot: Callable[..., list[str]]
) -> None:
    """Under the course rules plays are case-sensitive: ``(ADD COPPER)`` is a bad play.
    The bot adds a copper, then shouts; from then on it shouts at once every turn."""
    bad = scripted_bot([{"reply": "(add copper)"}, {"reply": "(ADD COPPER)"}], only=MOVE_REQUESTS)
    extra = 'games = 1\n[game_options]\nbad_play = "end-turn"\nturn_cap = 4'
    (replay,) = replays(arena_match("dominion_sexpr", {"bad": bad, "bm": "bigmoney"}, extra))
    steps = steps_of(replay)
    seat = replay.seating.index("bad")
    mine = [s for s in steps[1:-1] if s.picture["turn"]["seat"] == seat]
    assert len(mine) == 4
    assert mine[0].picture["turn"]["played"] == ["copper"]
    assert mine[0].caption.startswith("bad (turn 1) played copper; fault by bad: illegal: ")
    for step in mine[1:]:
        assert step.picture["turn"]["played"] == [] and " did nothing; fault by bad" in step.caption
    for step in mine:
        assert "(ADD COPPER)" in step.picture["players"][seat]["fault"]
        assert not step.picture["players"][seat]["out"]
    others = [s for s in steps[1:-1] if s.picture["turn"]["seat"] != seat]
    assert len(others) == 4 and not any(s.picture["players"][seat]["fault"] for s in others)
    assert replay.winners() and all(bot in steps[-1].caption for bot in replay.winners())


# -- any log ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_game(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    """A stored v3 game of three (the random bot seeded: the same game every time): Militia
    attacks, a random bot's every kind of action, and
    a bot whose shouted plays are faults that end its turns, until it ignores an attack
    (it answers moves only) and is out."""
    folder = tmp_path_factory.mktemp("real")
    steps = [{"reply": "(add copper)"}, {"reply": "(ADD COPPER)"}]
    shouter = [sys.executable, "-m", "arena_kernel.testing.scripted", json.dumps(steps)]
    shouter += ["--only", MOVE_REQUESTS]
    match = folder / "match.toml"
    match.write_text(
        f'game = "dominion_sexpr"\nseats = 3\ngames = 1\nseed = 8\n'
        f'database = "{folder}/a.sqlite"\nlogs = "{folder}/logs"\n'
        '[clock]\nreply = 5.0\n[game_options]\nversion = 3\nbad_play = "end-turn"\nturn_cap = 10\n'
        '[[bots]]\nname = "militia"\nbuiltin = "militia"\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\nargs = ["--seed", "1"]\n'
        f'[[bots]]\nname = "shouter"\ncmd = {json.dumps(shouter)}\n'
    )
    (replay,) = replays(match)
    kinds = Counter(e.kind for e in replay.events)
    assert kinds["fault"] > 0 and any(e.text.startswith("(defended") for e in replay.events)
    return replay


GARBAGE = [
    "",
    "(move",
    "(move ((players) (supply) (trash) (deck) (hand) (plays) (discards)))",
    "(move ((supply copper copper banana) (hand gold gold) (deck) (plays) (discards",
    "(move ((deck gold) (hand province province) (plays) (discards curse)))",
    "(moved playera (buy))",
    "(moved playerz (buy gold))",
    "(moved playera (buy banana))",
    "(moved playerb (act mine copper))",
    "(moved playerc (act remodel estate))",
    "(moved playera (act workshop gold gold))",
    "(moved playera (clean))",
    "(defended playerb (discard))",
    "(defended playerq (moat))",
    "(defended playerc (discard gold gold gold gold))",
    "(attacked (act militia) playera ((hand",
    "(attacked (act militia) playera ((hand " + "copper " * 900 + "))",
    "playera loses the game: ",
    "playerd loses the game: everything",
    "illegal: (fly away)",
    "(" * 5000,
    "\x00\n\t)",
]


def test_a_bot_out_for_ignoring_an_attack_shows_there_and_its_later_discards_top_only(
    real_game: Replay,
) -> None:
    """The shouter answers moves only: the first Militia's request to it goes unanswered,
    and it is out on that step. Later Militias make the referee discard for it, and the
    others see only the top card: how many went is not told."""
    steps = steps_of(real_game)
    seat = real_game.seating.index("shouter")
    out = next(i for i, s in enumerate(steps) if s.picture["players"][seat]["out"])
    step = steps[out]
    assert step.picture["turn"]["seat"] == real_game.seating.index("militia")
    assert "shouter is out: no defense: timeout" in step.caption
    assert "timeout" in step.picture["players"][seat]["fault"]
    later = [
        (s, a)
        for s in steps[out + 1 : -1]
        for a in s.picture["turn"]["attacks"]
        if a["seat"] == seat
    ]
    assert later
    for step, attack in later:
        assert attack["count"] is None and len(attack["discarded"]) == 1
        assert f"shouter discarded ({attack['discarded'][0]} on top)" in step.caption
    faults = [s for s in steps[1:out] if s.picture["players"][seat]["fault"]]
    assert faults and all("(ADD COPPER)" in s.caption for s in faults)


def test_any_log_renders_without_raising_and_ends_on_the_stored_result(real_game):
    """Logs mangled every way a damaged store or a hostile bot could: events dropped,
    repeated, swapped, cut, their text replaced by garbage, their seat out of range. Each
    renders, its steps cover its events, and its end names the stored winner."""
    winners = real_game.winners()
    ending = f"{winners[0]} wins with " if len(winners) == 1 else " and ".join(winners)
    for spoilt in spoilt_logs(real_game, GARBAGE, seed=16, trials=250):
        steps = steps_of(spoilt)
        assert steps[-1].caption.startswith(ending)


def test_a_log_cut_anywhere_renders_and_options_decide_the_start(real_game):
    void = dataclasses.replace(real_game, void=True, reason="the arena stopped", scores=None)
    for end in range(0, len(real_game.events) + 1, 7):
        steps = steps_of(dataclasses.replace(void, events=real_game.events[:end]))
        assert steps[-1].caption == "Void game, counted for nobody: the arena stopped"
        assert steps[-1].picture["end"]["winners"] == []
    # No event: the start is the piles the run's options give (unknown values: defaults).
    for options, curse, kingdom in [
        ({"version": 3}, False, 10),
        ({"version": 2, "rules": "official"}, True, 8),
        ({"version": 7, "rules": "nonsense"}, False, 1),
        ({}, False, 1),
    ]:
        replay = dataclasses.replace(void, events=(), options=options)
        start, end = steps_of(replay)
        names = [name for name, _left in start.picture["supply"]]
        assert ("curse" in names) is curse and len(names) == 6 + curse + kingdom
        assert [p["vp"] for p in end.picture["players"]] == [3, 3, 3]


# -- the drawing and the report -----------------------------------------------------------


def test_the_plugin_registers_the_renderer_and_its_drawing_is_valid_javascript(
    arena_register, arena_node
):
    assert arena_register().renderers.cls("dominion_sexpr") is DominionSexprRenderer
    renderer = DominionSexprRenderer()
    script = renderer.script()
    assert script.startswith("(function (GAME, CARDS) {")
    assert '})("dominion_sexpr", {"curse": {"cost": 0, "kind": "curse"}' in script
    check_drawing(renderer, arena_node)


def test_a_game_page_in_a_browser_draws_the_game_to_its_winner(
    arena_match: Callable[..., Path], report_browser, tmp_path: Path
) -> None:
    bots = {"militia": "militia", "smithy": "smithy", "bigmoney": "bigmoney"}
    extra = "seats = 3\ngames = 1\nseed = 3\n[game_options]\nversion = 3"
    summary = run_match(arena_match("dominion_sexpr", bots, extra))
    assert not summary.errors, summary.errors
    index = write_report(summary.run.database, tmp_path / "report")
    with Store(summary.run.database) as store:
        replay = load_replay(store, stored_games(summary)[0][0].game_id)
    assert replay.winners()
    check = report_browser.assert_replay_shows_winner(
        index.parent, replay, screenshot="dominion_sexpr"
    )
    steps = steps_of(replay)
    assert check.steps == len(steps)
    attack = next(
        i for i, s in enumerate(steps) if s.picture["turn"] and s.picture["turn"]["attacks"]
    )
    with report_browser.open_game(index.parent, replay.game_id) as seen:
        page = seen.page
        page.wait_for_selector("#picture .dominion")
        assert page.locator("#picture .pile").count() == 16  # v3: no curse, course rules
        for _ in range(attack):
            page.locator("body").press("ArrowRight")
        assert page.inner_text("#label") == steps[attack].label
        victims = page.locator("#picture .attack .victim").all_inner_texts()
        expected = [replay.seating[a["seat"]] for a in steps[attack].picture["turn"]["attacks"]]
        assert victims == expected
        mover = replay.seating[steps[attack].picture["turn"]["seat"]]
        assert page.locator("#picture tr.mover .name").inner_text() == mover
        page.locator("body").press("End")
        assert page.locator("#picture tr.winner .name").all_inner_texts() == list(replay.winners())
        assert seen.console_errors == [] and seen.requests == []
    report_browser.assert_run_page_lists(
        index, bots=list(bots), scorers=["Wins", "OpenSkill (Plackett-Luce)"]
    )
