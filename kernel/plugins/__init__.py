"""Loading plugins and the name -> class registries they fill."""

from kernel.plugins.manager import get_plugin_manager, load_registries
from kernel.plugins.registry import Entry, Registries, Registry

__all__ = ["Entry", "Registries", "Registry", "get_plugin_manager", "load_registries"]
