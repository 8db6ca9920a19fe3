"""The renderer interface: a stored game in, the steps of its replay viewer out.

A game plugin draws its own games: its renderer turns a game's stored record (seats,
outcome, faults, the event log) into a list of :class:`Step` s, each with a small JSON
``picture`` that the plugin's drawing script turns into the game's own picture in the
browser. A renderer reads the store only; it never starts a bot, and it may replay the
recorded moves through the game's own rules engine to know the position.

The data stays small (a stones position is a list of stacks, not an SVG) because a report
of ten thousand games holds ten thousand of them; the one drawing script per game is
shipped once, in the report's assets.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from arena_kernel.model import Event, Fault


@dataclass(frozen=True)
class Replay:
    """One stored game as a renderer reads it.

    ``events`` is the game's whole event log in order (what ``arena replay`` prints):
    ``send``/``recv``/``late`` messages of a seat, ``fault`` and ``note`` events.
    ``options`` are the run's game options as the match file gave them (the game's
    defaults apply to the rest).
    """

    game_id: int
    game: str
    options: Mapping[str, Any]
    seating: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None
    reason: str
    void: bool
    disqualified: frozenset[int]
    details: Mapping[str, Any]
    extra: Mapping[str, Any]
    faults: tuple[Fault, ...]
    events: tuple[Event, ...]

    def winners(self) -> tuple[str, ...]:
        """The bots ranked first (several: a draw), in seat order."""
        return tuple(bot for bot, rank in zip(self.seating, self.ranks, strict=True) if rank == 1)


@dataclass(frozen=True)
class Step:
    """One position of the replay viewer.

    ``events`` is the slice ``[start, stop)`` of :attr:`Replay.events` that led to this
    position: the viewer lists those messages (faults in red) beside the picture. The
    steps of a game cover its events in order, each event in exactly one step.
    ``label`` is short ("12. white A3-B4"), ``caption`` one sentence about the position;
    the last step's caption says how the game ended, naming the bots.
    ``picture`` is what the game's drawing script draws: JSON data of the renderer's own
    design (empty when the step has nothing to draw).
    """

    label: str
    events: tuple[int, int]
    caption: str = ""
    picture: Mapping[str, Any] = field(default_factory=dict)


class Renderer(ABC):
    """Subclass, set ``name`` to the name of the game it draws and ``summary``, implement
    :meth:`steps`, and ship a drawing script returned by :meth:`script`.

    The drawing script is plain JavaScript, run in the report's pages with no network and
    no library. It registers one function for the game::

        arenaReport.drawers["mygame"] = function (element, picture, context) { ... };

    which fills ``element`` (an empty ``<div>``) with the picture of one step;
    ``context`` holds ``seating`` (the bots' names in seat order), ``step`` and ``steps``
    (the step's index and the number of steps).

    A renderer that raises, or returns steps that do not cover the events, does not stop
    a report: that game is shown as a transcript, with the renderer's failure on its page.
    """

    name: ClassVar[str]
    summary: ClassVar[str]

    @abstractmethod
    def steps(self, replay: Replay) -> Sequence[Step]:
        """The viewer's steps for ``replay``, first position first."""

    def script(self) -> str:
        """The drawing script's source (read from the plugin's package data, typically).
        The default draws nothing: the viewer then shows each step's caption and
        messages only."""
        return ""

    def style(self) -> str:
        """CSS for the drawing (scope it under ``.picture-<name>``); none by default."""
        return ""


def check_steps(steps: Sequence[Step], events: int) -> None:
    """Raise ValueError unless ``steps`` is a non-empty list of steps whose event slices
    cover ``events`` events in order, each exactly once, with text labels and captions and
    pictures that go into a page as JSON (no NaN, no object JSON cannot write)."""
    if not steps:
        raise ValueError("no steps")
    at = 0
    for number, step in enumerate(steps):
        if not isinstance(step, Step):
            raise ValueError(f"step {number} is a {type(step).__name__}, not a Step")
        start, stop = step.events
        if start != at or stop < start:
            raise ValueError(
                f"step {number} ({step.label!r}) covers events [{start}, {stop}); "
                f"the next event is {at}"
            )
        at = stop
    if at != events:
        raise ValueError(f"the steps cover {at} of {events} events")
    for number, step in enumerate(steps):
        if not isinstance(step.label, str) or not isinstance(step.caption, str):
            raise ValueError(f"step {number}: its label and caption must be strings")
        try:
            json.dumps(step.picture, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"step {number} ({step.label!r}): its picture is not JSON: {exc}"
            ) from None
