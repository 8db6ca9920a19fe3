"""The S-expression referee with real bot processes (Node.js and Python) in every version,
every kind of bad reply, and one engine under two protocols."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena_kernel.testkit import run_match, stored_games

NODE_BOT = Path(__file__).parents[1] / "bots" / "money.js"


@pytest.fixture
def node_bot(arena_node: str):
    return lambda *args: [arena_node, str(NODE_BOT), *args]


@pytest.mark.parametrize(
    ("version", "rival"),
    [(1, "mine"), (2, "smithy"), (3, "militia")],
)
def test_full_games_in_each_version(arena_match, node_bot, version, rival):
    path = arena_match(
        "dominion_sexpr",
        {"node": node_bot("--mine"), rival: rival},
        f"[game_options]\nversion = {version}",
    )
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    for game, detail, events in stored_games(summary):
        assert not detail.faults, detail.faults
        assert min(game.ranks) == 1 and max(game.scores) > 0
        sent = [e.text for e in events if e.kind == "send"]
        assert sent[0].startswith("(move ((players player")
        assert any(t.startswith("(moved player") for t in sent)
        if version == 3:
            assert any(t.startswith("(attacked (act militia) player") for t in sent) == any(
                "(act militia)" in t for t in sent
            )


@pytest.mark.parametrize(
    ("reply", "kind", "words"),
    [
        (")) hello", "malformed", ""),
        ("(fly away)", "illegal", "(fly away): not a play of version 1"),
        ("(buy province)", "illegal", "(buy province): province costs 8"),
        ("(act smithy)", "illegal", "(act smithy): smithy is not a kingdom card of version 1"),
        ("(clean)", "illegal", "(clean): cards in hand"),
    ],
)
def test_a_bad_reply_loses_the_game_by_default(arena_match, scripted_bot, reply, kind, words):
    path = arena_match(
        "dominion_sexpr", {"bad": scripted_bot([{"reply": reply}]), "bm": "bigmoney"}, "games = 1"
    )
    ((game, detail, _events),) = stored_games(run_match(path))
    bad = game.seating.index("bad")
    assert game.ranks[bad] == 2 and game.ranks[1 - bad] == 1
    assert str(detail.faults[0].kind) == kind and words in detail.faults[0].detail
    assert "lost by a bad play or no answer: player" in game.reason


def test_with_end_turn_a_bad_play_only_ends_the_turn(arena_match, scripted_bot):
    path = arena_match(
        "dominion_sexpr",
        {"bad": scripted_bot([{"reply": "(fly away)"}]), "bm": "bigmoney"},
        'games = 1\n[game_options]\nbad_play = "end-turn"\nturn_cap = 10',
    )
    ((game, detail, _events),) = stored_games(run_match(path))
    assert len(detail.faults) >= 5, "the bot kept its seat and misplayed every turn"
    assert "lost by" not in game.reason


GOLDEN = Path(__file__).parents[1] / "golden"


@pytest.mark.parametrize("version", [1, 3])
def test_golden_first_move_messages(arena_match, version):
    """The exact text of a game's first (move ...) messages for a fixed seed: the state
    snapshot's grammar, supply copies, sorted deck and rotation of players, byte for byte."""
    path = arena_match(
        "dominion_sexpr",
        {"a": "bigmoney", "b": "bigmoney"},
        f"games = 1\nseed = 5\n[game_options]\nversion = {version}",
    )
    ((_game, _detail, events),) = stored_games(run_match(path))
    moves = [e.text for e in events if e.kind == "send" and e.text.startswith("(move ")][:4]
    golden = (GOLDEN / f"first_moves_v{version}_seed5.txt").read_text().splitlines()
    assert moves == golden


def test_one_engine_two_protocols_same_results(arena_match):
    """Big Money against Big Money under the line protocol and under v3 of this one with
    the official rules (same kingdom, curses included): the same seeds give the same games."""
    text = arena_match("dominion_text", {"a": "bigmoney", "b": "bigmoney"}, "rounds = 3")
    text_results = [(g.ranks, g.scores) for g, _d, _e in stored_games(run_match(text))]
    sexpr = arena_match(
        "dominion_sexpr",
        {"a": "bigmoney", "b": "bigmoney"},
        'rounds = 3\n[game_options]\nversion = 3\nrules = "official"',
    )
    sexpr_results = [(g.ranks, g.scores) for g, _d, _e in stored_games(run_match(sexpr))]
    assert len(text_results) == 6 and text_results == sexpr_results
