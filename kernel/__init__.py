"""arena's microkernel: hook specs, registries, referee core, match files, results.

Plugins import :data:`hookimpl` from here to mark their hook implementations. The pluggy
markers are made on first use: bot programs import kernel modules too, and a bot's
start-up time counts against its clock.
"""

from __future__ import annotations

from typing import Any

PROJECT = "arena"
"""One name for the pluggy project, the hook prefix and the entry-point group."""

__version__ = "0.1.0"

__all__ = ["PROJECT", "__version__", "hookimpl", "hookspec"]


def __getattr__(name: str) -> Any:
    if name in ("hookimpl", "hookspec"):
        import pluggy

        marker = pluggy.HookimplMarker if name == "hookimpl" else pluggy.HookspecMarker
        value = marker(PROJECT)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'kernel' has no attribute {name!r}")
