"""The fixtures arena ships for plugin authors work as documented."""

from __future__ import annotations

import types

from arena_kernel.markers import hookimpl
from arena_kernel.runner.api import run_match
from arena_kernel.testing.nim import Nim


def test_arena_match_writes_a_runnable_match_file(arena_match, scripted_bot) -> None:
    path = arena_match(
        "nim",
        {"script": scripted_bot([{"reply": "take 1"}]), "optimal": "optimal"},
        'plugins = ["arena_kernel.testing.games"]\n[game_options]\npile = 4',
    )
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    assert (path.parent / "arena.sqlite").is_file() and (path.parent / "logs").is_dir()


def test_arena_register_adds_a_plugin_for_one_test(arena_register, arena_plugin_manager) -> None:
    class Tiny(Nim):
        name = "tiny"

    module = types.ModuleType("tiny_plugin")
    module.arena_register_games = hookimpl(lambda register: register(Tiny))
    registries = arena_register(module)
    assert registries.games.cls("tiny") is Tiny
    assert arena_plugin_manager.is_registered(module)
