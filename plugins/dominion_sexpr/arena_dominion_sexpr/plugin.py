"""The entry point of the ``arena`` group: registers the S-expression game and how the
report draws it."""

from arena_kernel.plugin import Register, hookimpl


@hookimpl
def arena_register_games(register: Register) -> None:
    from arena_dominion_sexpr.game import DominionSexpr

    register(DominionSexpr)


@hookimpl
def arena_register_renderers(register: Register) -> None:
    from arena_dominion_sexpr.render import DominionSexprRenderer

    register(DominionSexprRenderer)
