"""The pluggy markers of arena's hooks, and the one name they share.

``PROJECT`` is the pluggy project name, the hook prefix and the entry-point group, as in
tox and datasette. Plugins get ``hookimpl`` from :mod:`arena_kernel.plugin`.
"""

from __future__ import annotations

from typing import Final

import pluggy

PROJECT: Final = "arena"

hookimpl: Final = pluggy.HookimplMarker(PROJECT)
"""Marks a plugin's hook implementations (``@hookimpl def arena_register_games(register)``)."""

hookspec: Final = pluggy.HookspecMarker(PROJECT)
"""Marks the hook specifications (:mod:`arena_kernel.hookspecs`)."""
