"""The plugins installed in the environment: the entry points of the ``arena`` group.

They are found from their distributions' metadata without importing them, so that a
plugin can be named by its distribution, disabled, or reported broken even when its code
cannot be imported at all.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from arena_kernel.registries.report import DISABLE_VARIABLE


def normalize(name: str) -> str:
    """Distribution names compare as pip compares them (``Arena_Stones`` is ``arena-stones``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class InstalledPlugin:
    """One entry point of the ``arena`` group and the distribution that declares it."""

    entry_point: str
    target: str
    """What the entry point loads: ``module`` or ``module:attribute``."""
    distribution: str
    version: str

    @property
    def source(self) -> str:
        """The distribution, as ``arena plugins`` shows where a game came from."""
        return f"{self.distribution} {self.version}"

    def __str__(self) -> str:
        return f"{self.source} (entry point {self.entry_point})"

    def named(self, names: Iterable[str]) -> bool:
        """Whether ``names`` holds this plugin's entry point name or distribution name."""
        wanted = {normalize(name) for name in names}
        return normalize(self.entry_point) in wanted or normalize(self.distribution) in wanted

    def load(self) -> Any:
        """What the entry point names, imported, as ``EntryPoint.load`` does it: ``module``,
        or ``module:attribute.attribute``; extras (``[...]``) load nothing."""
        module, _, attributes = self.target.partition("[")[0].partition(":")
        found = importlib.import_module(module.strip())
        for attribute in filter(None, attributes.strip().split(".")):
            found = getattr(found, attribute)
        return found


def installed_plugins(group: str) -> list[InstalledPlugin]:
    """Every entry point of ``group`` (one distribution of each name, as ``importlib``
    finds them on ``sys.path``), in a stable order.

    Kept in the user's cache folder while the distributions on ``sys.path`` are as they
    were (:mod:`~arena_kernel.registries.listing_cache`): scanning every distribution's
    metadata, and importing ``importlib.metadata`` for it, costs a command ~20 ms."""
    from arena_kernel.registries.listing_cache import ListingCache, cache_folder, environment

    cache = ListingCache(cache_folder(), environment(None), kind=f"entry-points-{group}")
    kept = cache.read()
    if isinstance(kept, list):
        try:
            return [InstalledPlugin(*map(str, fields)) for fields in kept]
        except TypeError:  # a damaged file: scan again
            pass
    found = scanned_plugins(group)
    cache.write([[p.entry_point, p.target, p.distribution, p.version] for p in found], [])
    return found


def scanned_plugins(group: str) -> list[InstalledPlugin]:
    """:func:`installed_plugins` as ``importlib.metadata`` finds them now."""
    from importlib.metadata import entry_points

    found = []
    for entry in entry_points(group=group):
        dist = entry.dist
        found.append(
            InstalledPlugin(
                entry.name,
                entry.value,
                dist.name if dist is not None else "(unknown distribution)",
                dist.version if dist is not None else "?",
            )
        )
    return sorted(found, key=lambda plugin: (normalize(plugin.distribution), plugin.entry_point))


def disabled_names(environ: Mapping[str, str] = os.environ) -> frozenset[str]:
    """The names listed in ``ARENA_DISABLE_PLUGINS``."""
    listed = environ.get(DISABLE_VARIABLE, "").split(",")
    return frozenset(name.strip() for name in listed if name.strip())


@dataclass(frozen=True)
class Unavailable:
    """An installed plugin left out: ``broken`` (it failed to load, ``problem`` says how) or
    disabled by ``ARENA_DISABLE_PLUGINS``."""

    plugin: InstalledPlugin
    broken: bool
    problem: str = ""

    @property
    def status(self) -> str:
        return f"broken: {self.problem}" if self.broken else f"disabled by {DISABLE_VARIABLE}"

    def __str__(self) -> str:
        return f"plugin {self.plugin} is {self.status}"
