"""A game's result as one short text in its row of ``games``: what the standings read of
every stored game.

Standings read every game of a run (a hundred thousand in a long one), and a row per seat
plus a look-up of each seat's first fault cost more to read than all the scoring after it.
So the result is also kept whole in the game's own row, written from the same record in
the same transaction as the seats and faults it repeats. The ``seats`` and ``faults``
tables stay what everything else reads (a game's page, per-bot figures, a bot's games);
the text never changes once written (a disqualification later voids the game in its
``void`` column, which is not in the text).

Runs repeat a few results over and over (a two-bot match has a handful), so a reader
parses each distinct text once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import NamedTuple


class Result(NamedTuple):
    """A game's result per seat: who sat there, its rank, its score (None: the game gives
    none), the seats disqualified, and the kind of each seat's first fault (None: it had
    none)."""

    seating: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None
    disqualified: frozenset[int]
    first_faults: tuple[str | None, ...]


def first_faults(seats: int, faults: Iterable[tuple[int | None, str]]) -> tuple[str | None, ...]:
    """The kind of each seat's first fault among ``faults``, (seat, kind) pairs in the order
    they happened (a fault of the referee's own has no seat)."""
    found: list[str | None] = [None] * seats
    for seat, kind in faults:
        if seat is not None and 0 <= seat < seats and found[seat] is None:
            found[seat] = kind
    return tuple(found)


def result_text(
    seating: Sequence[str],
    ranks: Sequence[int],
    scores: Sequence[float] | None,
    disqualified: Iterable[int],
    faults: Sequence[str | None],
) -> str:
    """The text kept in ``games.outcome`` (JSON, so that any tool can read it too)."""
    return json.dumps(
        [
            list(seating),
            list(ranks),
            None if scores is None else list(scores),
            sorted(disqualified),
            list(faults),
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )


def tally_text(
    seating: Sequence[str],
    ranks: Sequence[int],
    disqualified: Iterable[int],
    faults: Sequence[str | None],
) -> str:
    """The text a run's tally counts a game by (``result_tallies.result``): its result
    text without the scores, which no standings read, so that games that differ in their
    scores alone are one row."""
    return result_text(seating, ranks, None, disqualified, faults)


class ResultReader:
    """Reads ``games.outcome`` texts, each distinct one once: ``read.known.get(text) or
    read(text)`` (the look-up inline is what a hundred thousand games cost)."""

    def __init__(self) -> None:
        self.known: dict[str, Result] = {}

    def __call__(self, text: str) -> Result:
        seating, ranks, scores, out, faults = json.loads(text)
        found = self.known[text] = Result(
            tuple(seating),
            tuple(ranks),
            None if scores is None else tuple(scores),
            frozenset(out),
            tuple(faults),
        )
        return found
