"""What a game plugin's tests import from arena, next to :mod:`arena_kernel.plugin`.

Run match files as ``arena run`` does, read the games back from the results database,
check a match file without playing it, and write a database's report as ``arena report``
does. The fixtures of the same kit (``arena_match``, ``scripted_bot``, ``arena_node``,
``report_browser``...) come with the pytest plugin that installing arena-kernel registers.
Like the plugin surface, these names change only with :data:`arena_kernel.plugin.API_VERSION`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from arena_kernel.codecs import compiled
from arena_kernel.codecs.base import Codec, Decoded, Decoder
from arena_kernel.match.schedule import derive_seed
from arena_kernel.match.spec import MatchSpec
from arena_kernel.model import Event
from arena_kernel.report.renderer import Renderer, Replay, Step, check_steps
from arena_kernel.report.replay import load_replay
from arena_kernel.report.site import write_report
from arena_kernel.runner.api import prepare, run_match
from arena_kernel.runner.run import RunSummary
from arena_kernel.store import GameDetail, Store, StoredGame
from arena_kernel.testing.browser import ReportBrowser
from arena_kernel.testing.drawing import check_drawing
from arena_kernel.testing.results import game_outcomes, stored_games
from arena_kernel.testing.spoilt_logs import spoilt_logs
from arena_kernel.testing.wheels import built_without_compiler

__all__ = [
    "Event",
    "GameDetail",
    "MatchSpec",
    "ReportBrowser",
    "RunSummary",
    "Store",
    "StoredGame",
    "built_without_compiler",
    "check_drawing",
    "check_match",
    "checked_steps",
    "game_outcomes",
    "game_seed",
    "load_replay",
    "run_match",
    "spoilt_logs",
    "stored_games",
    "wire_round_trip",
    "write_report",
]


def wire_round_trip(codec: Codec, decoder: Decoder, message: object) -> list[Decoded]:
    """``message`` encoded by ``codec`` and fed to ``decoder`` (one of ``codec``'s) as a
    run's referee does: by the kernel's compiled path for the usual message where the
    kernel was built with it, else by the codec's own methods. To time a codec as a run
    pays for it."""
    return compiled.feed(decoder, compiled.encode(codec, message))


def check_match(path: Path, plugins: Iterable[str | object] = ()) -> MatchSpec:
    """The match file at ``path`` validated against the installed plugins, not played."""
    return prepare(path, plugins).spec


def game_seed(match_seed: int, index: int) -> int:
    """The seed ``Game.play`` gets for game ``index`` (from 0, in schedule order) of a
    match file with ``seed = match_seed``: to rebuild a game's deal in a test."""
    return derive_seed(match_seed, index)


def checked_steps(renderer: Renderer, replay: Replay) -> list[Step]:
    """``renderer``'s steps for ``replay``, held to what the report requires of them (they
    cover the event log in order, each event once; text labels and captions; pictures
    that are JSON): an AssertionError says which rule a step broke. The report itself
    shows such a game as its transcript instead."""
    steps = list(renderer.steps(replay))
    try:
        check_steps(steps, len(replay.events))
    except ValueError as exc:
        raise AssertionError(f"game {replay.game_id}: {exc}") from None
    return steps
