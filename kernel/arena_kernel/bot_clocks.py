"""The clocks a bot is told: its game's time limits, as the bot itself may read them.

A bot that plays by the clock (a search that thinks until its time is nearly spent) has to
know its limits, and a match file's ``[clock]`` is the one place they are set: so the arena
tells them to every bot it starts rather than have each match file repeat them in the
bots' arguments. A program finds them in its environment (:data:`ENVIRONMENT`: each name
defined here once); a bot in process (:class:`~arena_kernel.bots.logic.BotLogic`) is
handed them by its optional ``clocks(clocks)`` method, which
:func:`~arena_kernel.bots.serve.main` also calls, from the environment, for a program.
See docs/clocks.md, "What a bot is told".
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Mode = Literal["wall", "cpu"]
MODES: tuple[Mode, ...] = ("wall", "cpu")
"""What a clock's seconds measure: the time from request to reply, or the CPU time the
bot's processes use meanwhile (docs/clocks.md)."""

REPLY = "ARENA_CLOCK_REPLY"
FIRST_REPLY = "ARENA_CLOCK_FIRST_REPLY"
GRACE = "ARENA_CLOCK_GRACE"
GAME = "ARENA_CLOCK_GAME"
MODE = "ARENA_CLOCK_MODE"
WALL_CAP = "ARENA_CLOCK_WALL_CAP"
ENVIRONMENT = (REPLY, FIRST_REPLY, GRACE, GAME, MODE, WALL_CAP)
"""Every variable a bot the arena starts finds its clocks in: seconds (but the mode, and the
wall cap, a multiple of a limit) as decimal numbers that ``float()`` reads back exactly;
``ARENA_CLOCK_GAME`` is left out when the game has no budget."""


@dataclass(frozen=True)
class BotClocks:
    """The limits a bot's replies are judged by, in seconds.

    ``reply``: each reply after the first; ``first_reply``: the first, counted from the
    bot's start (its start-up included); ``grace``: what the referee adds to each limit for
    scheduling jitter (a bot should not plan to spend it); ``game``: its budget for the
    whole game, or None; ``mode``: what the seconds measure, ``"wall"`` or ``"cpu"`` (the
    CPU time of the bot's processes; a bot in process is always on the wall clock);
    ``wall_cap``: on the CPU-time clock, the most a reply may take by the wall clock, as a
    multiple of its limit."""

    reply: float
    first_reply: float
    grace: float = 0.0
    game: float | None = None
    mode: Mode = "wall"
    wall_cap: float = 10.0

    def environment(self) -> dict[str, str]:
        """These clocks as the variables of a program's environment."""
        env = {
            REPLY: repr(self.reply),
            FIRST_REPLY: repr(self.first_reply),
            GRACE: repr(self.grace),
            MODE: self.mode,
            WALL_CAP: repr(self.wall_cap),
        }
        if self.game is not None:
            env[GAME] = repr(self.game)
        return env

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> BotClocks | None:
        """The clocks told in ``environ``; None when it tells none (a program started by
        hand, or by an arena that tells no clocks) or tells them wrong."""
        try:
            reply = _seconds(environ[REPLY])
            first = _seconds(environ.get(FIRST_REPLY, environ[REPLY]))
            grace = _seconds(environ.get(GRACE, "0"))
            game = _seconds(environ[GAME]) if GAME in environ else None
            wall_cap = _seconds(environ.get(WALL_CAP, "10"))
        except (KeyError, ValueError):
            return None
        mode = _MODE_NAMED.get(environ.get(MODE, "wall"))
        if mode is None:
            return None
        return cls(reply, first, grace, game, mode, wall_cap)


_MODE_NAMED: dict[str, Mode] = {mode: mode for mode in MODES}


def _seconds(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise ValueError(text)
    return value
