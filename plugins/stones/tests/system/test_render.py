"""The report's steps of stored games: one per accepted move on the board the referee sent,
the known moves drawn as played, games cut short by a fault, and any log at all."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

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
from arena_stones.board import CELLS, INDEX
from arena_stones.render import StonesRenderer


def replays(path: Path) -> list[Replay]:
    summary = run_match(path)
    assert not summary.errors, summary.errors
    games = stored_games(summary)
    with Store(summary.run.database) as store:
        return [load_replay(store, game.game_id) for game, _detail, _events in games]


def rendered(replay: Replay) -> list[Step]:
    return checked_steps(StonesRenderer(), replay)


def board(event: Event) -> list[int]:
    """A move request's board as the picture lists it (reading order)."""
    state = json.loads(event.text)["Board"]["state"]
    return [state[y][x] for x, y in CELLS]


def cell(picture, name: str) -> int:
    x, y = ord(name[0]) - ord("A"), int(name[1:]) - 1
    return picture["cells"][INDEX[x, y]]


def winner_colour(replay: Replay) -> tuple[str, str]:
    seat = replay.ranks.index(1)
    return replay.seating[seat], ("White", "Black")[seat]


@pytest.mark.parametrize(
    "options",
    ['setup = "fixed"\nenums = "integers"', 'setup = "random"\nenums = "strings"'],
)
def test_a_step_per_accepted_move_on_the_board_the_referee_sent_next(stones_match, options):
    path = stones_match(
        {"greedy": "greedy", "random": "random"}, f"seed = 5\n[game_options]\n{options}"
    )
    for replay in replays(path):
        steps = rendered(replay)
        moves = replay.details["moves"]
        assert moves > 2 and len(steps) == moves + 2
        requests = [e for e in replay.events if e.kind == "send" and "AllowedMoves" in e.text]
        assert len(requests) == moves
        # The start is the first request's board (a random placement is known only from
        # it); after each move but the last, the board the engine replayed is the one the
        # referee sent with the next request.
        assert steps[0].picture["cells"] == board(requests[0])
        for step, request in zip(steps[1:-2], requests[1:], strict=True):
            assert step.picture["cells"] == board(request), step.label
            assert step.picture["next"]["seat"] == request.seat
        assert steps[-2].picture["move"] == steps[-1].picture["move"]
        assert "next" not in steps[-1].picture
        assert steps[-1].label == "end"
        assert [e.kind for e in replay.events[slice(*steps[-1].events)]] == ["note"]
        name, colour = winner_colour(replay)
        assert steps[-1].caption.startswith(f"{name} ({colour}) wins: ")
        assert steps[-1].caption.endswith(replay.reason.split(": ", 1)[1])
        assert steps[-1].picture["winners"] == [replay.ranks.index(1)]
        turns = [int(step.label.split(".")[0]) for step in steps[1:-1]]
        assert turns[:3] == [1, 2, 2] and turns == sorted(turns)


def test_known_moves_are_drawn_and_told_as_played(stones_match, scripted_bot):
    """A scripted game from the rulebook start: a capture, a capture and a stack, a
    capture and a pass, then an attack onto an empty cell, which loses."""

    def move(kind: int, frm: tuple[int, int] | None = None, to: tuple[int, int] | None = None):
        where = {} if frm is None else {"From": {"X": frm[0], "Y": frm[1]}}
        if to is not None:
            where["To"] = {"X": to[0], "Y": to[1]}
        return {"reply": json.dumps({"Type": kind, **where})}

    white = [move(1, (8, 7), (7, 7)), move(1, (2, 0), (3, 0)), move(0)]
    black = [move(1, (4, 0), (3, 0)), move(2, (5, 1), (4, 1)), move(1, (4, 1), (4, 0))]
    path = stones_match(
        {
            "w": scripted_bot(white, only='{"Board"'),
            "b": scripted_bot(black, only='{"Board"'),
        }
    )
    replay = next(r for r in replays(path) if r.seating == ("w", "b"))
    steps = rendered(replay)
    assert [s.label for s in steps] == [
        "start",
        "1. White I8xH8",
        "2. Black E1xD1",
        "2. Black F2+E2",
        "3. White C1xD1",
        "3. White pass",
        "end: Black illegal",
    ]
    start, capture, _, stack, recapture, passed, end = (s.picture for s in steps)
    assert cell(start, "I8") == 5 and cell(start, "H8") == -6  # White Tott, Black Tzarra
    assert cell(capture, "I8") == 0 and cell(capture, "H8") == 5
    assert capture["move"] == {"kind": "attack", "seat": 0, "from": [8, 7], "to": [7, 7]}
    assert steps[1].caption == (
        "1. White (w) captures I8 -> H8: Tott (height 1) takes Black's Tzarra (height 1)"
    )
    # Black's Tott from F2 onto its Tzarra on E2: a height-2 stack with a Tott on top.
    assert cell(stack, "F2") == 0 and cell(stack, "E2") == -(2 * 4 + 1)
    assert stack["move"]["kind"] == "strengthen"
    assert steps[3].caption == "2. Black (b) stacks F2 -> E2: Tott on top, height 2"
    assert cell(recapture, "C1") == 0 and cell(recapture, "D1") == 5
    assert passed["cells"] == recapture["cells"] and passed["move"] == {"kind": "pass", "seat": 0}
    assert steps[5].caption == "3. White (w) passes"
    assert passed["next"] == {"seat": 1, "attackOnly": True}
    # The rejected reply is drawn on the board it was made on, and the end names the winner.
    assert end["cells"] == passed["cells"] and "move" not in end
    assert end["attempt"] == {"seat": 1, "from": [4, 1], "to": [4, 0]}
    assert end["winners"] == [0]
    assert steps[-1].caption.startswith(
        "w (White) wins; b (Black) loses: illegal move: attack onto an empty cell at E1"
    )
    kinds = [e.kind for e in replay.events[slice(*steps[-1].events)]]
    assert kinds == ["send", "recv", "fault"]


@pytest.mark.parametrize(
    ("script", "kind", "moves"),
    [
        ([{"exit": 3}], "exit", 0),
        ([{"silent": True}], "timeout", 0),
        ([{"reply": "this is not json"}], "malformed", 0),
        ([{"reply": '{"Type": 1, "From": {"X": 0}}'}], "illegal", 0),
        (
            [{"reply": '{"Type": 1, "From": {"X": 9, "Y": 2}, "To": {"X": 8, "Y": 2}}'}],
            "illegal",
            0,
        ),
    ],
)
def test_a_game_cut_short_by_a_fault_ends_on_the_request_it_failed(
    stones_match, scripted_bot, script, kind, moves
):
    path = stones_match(
        {"bad": scripted_bot(script, only='{"Board"'), "random": "random"},
        'startup_failures = "forfeit"\n[clock]\nstartup = 5.0\nreply = 5.0',
    )
    for replay in replays(path):
        steps = rendered(replay)
        bad = replay.seating.index("bad")
        colour = ("White", "Black")[bad]
        # White fails its first request; as Black, the bot fails after White's first move.
        assert len(steps) == 2 + bad
        assert steps[-1].label == f"end: {colour} {kind}"
        name, winner = winner_colour(replay)
        assert name == "random"
        assert steps[-1].caption.startswith(f"random ({winner}) wins; bad ({colour}) loses: ")
        last = replay.events[slice(*steps[-1].events)]
        assert last[0].kind == "send" and "AllowedMoves" in last[0].text
        assert last[-1].kind == "fault"
        assert steps[-1].picture["cells"] == steps[-2].picture["cells"]
        assert "attempt" not in steps[-1].picture
        assert steps[-1].picture["winners"] == [1 - bad]


def test_a_log_with_no_request_or_no_event_still_has_a_start_and_an_end(stones_match):
    path = stones_match({"greedy": "greedy", "random": "random"}, "rounds = 1")
    replay = replays(path)[0]
    colours = tuple(e for e in replay.events if '"Color"' in e.text)
    fault = Event(t=0.5, kind="fault", seat=0, text="exit: exited with status 1")
    cut = dataclasses.replace(replay, events=(*colours, fault), ranks=(2, 1))
    steps = rendered(cut)
    assert [s.events for s in steps] == [(0, 2), (2, 3)]
    assert steps[0].picture["cells"] == steps[1].picture["cells"]  # the rulebook start
    assert steps[1].label == "end: White exit"
    assert steps[1].caption.startswith(f"{replay.seating[1]} (Black) wins")
    shared = rendered(dataclasses.replace(cut, ranks=(1, 1), reason="both lost"))
    assert shared[-1].caption == f"{' and '.join(replay.seating)} ranked first: both lost"
    void = dataclasses.replace(replay, events=(), void=True, reason="the arena stopped")
    steps = rendered(void)
    assert [s.events for s in steps] == [(0, 0), (0, 0)]
    assert steps[-1].caption == "void game: the arena stopped"
    unknown = dataclasses.replace(cut, options={"setup": "random"})
    assert rendered(unknown)[0].picture["cells"] is None


def test_a_log_the_rules_disagree_with_is_put_back_in_step_by_the_next_board(stones_match):
    path = stones_match({"greedy": "greedy", "random": "random"}, "rounds = 1")
    replay = replays(path)[0]
    steps = rendered(replay)
    events = list(replay.events)
    requests = [i for i, e in enumerate(events) if e.kind == "send" and "AllowedMoves" in e.text]
    # No readable first board: the run's setup is the rulebook's, so that is the start.
    first = events[requests[0]]
    events[requests[0]] = dataclasses.replace(first, text='{"Board": 3, "AllowedMoves": [1]}')
    # The third move's echoes name a move off the board.
    third = range(requests[2], requests[3])
    bad = '{"Player": -1, "Move": {"Type": 1, "From": {"X": 9, "Y": 2}, "To": {"X": 8, "Y": 2}}}'
    for i in third:
        if events[i].kind == "send" and '"Player"' in events[i].text:
            events[i] = dataclasses.replace(events[i], text=bad)
    mangled = rendered(dataclasses.replace(replay, events=tuple(events)))
    assert len(mangled) == len(steps)
    assert mangled[0].picture == steps[0].picture
    assert "the rules do not allow it here" in mangled[3].caption
    assert mangled[3].picture["cells"] == board(events[requests[3]])
    assert [s.picture for s in mangled[4:]] == [s.picture for s in steps[4:]]


def test_any_log_renders_without_raising(stones_match):
    """Logs mangled every way a bad store or a hostile bot could: events dropped,
    repeated, swapped, cut, their text replaced by garbage or by another move, boards
    corrupted, seats out of range. Each still renders, covering its events, and its end
    names the winner."""
    path = stones_match({"greedy": "greedy", "random": "random"}, "rounds = 1")
    replay = replays(path)[0]
    garbage = [
        "",
        "null",
        "[]",
        '{"Player": 1, "Move": {"Type": 1, "From": {"X": 9, "Y": 2}, "To": null}}',
        '{"Player": 1, "Move": {"Type": 2, "From": {"X": 0, "Y": 0}, "To": {"X": 4, "Y": 4}}}',
        '{"Player": -1, "Move": {"Type": "0"}, "Winner": 0}',
        '{"Board": {"state": [[1, 2], [3]]}, "AllowedMoves": [1]}',
        '{"Board": {"state": ' + json.dumps([[7] * 9] * 9) + '}, "AllowedMoves": [1]}',
        '{"Board": null, "AllowedMoves": "x"}',
        '{"Type": 1, "From": {"X": "a", "Y": 2}, "To": {"X": 1, "Y": 1}}',
        "[" * 5000,
        '{"AllowedMoves": [1], "Board": {"state"',
        '{"Player": 1, "Move"',
        '{"Player": 1, "Move": {"Type": 9}}',
        '["Player", "AllowedMoves"]',
    ]
    name, colour = winner_colour(replay)
    for spoilt in spoilt_logs(replay, garbage, seed=15):
        steps = rendered(spoilt)
        assert steps[-1].caption.startswith(f"{name} ({colour}) wins")


def test_the_plugin_registers_the_renderer_with_its_drawing(arena_register, arena_node):
    registries = arena_register()
    assert registries.renderers.cls("stones") is StonesRenderer
    check_drawing(StonesRenderer(), arena_node)


def test_a_game_page_in_a_browser_shows_the_board_to_the_end(
    stones_match, report_browser, tmp_path
):
    summary = run_match(stones_match({"greedy": "greedy", "random": "random"}, "seed = 3"))
    assert not summary.errors, summary.errors
    index = write_report(summary.run.database, tmp_path / "report")
    with Store(summary.run.database) as store:
        replay = load_replay(store, stored_games(summary)[0][0].game_id)
    check = report_browser.assert_replay_shows_winner(index.parent, replay, screenshot="stones")
    assert check.steps == len(rendered(replay))
    with report_browser.open_game(index.parent, replay.game_id) as seen:
        # 60 cells drawn, and as many stacks as the start's picture lists.
        assert seen.page.locator("#picture svg polygon.cell").count() == 60
        stacks = sum(1 for cell in rendered(replay)[0].picture["cells"] if cell)
        assert seen.page.locator("#picture svg g.stack").count() == stacks
        assert seen.console_errors == []
    report_browser.assert_run_page_lists(index, ["greedy", "random"], ["Wins", "Elo"])
