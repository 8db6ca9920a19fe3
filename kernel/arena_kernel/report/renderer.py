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

import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from arena_kernel.model import Event, Fault


def doc(text: str) -> Any:
    """A field described: its text is the field's row in the reference table of
    docs/plugins.md (:func:`field_table`)."""
    return field(metadata={"doc": text})


def documented(text: str, default: Any) -> Any:
    """:func:`doc` for a field with a default (a factory when it is a dict)."""
    if isinstance(default, dict):
        return field(default_factory=dict, metadata={"doc": text})
    return field(default=default, metadata={"doc": text})


@dataclass(frozen=True)
class Replay:
    """One stored game as a renderer reads it (the reference table of docs/plugins.md
    lists its fields, from the descriptions below)."""

    game_id: int = doc("The game's id in the database (`arena replay DB GAME_ID`).")
    game: str = doc("The game's name (the renderer's `name`).")
    options: Mapping[str, Any] = doc(
        "The run's game options as the match file gave them: the game's defaults apply to the rest."
    )
    seating: tuple[str, ...] = doc("The bots' names, by seat.")
    ranks: tuple[int, ...] = doc("Each seat's rank, 1 the best; equal ranks share a place.")
    scores: tuple[float, ...] | None = doc(
        "Each seat's score, for a game that has scores; None otherwise."
    )
    reason: str = doc("How the game ended, in words (the outcome's reason).")
    void: bool = doc(
        "The game counts in no standings (a bot in it was put out of the run, or it was not "
        "played)."
    )
    disqualified: frozenset[int] = doc("The seats the game put out of the run.")
    details: Mapping[str, Any] = doc("The outcome's details, as the game's `play` returned them.")
    extra: Mapping[str, Any] = doc("Extra data stored with the game's record (JSON).")
    faults: tuple[Fault, ...] = doc(
        "Every fault of the game in the order it happened: `kind`, `detail`, `seat` (None: "
        "the referee's), `at` (seconds into the game)."
    )
    events: tuple[Event, ...] = doc(
        "The game's whole event log, in order (what `arena replay` prints): each `Event` has "
        "`t` (seconds into the game), `kind` (`send`, `recv` or `late` for a seat's "
        "messages, `fault`, `note`), `seat` (None for the referee's), `text`, `elapsed` (a "
        "reply's time) and `cpu` (its CPU time, on a CPU-time clock)."
    )

    def winners(self) -> tuple[str, ...]:
        """The bots ranked first (several: a draw), in seat order."""
        return tuple(bot for bot, rank in zip(self.seating, self.ranks, strict=True) if rank == 1)


@dataclass(frozen=True)
class Step:
    """One position of the replay viewer (the reference table of docs/plugins.md lists
    its fields). The steps of a game cover its events in order, each event in exactly one
    step; the last step's caption says how the game ended, naming the bots."""

    label: str = doc('A short name of the position, in the list of steps ("12. white A3-B4").')
    events: tuple[int, int] = doc(
        "`(start, stop)`: the slice `[start, stop)` of `Replay.events` that led to this "
        "position, which the viewer lists beside the picture."
    )
    caption: str = documented("One sentence about the position.", "")
    picture: Mapping[str, Any] = documented(
        "What the game's drawing script draws: JSON data of the renderer's own design "
        "(empty when the step has nothing to draw).",
        {},
    )


def field_table(cls: type) -> str:
    """A Markdown table of the fields of the dataclass ``cls``: name, type, meaning."""
    rows = [f"| `{f.name}` | `{f.type}` | {f.metadata['doc']} |" for f in dataclasses.fields(cls)]
    return "\n".join(["| field | type | meaning |", "|---|---|---|", *rows]) + "\n"


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


def reference() -> str:
    """The reference of :class:`Replay` and :class:`Step` in docs/plugins.md."""
    return f"#### Replay\n\n{field_table(Replay)}\n#### Step\n\n{field_table(Step)}"


if __name__ == "__main__":
    print(reference(), end="")
