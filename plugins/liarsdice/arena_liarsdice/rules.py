"""The rules of Liar's Dice as the contest ran them, fixed where its server was wrong.

:class:`State` is a game's pure, seeded state: players are indexes ``0..n-1``, the playing
order is a permutation of them drawn per game, and every method judges before it changes
anything, raising :class:`RuleError` with the reason. The referee only translates messages
and decides which of several simultaneous replies counts
(:func:`arena_liarsdice.simulate.resolve`).

Variants (all off by default, as in the contest): ``wild_ones`` (a 1 counts as any face, so
bids on 1s count only 1s), ``spot_on`` (a player may claim the last bid is exactly right:
right, the last bidder loses a die; wrong, the caller does), and two checks the contest's
server did not make: ``strict_count`` (a bid may not name more dice than the table holds;
without it such a bid is legal and can only lose a challenge) and ``strict_turn`` (a player
not to move answers a pass or a call; without it, anything else it answers counts as a
pass, see :func:`arena_liarsdice.simulate.move_error`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

FACES = range(1, 7)
NO_BID: tuple[int, int] = (0, 0)
"""``[0, 0]`` on the wire: no bid yet this round."""

Bid = tuple[int, int]
"""``(face, count)``: at least ``count`` dice on the table show ``face``."""


class RuleError(Exception):
    """An illegal move; the message says exactly what was wrong."""


def raise_error(bid: Bid, last_bid: Bid, on_table: int | None) -> str | None:
    """Why the bid ``(face, count)`` does not raise ``last_bid``, or ``None`` if it does.

    ``on_table``: the dice in play, the highest count allowed; ``None`` allows any count, as
    the contest's server did (a bid above the dice on the table can only lose a challenge).
    """
    face, count = bid
    if face not in FACES:
        return f"face {face} is not 1 to 6"
    if on_table is None and count < 1:
        return f"count {count} is not 1 or more"
    if on_table is not None and not 1 <= count <= on_table:
        return f"count {count} is not 1 to {on_table} (the dice on the table)"
    if (count, face) <= (last_bid[1], last_bid[0]):
        last = f"[{last_bid[0]}, {last_bid[1]}]"
        return f"[{face}, {count}] does not raise {last}: more dice, or as many of a higher face"
    return None


def standing(dice: Sequence[int], out: Sequence[int]) -> list[int]:
    """Each player's rank: those holding dice first, by how many (ties share a rank), then
    those in ``out`` (the order they lost their last die), the last out first. At a game's
    end only the winner holds dice; a game stopped before then ranks everyone still in."""
    rank_of = {count: 1 + sum(d > count for d in dice) for count in set(dice) if count > 0}
    holders = sum(d > 0 for d in dice)
    ranks = [rank_of.get(d, 0) for d in dice]
    for place, player in enumerate(reversed(out), start=holders + 1):
        ranks[player] = place
    return ranks


@dataclass(frozen=True)
class Variant:
    """Rule variants, all off by default."""

    wild_ones: bool = False
    spot_on: bool = False
    strict_count: bool = False
    strict_turn: bool = False


@dataclass(frozen=True)
class RoundResult:
    """How a round ended: who lost a die, who challenged (``None``: a fault), the dice."""

    loser: int
    challenger: int | None
    hands: tuple[tuple[int, ...], ...]
    bid: Bid
    counted: int
    """How many dice matched the bid (0 when the round ended on a fault)."""


@dataclass
class State:
    """One game: every player's dice, the round in play, and who is still in.

    ``order`` is the playing order for the whole game; turns go along it, skipping players
    without dice. ``hands[p]`` is sorted; ``dice[p]`` is how many dice ``p`` has left.
    """

    order: tuple[int, ...]
    dice: list[int]
    rng: random.Random
    variant: Variant = field(default_factory=Variant)
    hands: list[tuple[int, ...]] = field(default_factory=list)
    mover: int = 0
    last_bid: Bid = NO_BID
    last_bidder: int | None = None
    round_number: int = 1
    move_number: int = 1
    winner: int | None = None

    @classmethod
    def new(
        cls, players: int, dice: int, rng: random.Random, variant: Variant | None = None
    ) -> State:
        """A game with a freshly drawn playing order and rolled dice."""
        if players < 2:
            raise RuleError(f"Liar's Dice needs at least 2 players, not {players}")
        if dice < 1:
            raise RuleError(f"each player needs at least one die, not {dice}")
        order = list(range(players))
        rng.shuffle(order)
        state = cls(tuple(order), [dice] * players, rng, variant or Variant())
        state.mover = order[0]
        state._roll()
        return state

    @property
    def n_players(self) -> int:
        return len(self.dice)

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def on_table(self) -> int:
        return sum(self.dice)

    def active(self) -> list[int]:
        """Players with dice, in playing order starting with the player to move."""
        start = self.order.index(self.mover)
        turn = self.order[start:] + self.order[:start]
        return [p for p in turn if self.dice[p] > 0]

    def _roll(self) -> None:
        self.hands = [tuple(sorted(self.rng.randint(1, 6) for _ in range(n))) for n in self.dice]

    def _next_after(self, player: int) -> int:
        start = self.order.index(player)
        for step in range(1, len(self.order) + 1):
            candidate = self.order[(start + step) % len(self.order)]
            if self.dice[candidate] > 0:
                return candidate
        raise AssertionError("no player has dice")

    # -- judging --------------------------------------------------------------------------

    def bid_error(self, bid: Sequence[object]) -> str | None:
        """Why ``bid`` is not a legal raise now, or ``None`` if it is."""
        if len(bid) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in bid):
            return f"a bid is [face, count] with two integers, not {list(bid)!r}"
        face, count = bid  # type: ignore[misc]
        limit = self.on_table if self.variant.strict_count else None
        return raise_error((face, count), self.last_bid, limit)

    def count(self, face: int) -> int:
        """Dice on the table that show ``face`` (and 1s too with wild ones, unless face is 1)."""
        wild = self.variant.wild_ones and face != 1
        return sum(1 for hand in self.hands for d in hand if d == face or (wild and d == 1))

    # -- moves ----------------------------------------------------------------------------

    def bid(self, player: int, bid: Bid) -> None:
        """The mover raises; play passes to the next player with dice."""
        if player != self.mover:
            raise RuleError(f"player {player} bid out of turn (player {self.mover} moves)")
        reason = self.bid_error(bid)
        if reason is not None:
            raise RuleError(reason)
        self.last_bid = (bid[0], bid[1])
        self.last_bidder = player
        self.mover = self._next_after(player)
        self.move_number += 1

    def challenge(self, challenger: int) -> RoundResult:
        """``challenger`` says the last bid is too high. With no bid yet, they lose."""
        if self.dice[challenger] == 0:
            raise RuleError(f"player {challenger} has no dice")
        if self.last_bidder is None:
            return self._end(challenger, challenger, 0)
        face, count = self.last_bid
        counted = self.count(face)
        loser = challenger if counted >= count else self.last_bidder
        return self._end(loser, challenger, counted)

    def spot_on(self, caller: int) -> RoundResult:
        """``caller`` says the last bid is exactly right (the ``spot_on`` variant)."""
        if not self.variant.spot_on:
            raise RuleError("spot-on calls are not played (variant off)")
        if self.last_bidder is None:
            return self._end(caller, caller, 0)
        face, count = self.last_bid
        counted = self.count(face)
        loser = self.last_bidder if counted == count else caller
        return self._end(loser, caller, counted)

    def fault(self, player: int) -> RoundResult:
        """``player`` made an invalid move (or none): they lose the round."""
        if self.dice[player] == 0:
            raise RuleError(f"player {player} has no dice")
        return self._end(player, None, 0)

    def _end(self, loser: int, challenger: int | None, counted: int) -> RoundResult:
        result = RoundResult(loser, challenger, tuple(self.hands), self.last_bid, counted)
        self.dice[loser] -= 1
        left = [p for p in self.order if self.dice[p] > 0]
        if len(left) == 1:
            self.winner = left[0]
            return result
        self.mover = loser if self.dice[loser] > 0 else self._next_after(loser)
        self.last_bid = NO_BID
        self.last_bidder = None
        self.round_number += 1
        self.move_number = 1
        self._roll()
        return result
