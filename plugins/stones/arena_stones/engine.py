"""The compiled engine and searcher of the built-in ``search`` bot, or None where it was not
built.

``_engine`` is compiled from ``_engine.c`` by the plugin's install, as an optional
extension: without a C compiler the plugin installs all the same, :data:`COMPILED` is None,
and the bot plays the Python search (:mod:`arena_stones.search`) instead. The extension
holds no fact of the game of its own: it is handed the board's rays, the rules' Zobrist
keys and the evaluation's weights here, so that its positions, moves, hashes and values
are those of :class:`~arena_stones.rules.Position` and
:func:`~arena_stones.search.compiled_evaluate`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from arena_stones import search
from arena_stones.board import FORWARD_RAYS, RAYS
from arena_stones.rules import TURN_KEYS, ZOBRIST


def configuration() -> dict[str, Any]:
    """What the extension's ``configure()`` is handed: the board, the keys and the
    evaluation's weights."""
    return {
        "rays": RAYS,
        "forward_rays": FORWARD_RAYS,
        "zobrist": ZOBRIST,
        "turn_keys": TURN_KEYS,
        "stack_value": search.STACK_VALUE,
        "loss": search.LOSS,
        "height": search.HEIGHT,
        "mobility": search.MOBILITY,
        "own_gain": search.OWN_GAIN,
        "their_gain": search.THEIR_GAIN,
        "safe_type": search.SAFE_TYPE,
        "tallest": search.TALLEST,
    }


def _load() -> tuple[ModuleType | None, str]:
    """The configured extension, or None and why it is missing."""
    try:
        from arena_stones import _engine
    except ImportError as exc:
        return None, str(exc)
    _engine.configure(**configuration())
    return _engine, ""


COMPILED, MISSING = _load()
"""The extension, configured; or None, and :data:`MISSING` says why."""
