"""The entry point of the ``arena`` group: registers the line-protocol game and how the
report draws it."""

from arena_kernel.plugin import Register, hookimpl


@hookimpl
def arena_register_games(register: Register) -> None:
    from arena_dominion_text.game import DominionText

    register(DominionText)


@hookimpl
def arena_register_renderers(register: Register) -> None:
    from arena_dominion_text.render import DominionTextRenderer

    register(DominionTextRenderer)
