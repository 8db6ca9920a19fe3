"""Whole games through the referee with the built-in bots as real TCP programs (and in
process): what every seat is told, and when, checked message by message."""

from __future__ import annotations

import pytest

from arena_kernel.testkit import run_match, stored_games
from arena_speedclue.rules import hand_size


def transcript_checks(result, detail, events) -> None:
    """Every rule about who is told what, checked against one stored game's transcript."""
    n = len(result.seating)
    details = detail.details
    hands = details["hands"]
    sent = [e for e in events if e.kind == "send"]
    resets = [e for e in sent if e.text.startswith("reset ")]
    assert sorted(e.seat for e in resets) == list(range(n))
    for event in resets:
        words = event.text.split()
        assert words[:3] == ["reset", str(n), str(event.seat)]
        assert words[3:] == hands[event.seat]
        assert len(words[3:]) == hand_size(event.seat, n)
    broadcasts = [e for e in sent if e.text.startswith("suggestion ")]
    assert broadcasts and len(broadcasts) % n == 0
    for start in range(0, len(broadcasts), n):
        group = broadcasts[start : start + n]
        assert [e.seat for e in group] == list(range(n)), "to every seat, in seat order"
        words = [e.text.split() for e in group]
        assert len({tuple(w[:6]) for w in words}) == 1, "everyone sees the same suggestion"
        active, disprover = int(words[0][1]), words[0][5]
        for event, w in zip(group, words, strict=True):
            told = disprover != "-" and event.seat in (active, int(disprover))
            assert len(w) == (7 if told else 6), event.text
            if told:
                assert w[6] in w[2:5] and w[6] in hands[int(disprover)]
    winners = [seat for seat, rank in enumerate(result.ranks) if rank == 1]
    assert len(winners) == 1 and details["winner"] == winners[0]
    accusations = [e for e in sent if e.text.startswith("accusation ")]
    if "accused" in result.reason:
        assert accusations[-n].text.split()[1:] == [str(winners[0]), *details["solution"], "+"]


@pytest.mark.parametrize("players", [3, 6])
def test_built_in_programs_play_whole_sessions_over_tcp(clue_match, players):
    bots = {f"bot{i}": ("deducer" if i % 2 == 0 else "random") for i in range(players)}
    path = clue_match(bots, f"seats = {players}\ngames = {2 * players}\nconcurrency = 1")
    summary = run_match(path)
    assert summary.played == 2 * players and not summary.errors
    games = stored_games(summary)
    for result, detail, events in games:
        assert not detail.faults and not result.void
        transcript_checks(result, detail, events)
    log = path.parent / "logs" / f"run-{summary.run.run_id}" / "session-0" / "session.log"
    lines = log.read_text().splitlines()
    # One process per bot for the whole session: one greeting, one farewell each.
    assert sum(line.endswith(" alive") for line in lines) == players
    assert sum(line.endswith(": done") for line in lines) == players
    assert sum(line.endswith(": dead") for line in lines) == players


def test_in_process_bots_are_told_their_identifier_and_play_clean_games(clue_match):
    path = clue_match({"a": "deducer", "b": "random", "c": "random"}, "games = 6")
    path.write_text(path.read_text().replace('builtin = "', 'inproc = true\nbuiltin = "'))
    summary = run_match(path)
    assert summary.played == 6 and not summary.errors
    for result, detail, events in stored_games(summary):
        assert not detail.faults and not result.void
        transcript_checks(result, detail, events)


def test_the_contest_format_plays_every_group_size_in_every_seat_order(clue_match):
    bots = {"deducer": "deducer", "r1": "random", "r2": "random", "r3": "random"}
    text = 'seats = [3, 4]\nseatings = "permutations"\nconcurrency = 1\nscorers = ["wins"]'
    summary = run_match(clue_match(bots, text))
    # C(4,3) groups * 3! orders + 1 group * 4! orders
    assert summary.played == 4 * 6 + 24 and not summary.errors
    games = stored_games(summary)
    seatings = [r.seating for r, _d, _e in games]
    assert len(set(seatings)) == 48
    assert sorted({len(s) for s in seatings}) == [3, 4]
    for result, detail, events in games:
        assert not detail.faults
        transcript_checks(result, detail, events)
    # The contest's score is wins / games: the wins table's "win %".
    (wins,) = summary.standings
    rows = {row[0]: dict(zip(wins.columns, row, strict=True)) for row in wins.rows}
    assert sum(row["wins"] for row in rows.values()) == 48
    assert rows["deducer"]["games"] == 3 * 6 + 24
