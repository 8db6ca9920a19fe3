"""The built-in scorers, registered through the same hook as any third-party scorer (and
imported only when registered)."""

from __future__ import annotations

from arena_kernel.hookspecs import Register
from arena_kernel.markers import hookimpl
from arena_kernel.scoring.builtin_classes import BUILTIN_SCORERS, builtin_scorer


@hookimpl
def arena_register_scorers(register: Register) -> None:
    for name in BUILTIN_SCORERS:
        register(builtin_scorer(name))
