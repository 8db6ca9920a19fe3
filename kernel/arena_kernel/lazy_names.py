"""How a public surface serves names it does not import up front: each is imported from
the module that defines it when first asked for, so that importing the surface costs only
what its reader uses (a bot program never pays for the referee)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def served_on_first_use(surface: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of the module ``surface``: ``names`` maps each name to
    the module that defines it; a name once served is kept in ``surface``."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {surface!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[surface], name, value)
        return value

    return __getattr__
