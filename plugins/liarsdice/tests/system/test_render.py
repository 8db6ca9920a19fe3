"""The Liar's Dice renderer on games played through the referee by real processes: games
whose every move the rules engine foresees from the seed (each step's hands, dice, bids and
call checked against it), games of the built-in bots (every call re-judged from the dealt
hands), games cut by faults, and logs cut short or spoilt (never an exception)."""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from arena_kernel.plugin import Event, Replay, Step
from arena_kernel.testkit import (
    Store,
    check_drawing,
    checked_steps,
    game_seed,
    load_replay,
    run_match,
    spoilt_logs,
    stored_games,
)
from arena_liarsdice.game import NO_NAME_YET
from arena_liarsdice.render import LiarsDiceRenderer
from arena_liarsdice.rules import State, Variant

BOTS = Path(__file__).parents[1] / "bots"
FAST = "[clock]\nreply = 1.0\nstartup = 5.0\n"
SEED = 20231


def load_caller() -> Any:
    spec = importlib.util.spec_from_file_location("caller_bot", BOTS / "caller.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def caller(word: str) -> list[str]:
    return [sys.executable, str(BOTS / "caller.py"), "--call", word, "--tcp", "{host}", "{port}"]


def rendered(summary: Any) -> list[tuple[Replay, list[Step]]]:
    """Every stored game of the run with its steps, held to the report's contract."""
    games = []
    with Store(summary.run.database) as store:
        for result, _detail, _events in stored_games(summary):
            replay = load_replay(store, result.game_id)
            games.append((replay, checked_steps(LiarsDiceRenderer(), replay)))
    return games


def requests(replay: Replay) -> list[tuple[int, dict[str, Any]]]:
    sent = [(e.seat, json.loads(e.text)) for e in replay.events if e.kind == "send"]
    return [(seat, m) for seat, m in sent if m["subject"] == "move_request"]


def ending_names_the_winner(replay: Replay, steps: Sequence[Step]) -> None:
    (winner,) = replay.winners()
    assert f"{winner} wins" in steps[-1].caption
    assert steps[-1].picture["winner"] == replay.seating.index(winner)


# -- games foreseen move by move -------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "options"),
    [("challenge", {}), ("spot_on", {"spot_on": True}), ("challenge", {"wild_ones": True})],
    ids=["challenge", "spot_on", "wild_ones"],
)
@pytest.mark.parametrize("players", [2, 3])
def test_every_step_shows_the_position_the_rules_engine_foresees(
    dice_match: Callable[..., Path], word: str, options: dict[str, bool], players: int
) -> None:
    names = ["ann", "bob", "cid"][:players]
    toml = "\n".join(f"{key} = true" for key in options)
    extra = f"seats = {players}\ngames = 1\nseed = {SEED}\n{FAST}[game_options]\ndice = 3\n{toml}"
    summary = run_match(dice_match({name: caller(word) for name in names}, extra))
    assert summary.played == 1 and not summary.errors
    ((replay, steps),) = rendered(summary)

    opening = load_caller().opening
    game = State.new(players, 3, random.Random(game_seed(SEED, 0)), Variant(**options))
    rounds = 0
    while not game.over:
        deal, bid, call = steps[3 * rounds : 3 * rounds + 3]
        rounds += 1
        hands, dice, opener = list(game.hands), list(game.dice), game.mover
        assert deal.label == f"round {rounds}"
        assert deal.picture["hands"] == [
            list(h) if n else None for h, n in zip(hands, dice, strict=True)
        ]
        assert deal.picture["dice"] == dice and deal.picture["mover"] == opener
        assert deal.picture["bids"] == []

        face, count = opening(hands[opener])
        game.bid(opener, (face, count))
        assert bid.picture["bids"] == [[opener, face, count]]
        assert bid.picture["mover"] == game.mover
        assert f"{names[opener]} bids {count} \N{MULTIPLICATION SIGN} {face}" in bid.caption

        by = game.mover
        result = game.spot_on(by) if word == "spot_on" else game.challenge(by)
        assert call.picture["call"] == {
            "kind": word,
            "by": by,
            "against": opener,
            "bid": [face, count],
            "counted": result.counted,
            "loser": result.loser,
            "out": game.dice[result.loser] == 0,
        }
        assert call.picture["dice"] == dice, "the dice held when the call was made"
        assert f"{names[result.loser]} loses" in call.caption
    assert len(steps) == 3 * rounds
    assert replay.seating[game.winner] in replay.winners()
    ending_names_the_winner(replay, steps)


# -- the built-in bots: every call re-judged from the dealt hands ------------------------


@pytest.mark.parametrize("wild", [False, True], ids=["plain", "wild_ones"])
def test_built_in_bots_games_render_every_move_and_call(
    dice_match: Callable[..., Path], wild: bool
) -> None:
    options = f"[game_options]\ndice = 3\nwild_ones = {str(wild).lower()}"
    extra = f"seats = 3\ngames = 2\nconcurrency = 1\nseed = 5\n{options}"
    summary = run_match(dice_match({"p": "prob", "b": "basic", "r": "random"}, extra))
    assert summary.played == 2 and not summary.errors
    for replay, steps in rendered(summary):
        sent = requests(replay)
        moves = {(m["round_number"], m["move_number"]) for _s, m in sent}
        rounds = {r for r, _m in moves}
        assert len(steps) == len(moves) + len(rounds), "a deal per round, a step per move"

        hands: dict[int, Counter[int]] = {}
        for _seat, message in sent:
            hands.setdefault(message["round_number"], Counter())
            if message["move_number"] == 1:
                hands[message["round_number"]].update(message["your_hand"])
        calls = [s for s in steps if "call" in s.picture]
        assert len(calls) == len(rounds) and not replay.faults
        assert sum(s.picture["call"]["out"] for s in calls) == len(replay.seating) - 1
        for step in calls:
            call, number = step.picture["call"], step.picture["round"]
            assert call["kind"] == "challenge"
            if call["bid"] is None:  # a challenge before any bid loses
                assert call["loser"] == call["by"]
                continue
            face, count = call["bid"]
            table = hands[number]
            counted = table[face] + (table[1] if wild and face != 1 else 0)
            assert call["counted"] == counted, step.label
            assert call["loser"] == (call["by"] if counted >= count else call["against"])
        for before, after in itertools.pairwise(steps):
            if "call" in before.picture:
                dice = list(before.picture["dice"])
                dice[before.picture["call"]["loser"]] -= 1
                assert after.picture["dice"] == dice, (before.label, after.label)
        for step in steps:
            bids = [(count, face) for _seat, face, count in step.picture["bids"]]
            assert bids == sorted(set(bids)), f"{step.label}: each bid raises the last"
        ending_names_the_winner(replay, steps)


# -- faults: the round lost, its reason, the game going on ------------------------------

MISBEHAVIOUR = {
    # dice_bot.js --misbehave KIND: words of the recorded reason
    "garbage": "invalid JSON",
    "low-bid": "does not raise",
    "wrong-id": "x' is not '",
    "late": "timeout",
    "disconnect": "exit",
}


@pytest.mark.parametrize("kind", sorted(MISBEHAVIOUR))
def test_a_fault_costs_its_round_on_the_step_that_shows_it(
    dice_match: Callable[..., Path], dice_bot: Callable[..., list[str]], kind: str
) -> None:
    bad = dice_bot("--misbehave", kind, "--delay", "1500")
    extra = f"seats = 2\ngames = 1\nseed = {SEED}\n{FAST}[game_options]\ndice = 2"
    summary = run_match(dice_match({"bad": bad, "good": caller("challenge")}, extra))
    assert summary.played == 1 and not summary.errors
    ((replay, steps),) = rendered(summary)
    seat = replay.seating.index("bad")
    faults = [s for s in steps if s.picture.get("call", {}).get("kind") == "fault"]
    assert faults, [s.caption for s in steps]
    first = faults[0]
    assert first.picture["call"]["loser"] == seat and first.picture["call"]["by"] == seat
    assert MISBEHAVIOUR[kind] in first.picture["call"]["reason"]
    assert f"Fault by bad: {first.picture['call']['reason']}" in first.caption
    start, stop = first.events
    assert any(e.kind == "fault" and e.seat == seat for e in replay.events[start:stop])
    assert steps[-1] is not first or kind == "disconnect"
    ending_names_the_winner(replay, steps)
    if kind == "disconnect":  # it loses every round it is asked in, until it is out
        assert all(s.picture["call"]["loser"] == seat for s in faults)
        assert faults[-1].picture["call"]["out"] and replay.winners() == ("good",)


# -- any log at all: cut short, spoilt, void ----------------------------------------------


@pytest.fixture(scope="module")
def real_game(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    """A stored three-player game of the built-in bots, with a fault in it."""
    folder = tmp_path_factory.mktemp("real")
    match = folder / "match.toml"
    bad = [sys.executable, "-c", "import sys; sys.exit(3)"]
    match.write_text(
        f'game = "liarsdice"\nseats = 3\ngames = 1\nseed = 9\ndatabase = "{folder}/a.sqlite"\n'
        'startup_failures = "forfeit"\n'
        f'logs = "{folder}/logs"\n[clock]\nstartup = 5.0\n[game_options]\ndice = 2\n'
        '[[bots]]\nname = "p"\nbuiltin = "prob"\n[[bots]]\nname = "b"\nbuiltin = "basic"\n'
        f'[[bots]]\nname = "dead"\ncmd = {json.dumps(bad)}\n'
    )
    summary = run_match(match)
    assert summary.played == 1
    with Store(summary.run.database) as store:
        (result, _detail, _events) = stored_games(summary)[0]
        return load_replay(store, result.game_id)


def steps_of(replay: Replay) -> list[Step]:
    """The steps, held to the report's contract (they cover the log in order, JSON pictures)."""
    return checked_steps(LiarsDiceRenderer(), replay)


def test_a_log_cut_anywhere_still_renders_with_its_ending(real_game: Replay) -> None:
    ending = f"{real_game.winners()[0]} wins: {real_game.reason}."
    cut = dataclasses.replace(real_game, void=True, reason="the referee stopped")
    for end in range(len(real_game.events) + 1):
        steps = steps_of(dataclasses.replace(cut, events=real_game.events[:end]))
        assert steps[-1].caption.endswith("Void game: the referee stopped."), end
    assert steps_of(real_game)[-1].caption.endswith(ending)
    assert any(s.picture.get("call", {}).get("kind") == "fault" for s in steps_of(real_game))


SPOILT: list[Callable[[dict[str, Any]], Any]] = [
    lambda m: "not json {",
    lambda m: [m],
    lambda m: {**m, "other_hands": [[1]]},
    lambda m: {**m, "your_hand": "six", "last_bid": None},
    lambda m: {**m, "round_number": True, "move_number": "1"},
    lambda m: {**m, "state": {"0": 1}, "round_loser": 99, "game_winner": "me"},
    lambda m: {**m, "message_id": "p7", "other_hands": [[9, 2], [0, -3]]},
]


@pytest.mark.parametrize("spoil", range(len(SPOILT)))
def test_a_spoilt_message_never_stops_the_steps(real_game: Replay, spoil: int) -> None:
    events = real_game.events
    for index, event in enumerate(events):
        if event.kind != "send":
            continue
        value = SPOILT[spoil](json.loads(event.text))
        text = value if isinstance(value, str) else json.dumps(value)
        spoilt = (*events[:index], dataclasses.replace(event, text=text), *events[index + 1 :])
        steps = steps_of(dataclasses.replace(real_game, events=spoilt))
        assert steps[-1].caption.endswith(f"{real_game.reason}.")


def test_any_spoilt_log_renders_with_its_ending(real_game: Replay) -> None:
    """Events dropped, repeated, swapped, cut, garbled, with seats out of range."""
    garbage = ["", "not json {", "[]", "null", '{"round_number": "x", "other_hands": 7}']
    for spoilt in spoilt_logs(real_game, garbage, seed=23):
        assert steps_of(spoilt)[-1].caption.endswith(f"{real_game.reason}.")


def test_a_game_with_no_move_is_one_step() -> None:
    replay = Replay(
        game_id=1,
        game="liarsdice",
        options={},
        seating=("a", "b"),
        ranks=(1, 1),
        scores=None,
        reason="a bot could not start",
        void=True,
        disqualified=frozenset(),
        details={"round_faults": "not a list"},
        extra={},
        faults=(),
        events=(Event(0.0, "note", None, f"handshake: a (session id 1) {NO_NAME_YET}"),),
    )
    (step,) = steps_of(replay)
    assert step.caption == "Void game: a bot could not start."


# -- the drawing script ------------------------------------------------------------------


def test_the_drawing_script_loads_and_registers_the_game(arena_node: str) -> None:
    check_drawing(LiarsDiceRenderer(), arena_node)
