"""Transports: how bytes reach a bot (a child's pipes, a TCP connection, a Python object).

The names below are served on first use (:mod:`arena_kernel.lazy_names`), so that
registering the built-in transports costs nothing until they are registered."""

from typing import TYPE_CHECKING

from arena_kernel.lazy_names import served_on_first_use

if TYPE_CHECKING:
    from arena_kernel.transports.base import BotProgram as BotProgram
    from arena_kernel.transports.base import Connection as Connection
    from arena_kernel.transports.base import Launch as Launch
    from arena_kernel.transports.base import Transport as Transport

_EXPORTS = {
    name: "arena_kernel.transports.base"
    for name in ("BotProgram", "Connection", "Launch", "Transport")
}

__all__ = sorted(_EXPORTS)

__getattr__ = served_on_first_use(__name__, _EXPORTS)
