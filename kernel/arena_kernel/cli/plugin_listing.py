"""What ``arena plugins`` lists: every registered class with its source and summary, and
the installed plugins left out; from the cache of the last listing while it holds
(:mod:`arena_kernel.registries.listing_cache`), else by loading every plugin.

A listing with a broken plugin is made afresh each time, so that its warning is said each
time; so is one with ``-p`` plugins (a module named on the command line, not installed).
"""

from __future__ import annotations

from typing import Any

from arena_kernel.model.values import FrozenValue, set_fields

Row = tuple[str, str, str]


class Listing(FrozenValue):
    """``kinds``: each kind's name (in the registries' order) to its rows (name, source,
    summary) by name; ``left_out``: the installed plugins left out (entry point, source,
    status); ``broken``: whether one of them failed to load."""

    __slots__ = ("kinds", "left_out", "broken")  # noqa: RUF023 - the fields, in order

    kinds: dict[str, list[Row]]
    left_out: list[Row]
    broken: bool

    def __init__(self, kinds: dict[str, list[Row]], left_out: list[Row], broken: bool) -> None:
        set_fields(self, kinds=kinds, left_out=left_out, broken=broken)

    def to_json(self) -> dict[str, Any]:
        return {"kinds": self.kinds, "left_out": self.left_out}

    @classmethod
    def from_json(cls, data: Any) -> Listing | None:
        """The listing ``to_json`` gave, or None for anything else (a damaged file)."""
        try:
            kinds = {str(kind): [_row(row) for row in rows] for kind, rows in data["kinds"].items()}
            left_out = [_row(row) for row in data["left_out"]]
        except (TypeError, KeyError, ValueError, AttributeError):
            return None
        return cls(kinds, left_out, broken=False)


def _row(row: Any) -> Row:
    name, source, summary = row
    return (str(name), str(source), str(summary))


def loaded_listing(plugins: tuple[str, ...]) -> Listing:
    """The listing of the built-ins, the installed plugins and ``plugins``, all loaded."""
    from arena_kernel.registries.manager import get_plugin_manager, load_registries

    pm = get_plugin_manager(extra=plugins)
    registries = load_registries(pm)
    kinds = {
        kind: [
            (name, registry[name].source, str(getattr(registry[name].cls, "summary", "")))
            for name in sorted(registry)
        ]
        for kind, registry in registries.by_kind().items()
    }
    left_out = [(u.plugin.entry_point, u.plugin.source, u.status) for u in pm.unavailable]
    return Listing(kinds, left_out, broken=any(u.broken for u in pm.unavailable))


def plugin_listing(plugins: tuple[str, ...]) -> Listing:
    """The listing, from the cache where it holds (only without ``plugins``); a listing
    made afresh is kept for the next time unless a plugin is broken."""
    if plugins:
        return loaded_listing(plugins)
    from arena_kernel.registries.listing_cache import (
        ListingCache,
        cache_folder,
        environment,
        loaded_files,
    )

    # Read before loading: an install while the plugins load leaves a stale key, not a
    # stale listing.
    cache = ListingCache(cache_folder(), environment())
    kept = cache.read()
    if kept is not None:
        listing = Listing.from_json(kept)
        if listing is not None:
            return listing
    listing = loaded_listing(plugins)
    if not listing.broken:
        cache.write(listing.to_json(), loaded_files())
    return listing
