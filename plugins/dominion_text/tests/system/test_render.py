"""The line protocol's games in the report: one step per turn, checked against the referee's
own lines (its supply lines, the mover's requests, the gained/played/discarded lines), the
final VP against the stored scores, buys told apart from Workshop gains, faults and
disqualifications on the step they happened in, and any log at all rendering."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from arena_dominion_text.render import DominionTextRenderer
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

PLAN_BOT = Path(__file__).parents[1] / "bots" / "plan_bot.py"


def replays(path: Path) -> list[Replay]:
    summary = run_match(path)
    assert not summary.errors, summary.errors
    with Store(summary.run.database) as store:
        return [
            load_replay(store, game.game_id) for game, _detail, _events in stored_games(summary)
        ]


def steps_of(replay: Replay) -> list[Step]:
    return checked_steps(DominionTextRenderer(), replay)


def events_of(replay: Replay, step: Step) -> tuple[Event, ...]:
    return replay.events[slice(*step.events)]


def piles(line: str) -> list[list[object]]:
    """A ``supply`` line as the picture lists the piles."""
    words = line.split()[1:]
    return [[words[i], int(words[i + 1])] for i in range(0, len(words), 2)]


def told(events: tuple[Event, ...], seat: int, line: str) -> list[str]:
    """The cards of the informational line ``player<n> <verb>`` sent to ``seat`` (each
    player gets its own copy), all such lines together."""
    found = []
    for event in events:
        if event.kind == "send" and event.seat == seat and event.text.startswith(line + " "):
            found += event.text.split()[2:]
    return found


def player(seat: int) -> str:
    return f"player{seat + 1}"


# -- games of the built-in bots ---------------------------------------------------------


def test_a_step_per_turn_as_the_referees_own_lines_tell_it(match):
    bots = {"bmu": "bmu", "militia": "militia", "smithy": "smithy"}
    (replay,) = replays(match(bots, "seats = 3\ngames = 1\nseed = 11"))
    steps = steps_of(replay)
    start, turns, end = steps[0], steps[1:-1], steps[-1]
    events = replay.events
    assert start.label == "start" and end.label == "end" and end.events[0] == len(events)

    # Each turn's step opens on the referee's supply line, and its supply is the one the
    # next turn's line lists; the start's is the first line's (the game's own piles).
    firsts = [events[step.events[0]] for step in turns]
    assert all(e.kind == "send" and e.text.startswith("supply ") for e in firsts)
    assert start.picture["supply"] == piles(firsts[0].text)
    for step, following in zip(turns, firsts[1:], strict=False):
        assert step.picture["supply"] == piles(following.text), step.label
    assert replay.reason == "the province pile is empty"
    assert dict(map(tuple, turns[-1].picture["supply"]))["province"] == 0

    militia_turns = 0
    for number, step in enumerate(turns, start=1):
        turn = step.picture["turn"]
        seat = turn["seat"]
        mine = events_of(replay, step)
        requests = [e.text for e in mine if e.seat == seat and "play-turn" in e.text]
        assert step.label == f"{number}. {replay.seating[seat]}"
        assert turn["hand"] == requests[0].split("hand ")[1].split()
        assert turn["played"] == told(mine, seat, f"{player(seat)} played")
        assert turn["bought"] == told(mine, seat, f"{player(seat)} gained")
        assert turn["gained"] == [] and turn["trashed"] == []
        for attack in turn["attacks"]:
            militia_turns += 1
            victim = attack["seat"]
            assert attack["discarded"] == told(mine, seat, f"{player(victim)} discarded")
            assert f"{replay.seating[victim]} discarded" in step.caption
        if turn["bought"]:
            assert f"bought {turn['bought'][0]}" in step.caption
    assert militia_turns > 0, "the militia bot attacked"

    # Turn counts, and the VP the board tracked from the lines is the referee's count.
    assert sum(p["turns"] for p in turns[-1].picture["players"]) == len(turns)
    assert [p["vp"] for p in turns[-1].picture["players"]] == list(replay.scores)
    (winner,) = replay.winners()
    best = int(max(replay.scores))
    assert end.caption.startswith(f"{winner} wins with {best} VP: the province pile is empty.")
    assert end.picture["end"]["winners"] == [replay.seating.index(winner)]
    assert end.picture["turn"] is None


def test_buys_are_told_apart_from_workshop_gains_and_a_refused_workshop_gains_nothing(
    match, plan_bot
):
    """Two plan bots buy a Workshop. One plays it well (gains a Silver) and buys a Silver in
    the same turn: the ``gained`` line says ``silver silver``. The other names a Province,
    which Workshop cannot gain: a fault, the Workshop spent, and only the Silver bought.
    That second bot also calls itself ``disqualified: ...``: the referee's note of its
    name is not a disqualification."""
    rules = [{"hand": ["copper"] * 3, "reply": "play-reply buy workshop"}]
    hand = ["workshop", "copper", "copper", "copper"]
    good = plan_bot(
        when=[
            *rules,
            {
                "hand": hand,
                "reply": "play-reply action workshop silver",
                "then": ["play-reply buy silver"],
            },
        ]
    )
    bad = plan_bot(
        name="player player1 disqualified: just a name",
        when=[
            *rules,
            {
                "hand": hand,
                "reply": "play-reply action workshop province",
                "then": ["play-reply buy silver"],
            },
        ],
    )
    (replay,) = replays(
        match({"bad": bad, "good": good}, "games = 1\nseed = 4\n[game_options]\nturn_cap = 12")
    )
    assert replay.seating == ("bad", "good")
    assert any(e.text == "player1 is disqualified: just a name" for e in replay.events)
    steps = steps_of(replay)

    def workshop_step(seat: int) -> int:
        for index, step in enumerate(steps):
            if any(
                e.kind == "recv" and e.seat == seat and "workshop" in e.text and "action" in e.text
                for e in events_of(replay, step)
            ):
                return index
        raise AssertionError(f"seat {seat} never played its workshop")

    at = workshop_step(1)
    turn = steps[at].picture["turn"]
    assert told(events_of(replay, steps[at]), 1, "player2 gained") == ["silver", "silver"]
    assert turn["gained"] == ["silver"] and turn["bought"] == ["silver"]
    assert turn["played"][0] == "workshop"
    assert "bought silver, gained silver" in steps[at].caption
    silver = [dict(map(tuple, s.picture["supply"]))["silver"] for s in steps[at - 1 : at + 1]]
    assert silver[0] - silver[1] == 2

    at = workshop_step(0)
    step = steps[at]
    turn = step.picture["turn"]
    assert turn["gained"] == [] and turn["bought"] == ["silver"] and "workshop" in turn["played"]
    fault = "illegal: workshop: province costs 8, more than 4"
    assert f"fault by bad: {fault}" in step.caption
    assert step.picture["players"][0]["fault"] == fault
    assert any(e.kind == "fault" and e.seat == 0 for e in events_of(replay, step))
    assert steps[at + 1].picture["players"][0]["fault"] is None
    assert not any(p["out"] for s in steps for p in s.picture["players"])
    assert "is out" not in " ".join(s.caption for s in steps)


# -- faults ---------------------------------------------------------------------------


def test_a_garbage_reply_shows_on_the_turn_it_was_made_and_the_game_goes_on(match, plan_bot):
    bad = plan_bot(turn=["buy me a province"])
    (replay,) = replays(match({"bad": bad, "bm": "bigmoney"}, "games = 1\nseed = 2"))
    steps = steps_of(replay)
    seat = replay.seating.index("bad")
    faulted = [s for s in steps if s.picture["players"][seat]["fault"]]
    (step,) = faulted
    assert step.picture["turn"]["seat"] == seat and step.picture["turn"]["number"] == 1
    assert step.caption == (
        "bad (turn 1) did nothing; fault by bad: illegal: not a play-reply: 'buy me a province'"
    )
    assert [e.kind for e in events_of(replay, step)].count("fault") == 1
    assert len(steps) > 10 and not steps[-2].picture["players"][seat]["out"]
    assert steps[-1].caption.startswith(f"bm wins with {int(max(replay.scores))} VP")


def test_a_silent_bot_is_out_on_the_turn_it_missed_and_the_game_ends_there(match, plan_bot):
    path = match(
        {"bad": plan_bot(silent_turn=2), "bm": "bigmoney"},
        "games = 1\nseed = 2\n[clock]\nreply = 5.0",
    )
    (replay,) = replays(path)
    steps = steps_of(replay)
    seat = replay.seating.index("bad")
    out = [i for i, s in enumerate(steps) if s.picture["players"][seat]["out"]]
    assert out[0] == len(steps) - 2, "the turn it missed is the last"
    step = steps[out[0]]
    assert step.picture["turn"]["seat"] == seat and step.picture["turn"]["number"] == 2
    assert step.caption.startswith("bad (turn 2) did nothing; bad is out: no answer to play-turn:")
    assert "timeout" in step.picture["players"][seat]["fault"]
    kinds = [e.kind for e in events_of(replay, step)]
    assert kinds.count("fault") == 1 and kinds.index("fault") < kinds.index("note")
    assert replay.winners() == ("bm",)
    assert steps[-1].caption.startswith("bm wins with ")
    assert "only one player was left" in steps[-1].caption


# -- any log ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_game(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    """A stored three-player game with Militia attacks, a random bot's Workshops,
    Remodels, Mines and Cellars, and a bot whose every other reply is invalid."""
    folder = tmp_path_factory.mktemp("real")
    plan = [
        sys.executable,
        str(PLAN_BOT),
        json.dumps({"turn": ["play-reply action smithy estate", "play-reply buy silver"] * 20}),
    ]
    match = folder / "match.toml"
    match.write_text(
        f'game = "dominion_text"\nseats = 3\ngames = 1\nseed = 7\ndatabase = "{folder}/a.sqlite"\n'
        f'logs = "{folder}/logs"\n[game_options]\nturn_cap = 25\n'
        '[[bots]]\nname = "militia"\nbuiltin = "militia"\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
        f'[[bots]]\nname = "odd"\ncmd = {json.dumps(plan)}\n'
    )
    (replay,) = replays(match)
    assert any(e.kind == "fault" for e in replay.events)
    return replay


GARBAGE = [
    "",
    "supply",
    "supply copper",
    "supply copper x silver -3 gold 99999999999999999999 banana 4",
    "supply copper \u00b2 silver \uff13",
    "play-request play-turn actions \u00b2 buys 1 extra-money 0 hand",
    "play-request play-turn actions 99999999 hand gold gold gold",
    "play-request attack discard 9 hand",
    "play-reply action workshop silver",
    "play-reply action remodel estate gold",
    "player1 gained province province province",
    "player9 gained province",
    "player0 trashed curse",
    "player1 trashed",
    "player2 discarded",
    "player3 revealed hand moat",
    "player1 is disqualified: ",
    "player2 is disqualified: " + "x" * 5000,
    "illegal: ",
    "\x00\n\t",
    "(" * 5000,
]


def test_any_log_renders_without_raising_and_ends_on_the_stored_result(real_game):
    """Logs mangled every way a damaged store or a hostile bot could: events dropped,
    repeated, swapped, cut, their text replaced by garbage, their seat out of range. Each
    renders, its steps cover its events, and its end names the stored winner."""
    (winner,) = real_game.winners()
    for spoilt in spoilt_logs(real_game, GARBAGE, seed=15, trials=300):
        steps = steps_of(spoilt)
        assert steps[-1].caption.startswith(f"{winner} wins with ")


def test_a_log_cut_anywhere_renders_and_a_void_game_says_so(real_game):
    full = steps_of(real_game)
    void = dataclasses.replace(real_game, void=True, reason="the arena stopped", scores=None)
    for end in range(0, len(real_game.events) + 1, 7):
        steps = steps_of(dataclasses.replace(void, events=real_game.events[:end]))
        assert steps[-1].caption == "Void game, counted for nobody: the arena stopped"
        assert steps[-1].picture["end"] == {
            "winners": [],
            "ranks": list(real_game.ranks),
            "void": True,
            "reason": "the arena stopped",
        }
        assert len(steps) <= len(full)
    (start, end) = steps_of(dataclasses.replace(void, events=()))
    assert start.label == "start" and start.events == (0, 0)
    assert (
        start.caption == "3 players: militia, random, odd; each starts with 7 coppers and 3 estates"
    )
    assert [p["vp"] for p in end.picture["players"]] == [3, 3, 3]
    supply = dict(map(tuple, start.picture["supply"]))
    assert len(supply) == 17 and supply["copper"] == 60 - 3 * 7
    assert supply["province"] == 12 and supply["curse"] == 20 and supply["smithy"] == 10


# -- the drawing and the report -----------------------------------------------------------


def test_the_plugin_registers_the_renderer_and_its_drawing_is_valid_javascript(
    arena_register, arena_node
):
    assert arena_register().renderers.cls("dominion_text") is DominionTextRenderer
    renderer = DominionTextRenderer()
    script = renderer.script()
    assert script.startswith("(function (GAME, CARDS) {")
    assert (
        script.rstrip().endswith(");")
        and '("dominion_text", {"curse": {"cost": 0, "kind": "curse"}' in script
    )
    check_drawing(renderer, arena_node)


def test_a_game_page_in_a_browser_draws_the_game_to_its_winner(match, report_browser, tmp_path):
    path = match({"bmu": "bmu", "militia": "militia"}, "games = 2\nseed = 5")
    summary = run_match(path)
    assert not summary.errors, summary.errors
    index = write_report(summary.run.database, tmp_path / "report")
    with Store(summary.run.database) as store:
        replay = next(
            r
            for r in (load_replay(store, g.game_id) for g, _d, _e in stored_games(summary))
            if len(r.winners()) == 1
        )
    check = report_browser.assert_replay_shows_winner(
        index.parent, replay, screenshot="dominion_text"
    )
    steps = steps_of(replay)
    assert check.steps == len(steps)
    with report_browser.open_game(index.parent, replay.game_id) as seen:
        page = seen.page
        page.wait_for_selector("#picture .dominion")
        assert page.locator("#picture .pile").count() == 17
        assert page.locator("#picture tr.player").count() == 2
        assert page.locator("#picture .turn").count() == 0  # the start: no turn yet
        page.locator("body").press("End")
        winner = page.locator("#picture tr.winner .name")
        assert winner.inner_text() == replay.winners()[0]
        assert (
            page.locator("#picture section.final")
            .inner_text()
            .startswith(f"★ {replay.winners()[0]} wins with {int(max(replay.scores))} VP")
        )
        empty = [name for name, left in steps[-1].picture["supply"] if left == 0]
        shown = page.locator("#picture .pile.empty .name").all_inner_texts()
        assert empty and [name.lower() for name in shown] == empty
        assert seen.console_errors == [] and seen.requests == []
    report_browser.assert_run_page_lists(index, bots=["bmu", "militia"], scorers=["Wins", "Elo"])
