"""The entry point of the ``arena`` group: registers the line-protocol game."""

from kernel import hookimpl
from kernel.hookspecs import Register


@hookimpl
def arena_register_games(register: Register) -> None:
    from arena_dominion_text.game import DominionText

    register(DominionText)
