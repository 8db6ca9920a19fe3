"""The kinds of class a plugin registers, one row each: the hook that registers them, the
base class each must subclass, and the name the match file and ``arena plugins`` use.

The registration hooks the manager calls, the registries a run reads and the check that a
class is of its hook's kind all derive from :data:`KINDS`. Base classes are named, not
imported, so that loading this table costs no plugin's import.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena_kernel import hookspecs
from arena_kernel.hookspecs import Register


@dataclass(frozen=True)
class Kind:
    name: str
    """``game``: as a match file and every message say it."""
    hook: Callable[[Register], None]
    base: str
    """``module:class`` of the class every registered class of this kind subclasses."""

    @property
    def plural(self) -> str:
        """``games``: the :class:`~.registry.Registries` attribute, ``arena plugins``' heading."""
        return f"{self.name}s"

    @property
    def hook_name(self) -> str:
        return self.hook.__name__

    def base_class(self) -> type[Any]:
        module, _, name = self.base.partition(":")
        base: type[Any] = getattr(importlib.import_module(module), name)
        return base


KINDS = (
    Kind("game", hookspecs.arena_register_games, "arena_kernel.games.base:Game"),
    Kind("codec", hookspecs.arena_register_codecs, "arena_kernel.codecs.base:Codec"),
    Kind(
        "transport", hookspecs.arena_register_transports, "arena_kernel.transports.base:Transport"
    ),
    Kind("scorer", hookspecs.arena_register_scorers, "arena_kernel.scoring.base:Scorer"),
    Kind("renderer", hookspecs.arena_register_renderers, "arena_kernel.report.renderer:Renderer"),
    Kind("executor", hookspecs.arena_register_executors, "arena_kernel.executors.base:Executor"),
)
"""In the order ``arena plugins`` lists them."""


def kind_of(cls: type[Any]) -> Kind | None:
    """The kind ``cls`` is a class of, if any: what a class registered by the wrong hook is."""
    return next((kind for kind in KINDS if issubclass(cls, kind.base_class())), None)
