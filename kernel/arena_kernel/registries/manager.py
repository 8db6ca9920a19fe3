"""The plugin manager factory (not a module global): built-ins, entry points, validation.

An installed plugin is the environment's doing, not the command's: one that fails to
load (its import raises, its hooks do not match the specifications, its registration
hook raises or registers a class of another kind) is reported in one line and left out,
and every command still works. A plugin the user names (``-p MODULE``, a match file's
``plugins``) is asked for: its failure is an error.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from typing import Any

import pluggy

from arena_kernel import hookspecs
from arena_kernel.errors import PluginError
from arena_kernel.hookspecs import Register
from arena_kernel.markers import PROJECT
from arena_kernel.registries.installed import (
    InstalledPlugin,
    Unavailable,
    disabled_names,
    installed_plugins,
)
from arena_kernel.registries.kinds import KINDS, Kind, kind_of
from arena_kernel.registries.registry import Entry, Registries, Registry
from arena_kernel.registries.report import DISABLE_VARIABLE, one_line, warn

BUILTIN_PLUGINS = (
    "arena_kernel.transports.builtin",
    "arena_kernel.codecs.builtin",
    "arena_kernel.scoring.builtin",
    "arena_kernel.executors.builtin",
)
"""Modules registered before any third-party plugin: built-ins are plugins too."""

BUILTIN_SOURCE = "arena (built-in)"


class ArenaPluginManager(pluggy.PluginManager):
    """pluggy's manager, knowing where each plugin came from and which installed plugins
    were left out (``unavailable``), so that every message names a plugin by its
    distribution and a missing game can say that its plugin is broken."""

    def __init__(self) -> None:
        super().__init__(PROJECT)
        self.add_hookspecs(hookspecs)
        self.unavailable: list[Unavailable] = []
        self._installed: dict[str, InstalledPlugin] = {}

    def add(self, plugin: object, name: str | None = None) -> None:
        """Register and validate ``plugin``, or leave the manager as it was and raise.

        arena calls each hook implementation on its own (one plugin's failure is its
        own), so wrappers, which pluggy would wrap around all of them, are refused.
        """
        self.register(plugin, name=name)
        try:
            self.check_pending()
            for caller in self.get_hookcallers(plugin) or ():
                for impl in caller.get_hookimpls():
                    if impl.plugin is plugin and (impl.wrapper or impl.hookwrapper):
                        raise PluginError(f"{caller.name} must not be a wrapper")
        except BaseException:
            self.unregister(plugin)
            raise

    def load_installed(self, disabled: Iterable[str] = ()) -> None:
        """Register every installed plugin but the ``disabled`` ones (entry point or
        distribution names), leaving out the ones that fail to load."""
        for plugin in installed_plugins(PROJECT):
            if plugin.named(disabled):
                self.unavailable.append(Unavailable(plugin, broken=False))
                continue
            try:
                self.add(plugin.load(), name=plugin.entry_point)
            except Exception as exc:
                self.leave_out(plugin, one_line(exc))
            else:
                self._installed[plugin.entry_point] = plugin

    def installed(self, plugin: object) -> InstalledPlugin | None:
        """The entry point ``plugin`` was loaded from (None: a built-in or named plugin)."""
        name = self.get_name(plugin)
        return self._installed.get(name) if name is not None else None

    def leave_out(self, plugin: InstalledPlugin, problem: str) -> None:
        """Unregister a broken installed plugin (if it got that far), remember why, and
        say so once."""
        loaded = self.get_plugin(plugin.entry_point)
        if loaded is not None and self._installed.get(plugin.entry_point) is plugin:
            self.unregister(loaded)
            del self._installed[plugin.entry_point]
        left_out = Unavailable(plugin, broken=True, problem=problem)
        self.unavailable.append(left_out)
        warn(
            f"{left_out}; arena goes on without it "
            f"(set {DISABLE_VARIABLE}={plugin.entry_point} not to load it)"
        )

    def source(self, plugin: object) -> str:
        """Who supplied ``plugin`` (``arena plugins``' "from" column): its distribution,
        the kernel, or the module (or class) registered as a plugin."""
        installed = self.installed(plugin)
        if installed is not None:
            return installed.source
        if self.get_name(plugin) in BUILTIN_PLUGINS:
            return BUILTIN_SOURCE
        name = getattr(plugin, "__name__", None)
        return f"plugin {name or f'{type(plugin).__module__}.{type(plugin).__qualname__}'}"

    def describe(self, plugin: object) -> str:
        """``plugin`` in a message: an installed one with its entry point."""
        installed = self.installed(plugin)
        return f"plugin {installed}" if installed is not None else self.source(plugin)


def get_plugin_manager(
    *, entry_points: bool = True, extra: Iterable[str | object] = ()
) -> ArenaPluginManager:
    """A fresh manager with the built-ins, the installed ``arena`` entry points (but those
    disabled by ``ARENA_DISABLE_PLUGINS``) and ``extra`` plugins.

    ``extra`` holds module objects or import paths (a match file's ``plugins = [...]``).
    Each plugin is validated as it is registered, so a misspelled hook such as
    ``arena_register_gmaes`` fails loudly instead of being silently ignored.
    """
    pm = ArenaPluginManager()
    for name in BUILTIN_PLUGINS:
        pm.add(importlib.import_module(name), name=name)
    if entry_points:
        pm.load_installed(disabled_names())
    for plugin in extra:
        register_plugin(pm, plugin)
    return pm


def named_plugins(pm: ArenaPluginManager) -> list[str | object]:
    """The plugins ``pm`` has that register something and are neither built in nor
    installed (a match file's ``plugins``, ``-p``, objects a caller registered): a module
    another process can import by its path, the object otherwise. Observers, which
    register nothing, are not among them."""
    named: list[str | object] = []
    registering = {kind.hook_name for kind in KINDS}
    for name, plugin in pm.list_name_plugin():
        if plugin is None or name in BUILTIN_PLUGINS or pm.installed(plugin) is not None:
            continue
        if not registering.intersection(c.name for c in pm.get_hookcallers(plugin) or ()):
            continue
        module = getattr(plugin, "__name__", None)
        importable = isinstance(module, str) and sys.modules.get(module) is plugin
        named.append(module if importable else plugin)
    return named


def register_plugin(pm: ArenaPluginManager, plugin: str | object) -> object:
    """Register a module (or its import path) the user asked for; any failure is an error."""
    if isinstance(plugin, str):
        try:
            plugin = importlib.import_module(plugin)
        except Exception as exc:  # its own bug (a SyntaxError, a raise) as much as a typo
            raise PluginError(f'cannot import plugin module "{plugin}": {one_line(exc)}') from None
    if pm.is_registered(plugin):
        return plugin
    try:
        pm.add(plugin)
    except (pluggy.PluginValidationError, ValueError, PluginError) as exc:
        raise PluginError(f"plugin {plugin!r}: {exc}") from None
    return plugin


def load_registries(pm: ArenaPluginManager, kinds: Iterable[str] | None = None) -> Registries:
    """Call the registration hooks one plugin at a time, so that each entry knows its
    source and an installed plugin whose hook fails is left out whole (not with half of
    its classes registered).

    ``kinds`` (kind names, such as ``("scorer",)``): only those kinds' hooks, for a command
    that needs no other (``arena standings`` registers no game, and imports none); the
    other registries stay empty."""
    wanted = [kind for kind in KINDS if kinds is None or kind.name in kinds]
    registered = []
    for _name, plugin in pm.list_name_plugin():
        if plugin is None:
            continue
        try:
            registered.append(_registered_by(pm, plugin, wanted))
        except PluginError as exc:
            installed = pm.installed(plugin)
            if installed is None:
                raise
            pm.leave_out(installed, exc.problem if isinstance(exc, _Refused) else str(exc))
    registries = Registries.empty(tuple(pm.unavailable))
    for by_plugin in registered:
        for kind, registry in by_plugin.by_kind().items():
            for entry in registry.values():
                registries.by_kind()[kind].add(entry)
    return registries


class _Refused(PluginError):
    """A registration hook raised, or registered a class of another kind: ``problem`` says
    which hook and what went wrong, the message also whose hook it is."""

    def __init__(self, kind: Kind, source: str, problem: str) -> None:
        self.problem = f"{kind.hook_name} {problem}"
        super().__init__(f"{kind.hook_name} of {source} {problem}")


def _registered_by(pm: ArenaPluginManager, plugin: object, kinds: Iterable[Kind]) -> Registries:
    """What ``plugin``'s registration hooks of ``kinds`` register; a failure is a
    :class:`PluginError`."""
    registries = Registries.empty()
    source = pm.describe(plugin)
    for kind in kinds:
        for impl in getattr(pm.hook, kind.hook_name).get_hookimpls():
            if impl.plugin is plugin:
                registry = registries.by_kind()[kind.name]
                register = _registrar(kind, registry, impl.plugin_name, pm.source(plugin), source)
                try:
                    impl.function(register=register)
                except PluginError:
                    raise
                except Exception as exc:
                    raise _Refused(kind, source, f"failed: {one_line(exc)}") from exc
    return registries


def _registrar(
    kind: Kind, registry: Registry, plugin_name: str, source: str, whose: str
) -> Register:
    """The ``register`` a registration hook of ``kind`` is given: it takes subclasses of the
    kind's base class only, so that a class given to the wrong hook fails here, named, and
    not in the middle of a run."""

    def register(cls: type[Any]) -> None:
        if not (isinstance(cls, type) and issubclass(cls, kind.base_class())):
            raise _Refused(kind, whose, _not_of_kind(cls, kind))
        registry.add(Entry(getattr(cls, "name", ""), cls, plugin_name, source))

    return register


def _not_of_kind(registered: object, kind: Kind) -> str:
    """``registered X, which is a codec, not a game (...)``: what was given and what it is."""
    wanted = f"not a {kind.name} (a subclass of {kind.base_class().__name__})"
    if not isinstance(registered, type):
        return f"registered {registered!r}, which is {wanted}"
    actual = kind_of(registered)
    what = f"a {actual.name}, " if actual is not None else ""
    return f"registered {registered.__module__}.{registered.__qualname__}, which is {what}{wanted}"
