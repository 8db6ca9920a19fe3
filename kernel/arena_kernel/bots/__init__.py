"""Writing bots once: the in-process bot interface and helpers that serve it as a program."""

from arena_kernel.bots.logic import BotLogic

__all__ = ["BotLogic"]
