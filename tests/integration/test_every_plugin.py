"""Every game plugin of the checkout installed together: each is found through its entry
point, registers its game beside the others with nothing registered twice and nothing left
out, and answers ``arena plugins``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from game_plugins import game_plugins

from arena_kernel.registries.manager import get_plugin_manager, load_registries


def test_every_plugin_of_the_checkout_is_installed() -> None:
    missing = [p for p in game_plugins() if importlib.util.find_spec(f"arena_{p}") is None]
    assert len(game_plugins()) >= 5, "no plugins found"
    assert not missing, f"not installed here (tox.ini's all env lists every plugin): {missing}"


def test_every_plugin_registers_its_game_beside_the_others() -> None:
    registries = load_registries(get_plugin_manager())
    assert registries.games.unavailable == (), "a plugin was left out"
    assert set(game_plugins()) <= set(registries.games)


def test_arena_plugins_lists_every_game() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arena_kernel.cli.main", "plugins"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    for plugin in game_plugins():
        assert plugin in done.stdout, (plugin, done.stdout)
