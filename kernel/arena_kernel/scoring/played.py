"""The games a run keeps for its figures while it plays, as a scorer reads them: a
module apart from the scorers' interface (:mod:`.base`), which reading a stored run's
standings from its tally needs without them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena_kernel.model import GameRecord


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game as a scorer reads it (:class:`~arena_kernel.scoring.base.GameResult`) and no
    more: for figures kept while a run plays, a hundred thousand games of them (slots: some
    60 bytes a game, the seatings and ranks shared between games with the same result)."""

    index: int
    seating: tuple[str, ...]
    ranks: tuple[int, ...]
    void: bool


def played(record: GameRecord) -> PlayedGame:
    """``record`` as a scorer reads it."""
    outcome = record.outcome
    game = record.game
    return PlayedGame(game.index, tuple(game.seating), tuple(outcome.ranks), outcome.void)
