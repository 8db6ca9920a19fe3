"""The game plugins of this checkout, for the tests that need every one installed beside
the others (``tox -e all``)."""

from __future__ import annotations

import importlib.util

from paths import REPO

from arena_kernel.testing.pytest_plugin import skip_unless_ci

PLUGINS = REPO / "plugins"


def game_plugins() -> list[str]:
    """Each installable plugin folder of plugins/ (one with a pyproject.toml): its name is
    its game's name, and ``arena_<name>`` its import package."""
    return sorted(p.parent.name for p in PLUGINS.glob("*/pyproject.toml"))


def require(plugin: str) -> None:
    """Skip (fail under ``CI=true``) where the plugin ``plugin`` is not installed."""
    if importlib.util.find_spec(f"arena_{plugin}") is None:
        skip_unless_ci(f"the {plugin} plugin is not installed (tox -e all installs every one)")
