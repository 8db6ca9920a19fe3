"""Duel, the kernel's test game of known strengths: what a league's tests and figures rank.

Each bot is an Elo rating: asked ``strength``, it answers ``strength <elo>``; the referee
then draws the game's finishing order from the Plackett-Luce model with the game's seed,
each place going to one of the bots left with chance proportional to ``10 ** (elo /
400)`` (for two seats, the odds of the Elo scale). So every bot's true strength is known,
and a game's result depends on its seed and its bots alone: a league of duel bots is
reproducible game for game, in process, as programs or on a cluster. A reply that is
not ``strength <number>`` is a fault, and its seat ranks last.

Built-in bots: ``elo0``, ``elo100``... up to ``elo2000``. As a plugin module:
``plugins = ["arena_kernel.testing.duel"]``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arena_kernel.plugin import BuiltinBot, FaultKind, Game, Outcome, Register, hookimpl

if TYPE_CHECKING:
    from arena_kernel.plugin import Table

STRENGTHS = range(0, 2001, 100)
"""The Elo ratings of the built-in bots."""


class DuelBot:
    """A bot of strength ``elo``."""

    def __init__(self, elo: float) -> None:
        self.elo = elo

    def start(self) -> list[Any]:
        return []

    def on_message(self, message: Any) -> list[Any]:
        return [f"strength {self.elo:g}"] if message == "strength" else []


def finishing_ranks(strengths: Sequence[float], rng: random.Random) -> list[int]:
    """The ranks (1 first) of a game among bots of Elo ``strengths``, in seat order."""
    left = list(range(len(strengths)))
    ranks = [0] * len(strengths)
    for place in range(1, len(strengths) + 1):
        weights = [10 ** (strengths[i] / 400) for i in left]
        pick = rng.choices(left, weights)[0]
        ranks[pick] = place
        left.remove(pick)
    return ranks


def _builtin(elo: int) -> BuiltinBot:
    return BuiltinBot(
        f"a bot of {elo} Elo",
        "arena_kernel.testing.duel_bot",
        (str(elo),),
        inproc=lambda: DuelBot(elo),
    )


class Duel(Game[None]):
    name = "duel"
    summary = "Duel (kernel test game): bots of known Elo, results drawn from the seed"
    seats = (2, 3, 4, 5, 6)
    codec = "line"
    transport = "stdio"
    bots = {f"elo{elo}": _builtin(elo) for elo in STRENGTHS}

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        replies = await table.ask_many({seat: "strength" for seat in range(len(table))})
        strengths: list[float] = []
        faulted = []
        for seat in range(len(table)):
            reply = replies[seat]
            words = reply.message.split() if reply.ok and isinstance(reply.message, str) else []
            elo = _number(words[1]) if len(words) == 2 and words[0] == "strength" else None
            if reply.ok and elo is None:
                table.fault(seat, FaultKind.ILLEGAL, f"expected strength <elo>: {reply.message!r}")
            if elo is None:
                faulted.append(seat)
            strengths.append(-math.inf if elo is None else elo)
        playing = [seat for seat in range(len(table)) if seat not in faulted]
        ranks = [len(table)] * len(table)
        drawn = finishing_ranks([strengths[s] for s in playing], random.Random(seed))
        for seat, rank in zip(playing, drawn, strict=True):
            ranks[seat] = rank
        return Outcome(ranks, "drawn by strength")


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and abs(value) <= 10_000 else None


@hookimpl
def arena_register_games(register: Register) -> None:
    register(Duel)
