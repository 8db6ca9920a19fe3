"""Protocol-free Liar's Dice players: the decisions, without the wire.

A bot adapter builds a :class:`View` from each ``move_request`` and sends back the
:data:`Move`; :mod:`arena_liarsdice.simulate` builds the same views in process, so the TCP
bots, in-process games and the strength benchmark share one decision code.

Every player is asked on every move, not only on its turn, because the protocol lets anyone
challenge out of turn. The players assume the contest's rules (1s are not wild): a view does
not say which variant is played, and the contest played none.

:class:`RandomPlayer` and :class:`BasicPlayer` are baselines (the latter is the contest
repository's sample strategy); :class:`ProbPlayer` judges every bid by the binomial chance
that the dice it cannot see make it true.
"""

from __future__ import annotations

import functools
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from arena_liarsdice.rules import FACES, NO_BID, Bid, raise_error

Move = str | tuple[int, int]
"""``"pass"``, ``"challenge"`` or a bid ``(face, count)``, as a ``move_response`` says it."""

PASS = "pass"
CHALLENGE = "challenge"
SPOT_ON = "spot_on"
"""The reply that claims the last bid is exact, legal only with the ``spot_on`` variant. The
contest protocol has no such word; a referee that offers the variant chooses how bots say it
and passes this string to :func:`~arena_liarsdice.simulate.resolve`."""


@dataclass(frozen=True)
class View:
    """What one ``move_request`` tells a player (ids relative: 0 is the player itself)."""

    hand: tuple[int, ...]
    """Own dice, sorted."""
    others: tuple[tuple[int, int], ...]
    """``(player id, dice)`` of every active player in playing order, starting with the player
    to move now (0 = me); the last entry made the last bid."""
    last_bid: Bid
    """``(face, count)``, or ``(0, 0)`` when nobody has bid yet this round."""
    game_number: int = 1
    round_number: int = 1
    move_number: int = 1

    def __post_init__(self) -> None:
        # JSON gives lists; as tuples, (0, 0) compares equal to NO_BID and views hash.
        object.__setattr__(self, "hand", tuple(self.hand))
        object.__setattr__(self, "others", tuple((p, n) for p, n in self.others))
        object.__setattr__(self, "last_bid", (self.last_bid[0], self.last_bid[1]))

    @property
    def my_turn(self) -> bool:
        return self.others[0][0] == 0

    @property
    def on_table(self) -> int:
        """All dice still in play: the highest count a bid can be true with."""
        return sum(dice for _, dice in self.others)

    @property
    def first_move(self) -> bool:
        return self.last_bid == NO_BID

    @property
    def my_bid(self) -> bool:
        """The last bid is ours: challenging it could only lose."""
        return not self.first_move and self.others[-1][0] == 0


def is_raise(bid: Bid, last_bid: Bid, on_table: int) -> bool:
    """``bid`` is legal after ``last_bid``: the rules engine's own test."""
    return raise_error(bid, last_bid, on_table) is None


def cheapest_raises(last_bid: Bid, on_table: int) -> list[Bid]:
    """The lowest legal raise of each face (a higher count of a face is only less likely)."""
    last_face, last_count = last_bid
    raises = []
    for face in FACES:
        count = max(1, last_count if face > last_face else last_count + 1)
        if count <= on_table:
            raises.append((face, count))
    return raises


@functools.cache
def binomial_tail(n: int, k: int) -> float:
    """``P(Binomial(n, 1/6) >= k)``, in exact integers until the one division."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(math.comb(n, i) * 5 ** (n - i) for i in range(k, n + 1)) / 6**n


def bid_probability(bid: Bid, hand: Sequence[int], on_table: int) -> float:
    """The chance that ``bid`` is true given our ``hand``, the other dice being uniform."""
    face, count = bid
    mine = sum(1 for d in hand if d == face)
    return binomial_tail(on_table - len(hand), count - mine)


class Player(ABC):
    """What a Liar's Dice player decides: one :meth:`move` per ``move_request``."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def move(self, view: View) -> Move:
        """The reply: a raise or ``"challenge"`` on our turn, else ``"pass"`` or
        ``"challenge"``."""

    def round_over(
        self,
        state: Sequence[tuple[int, int]],
        loser: int,
        challenger: int,
        winner: int,
    ) -> None:
        """The ``round_over`` broadcast (relative ids, -1 for nobody): nothing to learn for
        players that judge each round on its own."""
        return None


class RandomPlayer(Player):
    """Legal moves at random, staying near the last bid so games do not end at once."""

    def move(self, view: View) -> Move:
        if not view.my_turn:
            if not view.first_move and self.rng.random() < 0.05:
                return CHALLENGE
            return PASS
        if view.first_move:
            return (self.rng.choice(FACES), self.rng.randint(1, min(2, view.on_table)))
        if self.rng.random() < 0.25:
            return CHALLENGE
        last_count = view.last_bid[1]
        raises = [
            (face, count)
            for count in range(last_count, min(last_count + 2, view.on_table) + 1)
            for face in FACES
            if is_raise((face, count), view.last_bid, view.on_table)
        ]
        return self.rng.choice(raises) if raises else CHALLENGE


class BasicPlayer(Player):
    """The contest repository's sample bot (``bots/basic.js``), move for move.

    Whenever a bid exists, on its turn or not, it challenges one time in five; otherwise,
    on its turn, it bids the last bid's face (1 on the first move) with one die more. Where
    that is more dice than the table holds, the sample bids it anyway (legal by default, a
    fault with ``strict_count``); this one challenges instead, a move legal under every
    option.
    """

    def move(self, view: View) -> Move:
        if not view.first_move and self.rng.random() < 0.2:
            return CHALLENGE
        if not view.my_turn:
            return PASS
        face, count = view.last_bid
        if count + 1 > view.on_table:
            return CHALLENGE
        return (max(face, 1), count + 1)


class ProbPlayer(Player):
    """Binomial odds of each bid from its own dice; no memory, no model of the others.

    ``threshold``: on its turn it challenges a last bid less likely than this, else makes the
    likeliest raise. ``call_out``: out of turn, passing costs nothing, so it challenges only a
    bid this unlikely. ``opening``: the first bid of a round is the largest count of its
    commonest face that is at least this likely. The defaults were tuned with
    ``benchmarks/strength.py``.
    """

    def __init__(
        self,
        seed: int | None = None,
        threshold: float = 0.25,
        call_out: float = 0.1,
        opening: float = 0.8,
    ) -> None:
        super().__init__(seed)
        self.threshold = threshold
        self.call_out = call_out
        self.opening = opening

    def probability(self, view: View, bid: Bid) -> float:
        return bid_probability(bid, view.hand, view.on_table)

    def move(self, view: View) -> Move:
        if not view.my_turn:
            if view.first_move or view.my_bid:
                return PASS
            return CHALLENGE if self.probability(view, view.last_bid) < self.call_out else PASS
        if view.first_move:
            return self.open(view)
        if self.probability(view, view.last_bid) < self.threshold:
            return CHALLENGE
        raises = cheapest_raises(view.last_bid, view.on_table)
        if not raises:
            return CHALLENGE
        return max(
            raises,
            key=lambda bid: (self.probability(view, bid), view.hand.count(bid[0]), -bid[1]),
        )

    def open(self, view: View) -> Bid:
        most = max(view.hand.count(face) for face in FACES)
        face = self.rng.choice([f for f in FACES if view.hand.count(f) == most])
        count = most
        while count < view.on_table and self.probability(view, (face, count + 1)) >= self.opening:
            count += 1
        return (face, count)


PLAYERS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "basic": BasicPlayer,
    "prob": ProbPlayer,
}


def make_player(name: str, seed: int | None = None) -> Player:
    """A built-in player by its bot name, with default parameters."""
    try:
        cls = PLAYERS[name]
    except KeyError:
        raise ValueError(f"no player {name!r}; built-in players: {', '.join(PLAYERS)}") from None
    return cls(seed)
