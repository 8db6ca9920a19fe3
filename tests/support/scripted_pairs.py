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
    }
    bots = {"idle": BuiltinBot("never asked anything", __name__, inproc=Idle)}

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        if seed in self.config["slow"]:
            await asyncio.sleep(self.config["delay"])
        names = [table.name(seat) for seat in range(len(table))]
        favourite = names.index(self.config["favourite"])
        winner = 1 - favourite if seed in self.config["upsets"] else favourite
        return Outcome.win(winner, 2, "as scripted")


@hookimpl
def arena_register_games(register: Register) -> None:
    register(ScriptedPairs)
