"""A single-elimination knockout bracket for two-player games, as a pure function of results.

The bracket holds no state of its own: every question (which ties stand, which games to play
next, who won) is answered from the stored games alone. That is what lets a run stop and
resume anywhere, and lets several games run at once without the bracket tracking them: the
runner stores each game under its schedule index and asks again.

The model:

* N bots are seeded in the given order (seed 1 = first). The bracket has ``size`` positions,
  the next power of two, filled by :func:`seed_positions`, the usual recursive construction:
  seeds ``s`` and ``size + 1 - s`` meet in the first round, and seeds 1 and 2 can only meet
  in the final (1 and 4 only in a semi-final, and so on). Seeds above N are absent, so their
  first-round opponents, always the top seeds, get a bye: they advance without games.
* Each tie is a mini-match of ``games`` games (even, so that colours can balance): the higher
  seed (the smaller seed number) takes seat 0 in the tie's first game, and the seats swap
  every game. A game scores 1 for a win and 0.5 each for a draw. All ``games`` games are
  played even when one bot is out of reach, so that both bots play each colour equally.
* A mini-match tied on points goes to tie-break games, played in pairs (the same alternation
  continues, so each pair gives each bot each colour once): after each complete pair the
  leader advances; when ``tiebreak`` games are spent and the tie still stands (or when
  ``tiebreak`` is 0), the higher seed advances, as a reward for the seeding it earned.
* A void game (the referee could not score it) counts as a draw: replaying it would give it
  a second schedule index, and the layout below gives each game exactly one.

The index layout: every tie that can have games gets a block of ``games + tiebreak``
consecutive schedule indexes, ties ordered round by round (first round first) and, within a
round, in bracket order from top to bottom; first-round byes get no block. Game ``j`` of a
tie (mini-match games first, then tie-break games) has index ``first_index + j``. So an index
depends only on (N, games, tiebreak) and the tie's position, never on results, and the
tournament needs at most ``(N - 1) * (games + tiebreak)`` indexes (each tie eliminates one
bot). Tie-break indexes that a tie does not need are simply never played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class KnockoutGame:
    """A stored game, as the bracket reads it.

    ``ranks`` are those of the bots in ``seating`` order: 1 is the winner, equal ranks are a
    draw. A ``void`` game counts as a draw (see the module docstring for why).
    """

    index: int
    seating: tuple[str, str]
    ranks: tuple[int, int]
    void: bool = False


@dataclass(frozen=True)
class Tie:
    """One tie of the bracket, as far as the stored games decide it.

    ``high`` and ``low`` are both None while either bot is still unknown (a tie of a later
    round whose feeding tie is undecided): which one is the higher seed is not known until
    both are. ``high`` set with ``low`` None is a first-round bye, with no ``first_index``, no
    games and ``high`` as ``winner``. ``games`` lists the games the tie needs now, played or
    not, in order: the mini-match, plus the tie-break pairs its results have called for.
    """

    round: int
    slot: int
    high: str | None
    low: str | None
    first_index: int | None
    games: tuple[tuple[int, tuple[str, str]], ...]
    score: tuple[float, float]
    winner: str | None


def seed_positions(size: int) -> list[int]:
    """The seeds in bracket order, top to bottom, for a bracket of ``size`` (a power of two).

    Built by doubling: each seed ``s`` of the bracket of half the size is followed by its
    first-round opponent ``2 * half + 1 - s``. This keeps the ``k`` best seeds in different
    ``k``-ths of the bracket for every power of two ``k``, so that they can only meet late.
    For 8: 1, 8, 4, 5, 2, 7, 3, 6.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        span = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, span - top)]
    return order


class Knockout:
    """A single-elimination bracket over ``bots`` (in seed order), each tie a mini-match of
    ``games`` games with up to ``tiebreak`` tie-break games.

    Every method is a pure function of the stored games given to it, whatever their order.
    """

    def __init__(self, bots: Sequence[str], games: int, tiebreak: int) -> None:
        names = tuple(bots)
        if len(names) < 2:
            raise ValueError(f"a knockout needs at least 2 bots, not {len(names)}")
        if len(set(names)) != len(names):
            raise ValueError("a knockout needs distinct bot names: seatings name the bots")
        if games < 1 or games % 2:
            raise ValueError(f"games per tie must be a positive even number, not {games}")
        if tiebreak < 0 or tiebreak % 2:
            raise ValueError(f"tie-break games must be a non-negative even number, not {tiebreak}")
        self._bots = names
        self._seed = {name: number for number, name in enumerate(names, start=1)}
        self._games = games
        self._tiebreak = tiebreak
        size = 1
        while size < len(names):
            size *= 2
        self._rounds = size.bit_length() - 1
        self._order = seed_positions(size)
        block = games + tiebreak
        firsts: list[list[int | None]] = []
        count = 0
        for number in range(self._rounds):
            row: list[int | None] = []
            for slot in range(size >> (number + 1)):
                if number == 0 and self._order[2 * slot + 1] > len(names):
                    row.append(None)
                else:
                    row.append(count * block)
                    count += 1
            firsts.append(row)
        self._firsts = firsts
        self._most_games = count * block

    @property
    def bots(self) -> tuple[str, ...]:
        """The bots in seed order."""
        return self._bots

    @property
    def rounds(self) -> int:
        """The number of rounds, the final being the last (``rounds - 1``)."""
        return self._rounds

    @property
    def most_games(self) -> int:
        """The largest number of games the tournament can have, for progress: every index is
        below it. Fewer are played when ties end without (all) their tie-break games."""
        return self._most_games

    def ties(self, stored: Sequence[KnockoutGame]) -> list[list[Tie]]:
        """The whole bracket, round by round, as far as ``stored`` decides it.

        Every round is listed in full, top to bottom; ties not yet reachable have unknown
        bots. Raises ValueError when the stored games cannot come from this bracket: an index
        out of range, two different games under one index, a seating other than the one the
        index calls for, or a game that its tie never asked for (for instance a tie-break
        game of a mini-match that was not tied): any of these means the store and the
        bracket disagree, and guessing would silently change who advances.
        """
        by_index: dict[int, KnockoutGame] = {}
        for game in stored:
            if not 0 <= game.index < self._most_games:
                raise ValueError(f"game index {game.index} is outside 0..{self._most_games - 1}")
            known = by_index.setdefault(game.index, game)
            if known != game:
                raise ValueError(f"two different games are stored under index {game.index}")
        used: set[int] = set()
        bracket: list[list[Tie]] = []
        entrants: list[str | None] = [
            self._bots[seed - 1] if seed <= len(self._bots) else None for seed in self._order
        ]
        for number in range(self._rounds):
            row = [
                self._tie(number, slot, entrants[2 * slot], entrants[2 * slot + 1], by_index, used)
                for slot in range(len(entrants) // 2)
            ]
            bracket.append(row)
            entrants = [tie.winner for tie in row]
        unused = sorted(set(by_index) - used)
        if unused:
            raise ValueError(
                f"stored games {unused} are not games that the bracket asks for on these results"
            )
        return bracket

    def to_play(self, stored: Sequence[KnockoutGame]) -> list[tuple[int, tuple[str, str]]]:
        """The games that can be played now and are not stored, in index order.

        These are the games of every undecided tie whose two bots are known: its mini-match,
        and tie-break games only once the mini-match (or the previous pair) is complete and
        tied. Empty exactly when the tournament is over: a tie whose needed games are all
        stored is decided, so an undecided tie with known bots always has a game to play.
        """
        done = {game.index for game in stored}
        return sorted(
            (index, seating)
            for row in self.ties(stored)
            for tie in row
            if tie.winner is None
            for index, seating in tie.games
            if index not in done
        )

    def champion(self, stored: Sequence[KnockoutGame]) -> str | None:
        """The winner of the final, or None while it is undecided."""
        return self.ties(stored)[-1][0].winner

    def placings(self, stored: Sequence[KnockoutGame]) -> list[tuple[str, int]]:
        """Every bot with the round it reached, for a standings table, best first.

        A bot reached round 0 plus one per tie it won (a bye counts as won), so a bot
        eliminated in round r has r, a bot still in has its current round, and the champion
        has ``rounds`` (one more than the final), alone at the top. Bots that reached the
        same round come in seed order.
        """
        reached = dict.fromkeys(self._bots, 0)
        for row in self.ties(stored):
            for tie in row:
                if tie.winner is not None:
                    reached[tie.winner] = tie.round + 1
        return sorted(reached.items(), key=lambda item: (-item[1], self._seed[item[0]]))

    def _tie(
        self,
        number: int,
        slot: int,
        top: str | None,
        bottom: str | None,
        by_index: dict[int, KnockoutGame],
        used: set[int],
    ) -> Tie:
        """The tie at (``number``, ``slot``) between ``top`` and ``bottom`` (None: unknown,
        or absent for a first-round bye), scored from ``by_index``; marks the indexes it
        reads in ``used``."""
        first = self._firsts[number][slot]
        if first is None:
            return Tie(number, slot, top, None, None, (), (0.0, 0.0), top)
        if top is None or bottom is None:
            return Tie(number, slot, None, None, first, (), (0.0, 0.0), None)
        high, low = sorted((top, bottom), key=self._seed.__getitem__)
        needed = self._games
        points = [0.0, 0.0]
        complete = True
        winner: str | None = None
        position = 0
        while True:
            while position < needed:
                index = first + position
                game = by_index.get(index)
                if game is None:
                    complete = False
                else:
                    used.add(index)
                    seat0, seat1 = self._points(game, self._seating(high, low, position))
                    # Odd games seat the low seed first.
                    points[0] += seat0 if position % 2 == 0 else seat1
                    points[1] += seat1 if position % 2 == 0 else seat0
                position += 1
            if not complete:
                break
            if points[0] != points[1]:
                winner = high if points[0] > points[1] else low
                break
            if needed == self._games + self._tiebreak:
                winner = high
                break
            needed += 2
        games = tuple(
            (first + position, self._seating(high, low, position)) for position in range(needed)
        )
        return Tie(number, slot, high, low, first, games, (points[0], points[1]), winner)

    @staticmethod
    def _seating(high: str, low: str, position: int) -> tuple[str, str]:
        """The seating of a tie's game ``position``: the higher seed in seat 0 first, then
        alternating, so each pair of games gives each bot each seat once."""
        return (high, low) if position % 2 == 0 else (low, high)

    @staticmethod
    def _points(game: KnockoutGame, seating: tuple[str, str]) -> tuple[float, float]:
        """The points of seat 0 and seat 1 in ``game``, ``seating`` being the seating its
        index calls for; ValueError when the stored seating differs."""
        if game.seating != seating:
            raise ValueError(
                f"game {game.index} is stored with seating {game.seating}, "
                f"but the bracket seats it {seating}"
            )
        first, second = game.ranks
        if game.void or first == second:
            return (0.5, 0.5)
        return (1.0, 0.0) if first < second else (0.0, 1.0)
