"""The test games as a plugin module: ``plugins = ["kernel.testing.games"]``."""

from kernel import hookimpl
from kernel.testing.nim import Nim
from kernel.testing.rps import Rps


@hookimpl
def arena_register_games(register):
    register(Nim)
    register(Rps)
