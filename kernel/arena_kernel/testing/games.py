"""The test games (and how the report draws Nim) as a plugin module:
``plugins = ["arena_kernel.testing.games"]``."""

from arena_kernel.plugin import Register, hookimpl
from arena_kernel.testing.nim import Nim
from arena_kernel.testing.nim_render import NimRenderer
from arena_kernel.testing.rps import Rps


@hookimpl
def arena_register_games(register: Register) -> None:
    register(Nim)
    register(Rps)


@hookimpl
def arena_register_renderers(register: Register) -> None:
    register(NimRenderer)
