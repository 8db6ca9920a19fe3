"""The plugin manager factory (not a module global): built-ins, entry points, validation."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

import pluggy

from arena_kernel import hookspecs
from arena_kernel.errors import PluginError
from arena_kernel.markers import PROJECT
from arena_kernel.registries.registry import Entry, Registries, Registry

BUILTIN_PLUGINS = (
    "arena_kernel.transports.builtin",
    "arena_kernel.codecs.builtin",
    "arena_kernel.scoring.builtin",
)
"""Modules registered before any third-party plugin: built-ins are plugins too."""

BUILTIN_SOURCE = "arena (built-in)"


def get_plugin_manager(
    *, entry_points: bool = True, extra: Iterable[str | object] = ()
) -> pluggy.PluginManager:
    """A fresh manager with the built-ins, the ``arena`` entry points and ``extra`` plugins.

    ``extra`` holds module objects or import paths (a match file's ``plugins = [...]``).
    ``check_pending`` runs last, so a misspelled hook such as ``arena_register_gmaes``
    fails loudly here instead of being silently ignored.
    """
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    for name in BUILTIN_PLUGINS:
        pm.register(importlib.import_module(name), name=name)
    if entry_points:
        try:
            pm.load_setuptools_entrypoints(PROJECT)
        except Exception as exc:
            raise PluginError(f"could not load an installed arena plugin: {exc}") from exc
    for plugin in extra:
        register_plugin(pm, plugin)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"plugin {exc.plugin!r}: {exc}") from None
    return pm


def register_plugin(pm: pluggy.PluginManager, plugin: str | object) -> object:
    """Register a module (or its import path) and validate its hooks at once."""
    if isinstance(plugin, str):
        try:
            plugin = importlib.import_module(plugin)
        except ImportError as exc:
            raise PluginError(f'cannot import plugin module "{plugin}": {exc}') from None
    if pm.is_registered(plugin):
        return plugin
    try:
        pm.register(plugin)
        pm.check_pending()
    except (pluggy.PluginValidationError, ValueError) as exc:
        raise PluginError(f"plugin {plugin!r}: {exc}") from None
    return plugin


def plugin_sources(pm: pluggy.PluginManager) -> dict[int, str]:
    """Who supplied each plugin object: its distribution, or the kernel for built-ins."""
    sources: dict[int, str] = {}
    for plugin, dist in pm.list_plugin_distinfo():
        sources[id(plugin)] = f"{dist.project_name} {dist.version}"
    for name in BUILTIN_PLUGINS:
        plugin = pm.get_plugin(name)
        if plugin is not None:
            sources[id(plugin)] = BUILTIN_SOURCE
    return sources


_REGISTRATION_HOOKS = {
    "transports": "arena_register_transports",
    "codecs": "arena_register_codecs",
    "games": "arena_register_games",
    "scorers": "arena_register_scorers",
}


def load_registries(pm: pluggy.PluginManager) -> Registries:
    """Call every registration hook, one plugin at a time, so each entry knows its source."""
    registries = Registries.empty()
    sources = plugin_sources(pm)
    for attr, hook_name in _REGISTRATION_HOOKS.items():
        registry: Registry = getattr(registries, attr)
        for impl in getattr(pm.hook, hook_name).get_hookimpls():
            source = sources.get(id(impl.plugin), f"plugin {impl.plugin_name}")

            def register(
                cls: type[Any], _source: str = source, _impl: Any = impl, _reg: Registry = registry
            ) -> None:
                _reg.add(Entry(getattr(cls, "name", ""), cls, _impl.plugin_name, _source))

            try:
                impl.function(register=register)
            except PluginError:
                raise
            except Exception as exc:
                raise PluginError(
                    f"{hook_name} of {source} ({impl.plugin_name}) failed: "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
    return registries
