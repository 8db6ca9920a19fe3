"""The run's notification hooks, called with their arguments type-checked and one plugin at
a time, so that an observer that raises costs nothing but its own notification."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, ParamSpec

from arena_kernel.registries.manager import ArenaPluginManager
from arena_kernel.registries.report import one_line, warn

P = ParamSpec("P")


@functools.cache
def _signature(spec: Callable[..., None]) -> inspect.Signature:
    return inspect.signature(spec)


@functools.cache
def _parameters(spec: Callable[..., None]) -> frozenset[str]:
    return frozenset(_signature(spec).parameters)


class Observers:
    """How the runner notifies plugins: ``notify(hookspecs.arena_game_end, run=run,
    game=game, record=record)``.

    The call names the hook's specification itself, so a type checker checks the
    arguments against :mod:`arena_kernel.hookspecs`, the one place where hooks are
    specified. Each implementation is called on its own, in pluggy's order: one that raises
    is reported once per plugin and hook (a :class:`~.report.PluginWarning` naming the
    plugin, the hook and the error), the others are still called, and the run goes on.
    """

    def __init__(self, pm: ArenaPluginManager) -> None:
        self._pm = pm
        self._reported: set[tuple[str, str]] = set()

    def notify(self, spec: Callable[P, None], *args: P.args, **kwargs: P.kwargs) -> None:
        hook_name = spec.__name__
        # Every argument by name, as the runner calls it: nothing to bind (twice a game).
        arguments: Mapping[str, Any] = kwargs
        if args or kwargs.keys() != _parameters(spec):
            arguments = _signature(spec).bind(*args, **kwargs).arguments
        for impl in reversed(getattr(self._pm.hook, hook_name).get_hookimpls()):
            try:
                impl.function(*(arguments[name] for name in impl.argnames))
            except Exception as exc:
                self._report(impl.plugin, impl.plugin_name, hook_name, exc)

    def _report(self, plugin: object, plugin_name: str, hook_name: str, exc: Exception) -> None:
        if (plugin_name, hook_name) in self._reported:
            return
        self._reported.add((plugin_name, hook_name))
        warn(
            f"{self._pm.describe(plugin)}: {hook_name} raised {one_line(exc)}; the run goes "
            "on (later failures of this hook are not reported)"
        )
