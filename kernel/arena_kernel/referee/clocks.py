"""Clocks: the time limits of one game, as the match file (or the game's defaults) set them."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from arena_kernel.bot_clocks import MODES as MODES
from arena_kernel.bot_clocks import BotClocks
from arena_kernel.bot_clocks import Mode as Mode


@dataclass(frozen=True)
class Clocks:
    """Separate limits, in seconds.

    ``startup`` covers starting a bot, connecting it, and its first reply, counted from
    its start: the table puts every bot's first request on it (see
    :class:`~arena_kernel.referee.table.Table`); ``reply`` is the per-reply limit; ``grace`` is
    added to every limit to absorb scheduling jitter; ``game`` is an optional per-seat
    budget over the whole game (``None`` = no budget); ``kill`` is how long a bot gets
    between SIGTERM and SIGKILL at the end of its game.

    ``mode`` says what the limits measure. ``"wall"``: the time from the request to the
    reply, whatever else the machine is doing. ``"cpu"``: the CPU time (user and system)
    the bot's processes use between the request and the reply, so that a bot is not
    charged for the time it waits for a core on a busy machine; then ``wall_cap`` times a
    request's limit is still the most it may take by the wall clock, so that a bot that
    sleeps or blocks is ended too (a ``wall-cap`` fault). See docs/clocks.md.
    """

    startup: float = 10.0
    reply: float = 3.0
    grace: float = 0.1
    game: float | None = None
    kill: float = 0.5
    mode: Mode = "wall"
    wall_cap: float = 10.0

    def merged(self, overrides: dict[str, Any]) -> Clocks:
        """These clocks with a match file's ``[clock]`` table applied on top."""
        known = {f.name for f in fields(self)}
        return replace(self, **{k: v for k, v in overrides.items() if k in known})

    def told(self) -> BotClocks:
        """What a bot of the game is told of these clocks (its environment, or its
        ``clocks()`` in process): the limits its replies are judged by."""
        return BotClocks(
            reply=self.reply,
            first_reply=self.startup,
            grace=self.grace,
            game=self.game or None,
            mode=self.mode,
            wall_cap=self.wall_cap,
        )
