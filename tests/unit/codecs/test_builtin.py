"""The built-in codecs reach the kernel through the registration hook, like any plugin."""

from __future__ import annotations

import pluggy

from arena_kernel import hookspecs
from arena_kernel.codecs import builtin
from arena_kernel.codecs.base import Codec
from arena_kernel.markers import PROJECT


def test_the_four_codecs_are_registered_with_a_summary() -> None:
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(builtin)
    registered: list[type] = []
    pm.hook.arena_register_codecs(register=registered.append)
    assert [cls.name for cls in registered] == ["line", "jsonl", "sexpr", "raw"]
    for cls in registered:
        assert issubclass(cls, Codec)
        assert cls.summary and "\n" not in cls.summary
