"""Swiss and knockout runs end to end: each stage worked out from the stored games, the
format's table in the summary, and a finished run that plays nothing more."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

from arena_kernel.runner.api import run_match
from arena_kernel.store import Store
from arena_kernel.testkit import write_report


def bots(count: int) -> str:
    """``count`` in-process Nim bots, every third one random (the others optimal)."""
    return "".join(
        f'[[bots]]\nname = "b{i:02}"\nbuiltin = "{"random" if i % 3 == 2 else "optimal"}"\n'
        "inproc = true\n"
        for i in range(count)
    )


def stored(summary) -> list:
    with Store(Path(summary.run.database)) as store:
        return store.games(summary.run.run_id)


def test_a_64_bot_swiss_of_nim(write_match) -> None:
    text = 'game = "nim"\nformat = "swiss"\nrounds = 6\nseed = 2\n'
    text += "[game_options]\npile = 9\nspread = 9\n" + bots(64)
    summary = run_match(write_match(text))

    assert summary.errors == [] and summary.played == 6 * 32
    games = sorted(stored(summary), key=lambda g: g.index)
    rounds = [games[r * 32 : (r + 1) * 32] for r in range(6)]
    colour = Counter[str]()
    for played in rounds:
        seated = [bot for game in played for bot in game.seating]
        assert sorted(seated) == [f"b{i:02}" for i in range(64)], "each bot once a round"
        for game in played:
            colour[game.seating[0]] += 1
            colour[game.seating[1]] -= 1
        assert all(abs(c) <= 1 for c in colour.values()), "colours within one"
    pairs = Counter(frozenset(game.seating) for game in games)
    assert max(pairs.values()) == 1, "no pairing repeated"
    assert summary.format is not None and summary.format.title == "Swiss: 6 of 6 rounds"
    top = summary.format.rows[0]
    assert top[1] == max(row[1] for row in summary.format.rows)

    again = run_match(write_match(text))
    assert again.played == 0 and again.format.rows == summary.format.rows


def test_a_knockout_with_byes(write_match) -> None:
    text = 'game = "nim"\nformat = "knockout"\nseed = 5\n'
    text += "[knockout]\ngames = 2\ntiebreak = 2\n[game_options]\npile = 9\nspread = 9\n"
    summary = run_match(write_match(text + bots(6)))

    assert summary.errors == []
    games = stored(summary)
    assert len({g.index for g in games}) == len(games) == summary.played
    rows = summary.format.rows
    first_round = [row for row in rows if row[0] == 1]
    assert [row[2] for row in first_round if "(bye)" in row[2]] == ["b00 (bye)", "b01 (bye)"]
    final = [row for row in rows if row[0] == max(r[0] for r in rows)]
    assert len(final) == 1 and final[0][4] and summary.format.title.endswith(final[0][4])
    losers = Counter(
        bot
        for row in rows
        if row[4] and "(bye)" not in row[2]
        for bot in row[2].split(" v ")
        if bot != row[4]
    )
    assert sorted(losers) == sorted({f"b{i:02}" for i in range(6)} - {final[0][4]})
    assert max(losers.values()) == 1, "each bot goes out once"
    page = write_report(summary.run.database, Path(summary.run.database).parent / "report")
    html = page.read_text()
    assert '<section class="panel" id="format"><h2>Knockout: won by' in html
    assert html.count("(bye)") == 2
    for _, tie_games in itertools.groupby(
        sorted(games, key=lambda g: g.index), key=lambda g: frozenset(g.seating)
    ):
        seatings = [g.seating for g in tie_games]
        assert all(a == b[::-1] for a, b in itertools.pairwise(seatings)), "seats alternate"


def test_a_swiss_of_three_seats_gives_the_odd_bot_out_a_bye(write_match) -> None:
    text = 'game = "nim"\nformat = "swiss"\nseats = 3\nrounds = 3\nseed = 4\n'
    summary = run_match(write_match(text + "[game_options]\npile = 9\nspread = 9\n" + bots(7)))

    assert summary.errors == [] and summary.played == 3 * 2
    games = sorted(stored(summary), key=lambda g: g.index)
    sitting_out = []
    for r in range(3):
        seated = [bot for game in games[2 * r : 2 * r + 2] for bot in game.seating]
        assert len(seated) == len(set(seated)) == 6 and all(len(g.seating) == 3 for g in games)
        (out,) = {f"b{i:02}" for i in range(7)} - set(seated)
        sitting_out.append(out)
    assert len(set(sitting_out)) == 3, "a different bot has the bye each round"
    scores = dict(summary.format.rows)
    assert all(scores[bot] >= 1 for bot in sitting_out), "a bye is worth a point"
