"""The entry point of the ``arena`` group: registers the game with the kernel."""

from kernel import hookimpl
from kernel.hookspecs import Register


@hookimpl
def arena_register_games(register: Register) -> None:
    from arena_liarsdice.game import LiarsDice

    register(LiarsDice)
