"""Loading plugins and the name -> class registries they fill."""

from arena_kernel.registries.manager import get_plugin_manager, load_registries
from arena_kernel.registries.registry import Entry, Registries, Registry

__all__ = ["Entry", "Registries", "Registry", "get_plugin_manager", "load_registries"]
