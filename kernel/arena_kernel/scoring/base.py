"""The scorer interface: stored outcomes in, a standings table out.

Standings are a pure function of the stored outcomes, never of anything seen live, so
``arena standings`` on a finished (or half-finished, or resumed) run prints exactly what the
run printed, and a scorer added later can rate old runs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from arena_kernel.model import GameRecord, Standings


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


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game as a scorer reads it (:class:`GameResult`) and no more: for figures kept
    while a run plays, a hundred thousand games of them (slots: some 60 bytes a game, the
    seatings and ranks shared between games with the same result)."""

    index: int
    seating: tuple[str, ...]
    ranks: tuple[int, ...]
    void: bool


def played(record: GameRecord) -> PlayedGame:
    """``record`` as a scorer reads it."""
    outcome = record.outcome
    game = record.game
    return PlayedGame(game.index, tuple(game.seating), tuple(outcome.ranks), outcome.void)


class Scorer(ABC):
    """Subclass, set ``name`` and ``summary``, implement :meth:`score`.

    :meth:`standings` is the entry point; it removes void games and orders the rest by
    schedule index before :meth:`score` sees them, so no scorer can forget to, and
    order-dependent ratings come out the same however the games were stored.
    """

    name: ClassVar[str]
    summary: ClassVar[str]

    def standings(self, games: Sequence[GameResult], bots: Sequence[str]) -> Standings:
        """The table for ``games``; every bot in ``bots`` gets a row, played or not."""
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
    for seating in dict.fromkeys(tuple(game.seating) for game in games):
        names.update(dict.fromkeys(seating))
    return list(names)


def tallied(games: Iterable[GameResult]) -> list[tuple[GameResult, int]]:
    """Each distinct result of ``games`` (the same bots in the same seats with the same
    ranks) once, with how many games had it, in order of first appearance.

    For scorers whose figures do not depend on the order of the games (wins, Elo): a long
    run repeats a few results over and over (a two-bot match of a hundred thousand games
    has a handful), so they count each once instead of looking at every game.
    """
    counts: dict[tuple[tuple[str, ...], tuple[int, ...]], list[Any]] = {}
    for game in games:
        key = (tuple(game.seating), tuple(game.ranks))
        entry = counts.get(key)
        if entry is None:
            counts[key] = [game, 1]
        else:
            entry[1] += 1
    return [(game, count) for game, count in counts.values()]


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")
