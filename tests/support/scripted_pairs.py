"""A plugin module for the SPRT tests, importable by a cluster's workers (it is on the test
session's path, which the workers inherit): a game whose result its options script, so
that a test knows the total of every pair of an SPRT run, and which pairs are still in
play when the test decides (their games take ``delay`` seconds)."""

from __future__ import annotations

import asyncio
from typing import Any

from arena_kernel.plugin import BuiltinBot, Game, Option, Outcome, Register, Table, hookimpl


class Idle:
    """An in-process bot that is never asked anything."""

    def start(self) -> list[Any]:
        return []

    def on_message(self, message: Any) -> list[Any]:
        return []


class ScriptedPairs(Game[None]):
    name = "scripted_pairs"
    summary = "the bot `favourite` wins unless the game's seed is an upset (SPRT tests)"
    seats = (2,)
    codec = "line"
    transport = "stdio"
    options = {
        "favourite": Option("a", "the bot that wins the games of any other seed", type=str),
        "upsets": Option([], "seeds of the games the other bot wins", type=list[int]),
        "slow": Option([], "seeds of the games that take `delay` seconds", type=list[int]),
        "delay": Option(2.0, "how long a slow game takes (s)", above=0),
        "expel": Option([], "seeds of the games that put the other bot out", type=list[int]),
    }
    bots = {"idle": BuiltinBot("never asked anything", __name__, inproc=Idle)}

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        if seed in self.config["slow"]:
            await asyncio.sleep(self.config["delay"])
        names = [table.name(seat) for seat in range(len(table))]
        favourite = names.index(self.config["favourite"])
        if seed in self.config["expel"]:
            return Outcome.win(favourite, 2, "put out", disqualified=frozenset({1 - favourite}))
        winner = 1 - favourite if seed in self.config["upsets"] else favourite
        return Outcome.win(winner, 2, "as scripted")


@hookimpl
def arena_register_games(register: Register) -> None:
    register(ScriptedPairs)


def sprt_in_play(delay: float, concurrency: int = 4, expel: bool = False) -> str:
    """A match file's text: an SPRT of ``a`` against ``b`` (bounds +-0.405) whose first
    pair, which a wins both games of, accepts H1 (LLR 0.419) while the second pair is in
    play: b wins both of its games, ``delay`` seconds long, and with it the LLR is back
    inside the bounds (-0.315); with ``expel``, those games put b out of the run instead.
    Twenty games, ``concurrency`` at a time."""
    from arena_kernel.testkit import game_seed  # for the tests, not the workers' plugin

    upset = game_seed(5, 1)
    return f"""
plugins = ["scripted_pairs"]
game = "scripted_pairs"
games = 20
seed = 5
concurrency = {concurrency}
[game_options]
upsets = [{upset}]
slow = [{upset}]
delay = {delay}
expel = [{upset if expel else ""}]
[sprt]
elo0 = 0
elo1 = 200
alpha = 0.4
beta = 0.4
[[bots]]
name = "a"
builtin = "idle"
inproc = true
[[bots]]
name = "b"
builtin = "idle"
inproc = true
"""
