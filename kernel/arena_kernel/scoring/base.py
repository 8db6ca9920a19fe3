"""The scorer interface: stored outcomes in, a standings table out.

Standings are a pure function of the stored outcomes, never of anything seen live, so
``arena standings`` on a finished (or half-finished, or resumed) run prints exactly what the
run printed, and a scorer added later can rate old runs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, chain, repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, overload

if TYPE_CHECKING:
    from arena_kernel.model import Standings


class GameResult(Protocol):
    """What a scorer reads of one game (:class:`arena_kernel.store.StoredGame` is one).

    ``ranks[seat]`` is 1 for the winner(s), equal ranks tie; ``seating[seat]`` names the bot.
    """

    @property
    def index(self) -> int: ...
    @property
    def seating(self) -> Sequence[str]: ...
    @property
    def ranks(self) -> Sequence[int]: ...
    @property
    def void(self) -> bool: ...


Game = TypeVar("Game", bound=GameResult)
Item = TypeVar("Item")


class Tally(Sequence[Game]):
    """A run's games as their distinct results, each with how many games had it: what the
    store keeps of a run (``Store.tally``), so that standings that do not depend on the
    order of the games read a few rows however many games were played.

    ``counts`` are ``(result, games)`` pairs in order of the results' first game by index,
    each result's ``index`` that of its first game. As a sequence it is the games one by
    one, each result repeated as many times as it was had, for any code that reads games;
    :func:`weighted` (and through it :func:`tallied`, :func:`roster`) reads it a result at a
    time.
    """

    def __init__(self, counts: Iterable[tuple[Game, int]]) -> None:
        self.counts = [(game, count) for game, count in counts if count > 0]
        self._ends = list(accumulate(count for _game, count in self.counts))

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __iter__(self) -> Iterator[Game]:
        return chain.from_iterable(repeat(game, count) for game, count in self.counts)

    @overload
    def __getitem__(self, position: int) -> Game: ...
    @overload
    def __getitem__(self, position: slice) -> list[Game]: ...
    def __getitem__(self, position: int | slice) -> Game | list[Game]:
        if isinstance(position, slice):
            return list(self)[position]
        if position < 0:
            position += len(self)
        if not 0 <= position < len(self):
            raise IndexError("tally position out of range")
        return self.counts[bisect_right(self._ends, position)][0]

    def counted(self) -> Tally[Game]:
        """The results of the games that count (not void), in order of their first game."""
        return Tally(
            sorted(((g, n) for g, n in self.counts if not g.void), key=lambda e: e[0].index)
        )


def weighted(games: Iterable[Item]) -> Iterable[tuple[Item, int]]:
    """``games`` as ``(result, games)`` pairs: a :class:`Tally`'s counts, else each game once."""
    if isinstance(games, Tally):
        counts: list[tuple[Item, int]] = games.counts
        return counts
    return ((game, 1) for game in games)


class Scorer(ABC):
    """Subclass, set ``name`` and ``summary``, implement :meth:`score`.

    :meth:`standings` is the entry point; it removes void games and orders the rest by
    schedule index before :meth:`score` sees them, so no scorer can forget to, and
    order-dependent ratings come out the same however the games were stored.

    A scorer whose table depends only on how many games had each result, never on their
    order (it reads the games through :func:`tallied`), sets ``order_free``: its
    :meth:`score` may then be given a :class:`Tally`, and ``arena standings`` of a long run
    reads the run's few distinct results instead of every game.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    order_free: ClassVar[bool] = False

    def standings(self, games: Sequence[GameResult], bots: Sequence[str]) -> Standings:
        """The table for ``games`` (a :class:`Tally` for an ``order_free`` scorer only);
        every bot in ``bots`` gets a row, played or not."""
        counted: Sequence[GameResult]
        if isinstance(games, Tally):
            if not self.order_free:
                raise TypeError(f"scorer {self.name!r} rates games in order: give it every game")
            counted = games.counted()
        else:
            counted = sorted((g for g in games if not g.void), key=attrgetter("index"))
        table = self.score(counted, roster(counted, bots))
        void = len(games) - len(counted)
        if void:
            table.notes.append(f"{plural(void, 'void game')} not counted")
        return table

    @abstractmethod
    def score(self, games: Sequence[GameResult], bots: Sequence[str]) -> Standings:
        """Rate ``games`` (no void ones, in index order) for ``bots`` (every bot seated in
        them included)."""


def roster(games: Iterable[GameResult], bots: Sequence[str]) -> list[str]:
    """``bots``, then any bot seated in ``games`` but missing from it, in order of
    appearance: a renamed or removed bot of a resumed run still shows up in the table."""
    names = dict.fromkeys(bots)
    for seating in dict.fromkeys(tuple(game.seating) for game, _count in weighted(games)):
        names.update(dict.fromkeys(seating))
    return list(names)


def tallied(games: Iterable[GameResult]) -> list[tuple[GameResult, int]]:
    """Each distinct result of ``games`` (the same bots in the same seats with the same
    ranks) once, with how many games had it, in order of first appearance.

    For scorers whose figures do not depend on the order of the games (wins, Elo): a long
    run repeats a few results over and over (a two-bot match of a hundred thousand games
    has a handful), so they count each once instead of looking at every game; a
    :class:`Tally` is counted a result at a time.
    """
    counts: dict[tuple[tuple[str, ...], tuple[int, ...]], list[Any]] = {}
    for game, count in weighted(games):
        key = (tuple(game.seating), tuple(game.ranks))
        entry = counts.get(key)
        if entry is None:
            counts[key] = [game, count]
        else:
            entry[1] += count
    return [(game, count) for game, count in counts.values()]


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")
