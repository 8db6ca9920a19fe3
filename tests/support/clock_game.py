"""A game whose bots say what they were told of their clocks, for the tests of
:mod:`arena_kernel.bot_clocks`: asked ``clocks``, a seat answers the ``BotClocks`` it was
handed (``clocks()``) as JSON, or ``null``. Its bot, ``teller``, runs as a program
(``python -m clock_game``, importable from this folder) or in process."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from arena_kernel.plugin import (
    BotClocks,
    BuiltinBot,
    Game,
    LineCodec,
    Outcome,
    Register,
    Table,
    hookimpl,
    main,
)


class Teller:
    def __init__(self) -> None:
        self.told: BotClocks | None = None

    def clocks(self, clocks: BotClocks) -> None:
        self.told = clocks

    def start(self) -> list[Any]:
        return []

    def on_message(self, message: Any) -> list[Any]:
        told = None if self.told is None else dataclasses.asdict(self.told)
        return [json.dumps(told)]


class ClockTell(Game[None]):
    name = "clocktell"
    summary = "asks each seat what it was told of its clocks"
    bots = {"teller": BuiltinBot("says its clocks", "clock_game", inproc=Teller)}

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        replies = await table.ask_many({seat: "clocks" for seat in range(len(table))})
        heard = [json.loads(replies[seat].message) for seat in range(len(table))]
        return Outcome.draw(len(table), "told", details={"heard": heard})


@hookimpl
def arena_register_games(register: Register) -> None:
    register(ClockTell)


if __name__ == "__main__":
    main(Teller(), LineCodec())
