"""The entry point of the ``arena`` group: registers the game and its report renderer."""

from arena_kernel.plugin import Register, hookimpl


@hookimpl
def arena_register_games(register: Register) -> None:
    from arena_speedclue.game import SpeedClue

    register(SpeedClue)


@hookimpl
def arena_register_renderers(register: Register) -> None:
    from arena_speedclue.render import SpeedClueRenderer

    register(SpeedClueRenderer)
