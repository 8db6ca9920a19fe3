"""The game API: what a game plugin implements (the kernel itself knows no game)."""

from arena_kernel.games.base import BuiltinBot, Game

__all__ = ["BuiltinBot", "Game"]
