"""A bot disqualified from the run: its games stop counting and its later games are not
played, also across a resumed run."""

from __future__ import annotations

import asyncio
import json
import sys

from plugin_modules import games_plugin

from arena_kernel.model import Outcome
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store
from arena_kernel.testing.nim import Nim
from arena_kernel.testing.rps import BEATS, Rps


class StrictRps(Rps):
    """Rock-paper-scissors where a throw that is not a throw disqualifies the bot."""

    name = "strictrps"

    async def play(self, table, seed, session):
        replies = await table.ask_many({0: "throw", 1: "throw"})
        bad = [seat for seat, reply in replies.items() if reply.message not in BEATS]
        if bad:
            return Outcome.win(1 - bad[0], 2, "not a throw", disqualified=frozenset(bad))
        return Outcome.draw(2, "one throw, no winner kept")


# Throws rock in its first two games, then something that is not a throw.
FLAKY = """
import sys
throws = 0
for line in sys.stdin:
    if line.strip() == "throw":
        throws += 1
        print("rock" if throws <= 2 else "lizard", flush=True)
    elif line.strip() == "bye":
        print("bye", flush=True)
"""
STEADY = FLAKY.replace('"rock" if throws <= 2 else "lizard"', '"paper"')


def test_a_disqualified_bot_is_out_of_the_run(write_match):
    bots = ""
    for name, script in (("flaky", FLAKY), ("p1", STEADY), ("p2", STEADY)):
        bots += f'[[bots]]\nname = "{name}"\ncmd = {json.dumps([sys.executable, "-c", script])}\n'
    path = write_match('game = "strictrps"\nconcurrency = 1\nrounds = 2\n' + bots)
    summary = run_match(path, [games_plugin(StrictRps)])
    assert summary.played == 12 and not summary.errors
    with Store(summary.run.database) as store:
        games = store.results(summary.run.run_id)
        assert store.disqualified(summary.run.run_id) == {"flaky"}
    flaky_games = [g for g in games if "flaky" in g.seating]
    assert flaky_games and all(g.void for g in flaky_games), "every flaky game is void"
    assert all(not g.void for g in games if "flaky" not in g.seating)
    skipped = [g for g in flaky_games if g.reason.startswith("not played: flaky disqualified")]
    assert skipped, "games after the disqualification were not played"
    wins = summary.standings[0]
    assert all(row[0] != "flaky" or row[1] == 0 for row in wins.rows), "flaky counts 0 games"

    again = run_match(path, [games_plugin(StrictRps)])
    assert again.played == 0 and again.skipped == 12


class SlowNim(Nim):
    """The first game to start disqualifies its seat 0 at once; every other game finishes
    only after that one is stored, so it is still being played when its bot is put out."""

    name = "slownim"
    started = 0
    stored: asyncio.Event | None = None

    async def play(self, table, seed, session):
        SlowNim.started += 1
        if SlowNim.started == 1:
            SlowNim.stored = asyncio.Event()
            return Outcome.win(1, 2, "seat 0 cheated", disqualified=frozenset({0}))
        assert SlowNim.stored is not None
        await SlowNim.stored.wait()
        return Outcome.win(0, 2, "seat 0 won")


def release_the_others(run, game, record):
    if record.outcome.disqualified and SlowNim.stored is not None:
        SlowNim.stored.set()


def test_a_game_in_play_when_its_bot_is_disqualified_does_not_count(write_match):
    bots = "".join(
        f'[[bots]]\nname = "{name}"\nbuiltin = "random"\ninproc = true\n' for name in "ab"
    )
    path = write_match('game = "slownim"\nconcurrency = 2\n' + bots)
    summary = run_match(path, [games_plugin(SlowNim, arena_game_end=release_the_others)])
    assert summary.played == 2 and not summary.errors
    with Store(summary.run.database) as store:
        games = store.results(summary.run.run_id)
    assert [g.void for g in games] == [True, True]
