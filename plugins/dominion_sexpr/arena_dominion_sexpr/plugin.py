"""The entry point of the ``arena`` group: registers the S-expression game."""

from kernel import hookimpl
from kernel.hookspecs import Register


@hookimpl
def arena_register_games(register: Register) -> None:
    from arena_dominion_sexpr.game import DominionSexpr

    register(DominionSexpr)
