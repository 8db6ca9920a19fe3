"""The entry point of the ``arena`` group: registers the game with the kernel."""

from arena_kernel.plugin import Register, hookimpl


@hookimpl
def arena_register_games(register: Register) -> None:
    from arena_liarsdice.game import LiarsDice

    register(LiarsDice)
