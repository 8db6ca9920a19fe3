"""A stored game read back for its renderer, and its steps, whatever the renderer does."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from arena_kernel.model import Event
from arena_kernel.registries.report import one_line
from arena_kernel.report.renderer import Renderer, Replay, Step, check_steps
from arena_kernel.report.transcript import transcript_steps
from arena_kernel.store.sqlite import GameDetail, Store


def load_replay(store: Store, game_id: int) -> Replay:
    """Game ``game_id`` of ``store`` with everything a renderer reads."""
    game = store.game(game_id)
    return replay_of(game, store.spec(game.run_id), store.events(game_id))


def replay_of(game: GameDetail, spec: Mapping[str, Any], events: Iterable[Event]) -> Replay:
    """The :class:`Replay` of a game whose rows were read already: a report of thousands
    of games reads its run's spec once, not once per game."""
    return Replay(
        game_id=game.game_id,
        game=str(spec.get("game", "")),
        options=dict(spec.get("game_options") or {}),
        seating=game.seating,
        ranks=game.ranks,
        scores=game.scores,
        reason=game.reason,
        void=game.void,
        disqualified=game.disqualified,
        details=game.details,
        extra=game.extra,
        faults=game.faults,
        events=tuple(events),
    )


class RenderedSteps(NamedTuple):
    """A game's viewer steps, and why they are its transcript when its renderer failed."""

    steps: list[Step]
    problem: str | None


def render_steps(replay: Replay, renderer: type[Renderer] | None) -> RenderedSteps:
    """The steps ``renderer`` draws for ``replay``; the transcript's steps when there is
    no renderer, or when it raises or returns steps that do not cover the game's events
    (a plugin's bug costs that game its pictures, never the report)."""
    if renderer is None:
        return RenderedSteps(transcript_steps(replay), None)
    try:
        steps = list(renderer().steps(replay))
        check_steps(steps, len(replay.events))
    except Exception as exc:  # any failure of a plugin's renderer
        problem = f"the {replay.game} renderer failed: {one_line(exc)}"
        return RenderedSteps(transcript_steps(replay), problem)
    return RenderedSteps(steps, None)
