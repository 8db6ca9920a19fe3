"""A bot that takes 4 s to its first reply, more than any game's reply clock, plays
normally with a long start-up clock, in every game: the kernel puts each bot's first request
on its start-up clock, so no game has to remember it (a cold JVM, a Racket course bot
compiled from source, a busy machine)."""

from __future__ import annotations

import sys
import time

import pytest
from game_plugins import require

from arena_kernel.registries.manager import get_plugin_manager, load_registries, register_plugin
from arena_kernel.runner.api import run_match
from arena_kernel.testing.results import stored_games

DELAY = 4.0
STARTUP = 40
"""Far above the delay, so that starting the bot on a loaded machine is not what is tested."""

GAMES = {
    # game: (the slow bot's built-in program, its opponents, seats)
    "nim": ("optimal", ["random"], 2),
    "stones": ("random", ["random"], 2),
    "dominion_text": ("bigmoney", ["bigmoney"], 2),
    "dominion_sexpr": ("bigmoney", ["bigmoney"], 2),
    "speedclue": ("random", ["random", "random"], 3),
    "liarsdice": ("random", ["random"], 2),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_bot_slow_to_its_first_reply_plays_normally(game, write_match) -> None:
    builtin, opponents, seats = GAMES[game]
    if game != "nim":
        require(game)
    pm = get_plugin_manager()
    register_plugin(pm, "arena_kernel.testing.games")
    program = load_registries(pm).games.cls(game).bots[builtin]
    slow = [
        sys.executable,
        "-m",
        "arena_kernel.testing.slow_start",
        str(DELAY),
        "--",
        *program.argv(),
    ]
    bots = [f'[[bots]]\nname = "slow"\ncmd = {slow!r}\n'.replace("'", '"')]
    bots += [f'[[bots]]\nname = "rival{i}"\nbuiltin = "{b}"\n' for i, b in enumerate(opponents)]
    path = write_match(
        f"""
        game = "{game}"
        seats = {seats}
        rounds = 1
        concurrency = {seats}
        [clock]
        startup = {STARTUP}
        """
        + "\n".join(bots)
    )
    started = time.monotonic()
    summary = run_match(path)
    took = time.monotonic() - started

    assert summary.errors == []
    games = stored_games(summary)
    assert len(games) == seats, "one game per rotation of the seating: every seat played"
    for result, detail, _events in games:
        assert not detail.faults, (game, result.seating, detail.faults)
        assert not result.void
    assert took >= DELAY, "the slow bot really held back its first reply"
