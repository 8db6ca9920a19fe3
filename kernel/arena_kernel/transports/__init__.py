"""Transports: how bytes reach a bot (a child's pipes, a TCP connection, a Python object)."""

from arena_kernel.transports.base import BotProgram, Connection, Launch, Transport

__all__ = ["BotProgram", "Connection", "Launch", "Transport"]
