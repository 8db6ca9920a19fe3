"""Writing bots once: the in-process bot interface and helpers that serve it as a program."""

from kernel.bots.logic import BotLogic

__all__ = ["BotLogic"]
