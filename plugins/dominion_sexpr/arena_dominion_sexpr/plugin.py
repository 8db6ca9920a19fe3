"""The entry point of the ``arena`` group: registers the S-expression game."""

from arena_kernel.plugin import Register, hookimpl


@hookimpl
def arena_register_games(register: Register) -> None:
    from arena_dominion_sexpr.game import DominionSexpr

    register(DominionSexpr)
