"""Leagues simulated without a referee: bots of known strength, each game's finishing
order drawn from the Plackett-Luce model, blocks planned by the league's matchmaking or
by uniform random tables. What the docs' figures (benchmarks/league_matchmaking.py) and
the matchmaking's tests measure: how many games each pairing needs before the ladder has
the bots in their true order.

Strengths are Elo ratings, and a game's finishing order is drawn as the ``duel`` test
game draws it (:mod:`arena_kernel.testing.duel`): for two seats, ordinary Elo odds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena_kernel.match.matchmaking import Pairing, next_block
from arena_kernel.scoring.league_ratings import LeagueTally, fit_league
from arena_kernel.scoring.played import PlayedGame
from arena_kernel.testing.duel import finishing_ranks


@dataclass(frozen=True)
class Timeline:
    """Who plays when: the block each bot joins in (0: from the start) and the block
    from which a bot plays no more (a retired bot's games still count)."""

    joins: Mapping[str, int] = field(default_factory=dict)
    retires: Mapping[str, int] = field(default_factory=dict)

    def active(self, bots: Sequence[str], block: int) -> list[str]:
        return [
            bot
            for bot in bots
            if self.joins.get(bot, 0) <= block and self.retires.get(bot, math.inf) > block
        ]


@dataclass
class SimulatedLeague:
    """One league: its bots' true strengths (Elo, by name, in the league's order), how
    it plans its blocks, who plays when, and its seed."""

    strengths: Mapping[str, float]
    pairing: Pairing = field(default_factory=lambda: Pairing(2))
    timeline: Timeline = field(default_factory=Timeline)
    seed: int = 0
    tally: LeagueTally = field(default_factory=LeagueTally)
    games: list[PlayedGame] = field(default_factory=list)
    blocks: list[tuple[list[str], list[tuple[str, ...]]]] = field(default_factory=list)
    """Each block's bots that could play, and its games."""

    def play_block(self) -> None:
        number = len(self.blocks)
        bots = self.timeline.active(list(self.strengths), number)
        plan = next_block(self.tally, bots, self.pairing, self.seed, number)
        play_rng = random.Random(f"play:{self.seed}:{number}")
        played: list[PlayedGame] = []
        for seating in plan:
            ranks = finishing_ranks([self.strengths[b] for b in seating], play_rng)
            played.append(PlayedGame(len(self.games) + len(played), seating, tuple(ranks), False))
        self.games.extend(played)
        self.tally.add(played)
        self.blocks.append((bots, plan))

    def misordered(self) -> int:
        """Pairs of bots (every bot with a game) the ladder has in the wrong order; a bot
        without a rating counts as wrong against every other."""
        ratings = fit_league(self.tally).ratings()
        bots = [bot for bot in self.strengths if self.tally.games.get(bot)]
        wrong = 0
        for i, a in enumerate(bots):
            for b in bots[i + 1 :]:
                rated = a in ratings and b in ratings
                if (
                    not rated
                    or (ratings[a].elo - ratings[b].elo) * (self.strengths[a] - self.strengths[b])
                    <= 0
                ):
                    wrong += 1
        return wrong


def evenly_spaced(count: int, gap: float) -> dict[str, float]:
    """``count`` bots ``gap`` Elo apart, named ``b01``... from the weakest, centred on 0,
    listed in a shuffled-looking but fixed order (every third from the middle)."""
    names = [f"b{i + 1:02}" for i in range(count)]
    order = sorted(range(count), key=lambda i: (i * 7919) % count)
    return {names[i]: (i - (count - 1) / 2) * gap for i in order}


def games_to_order(league: SimulatedLeague, most_blocks: int) -> int | None:
    """The games a league plays until its ladder holds every bot (that ever played) in
    the true order after a block and keeps them so for every block after it, up to
    ``most_blocks`` blocks; None if it is not in order by then."""
    settled: int | None = None
    for _ in range(most_blocks):
        league.play_block()
        if league.misordered() == 0:
            if settled is None:
                settled = len(league.games)
        else:
            settled = None
    return settled
