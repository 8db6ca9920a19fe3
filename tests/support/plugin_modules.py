"""Plugin modules made on the fly, for runs of game classes defined in a test."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from arena_kernel.markers import hookimpl


def games_plugin(*games: type, **hooks: Callable[..., Any]) -> types.ModuleType:
    """A plugin module registering ``games``, plus any hook implementations by hook name."""
    module = types.ModuleType("test_games_plugin")

    def arena_register_games(register: Callable[[type], None]) -> None:
        for game in games:
            register(game)

    module.arena_register_games = hookimpl(arena_register_games)  # type: ignore[attr-defined]
    for name, implementation in hooks.items():
        setattr(module, name, hookimpl(implementation))
    return module
