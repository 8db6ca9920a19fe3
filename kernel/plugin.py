"""Everything a game plugin imports from arena, in one module.

A plugin (its game, its rules adapter, its built-in bots) imports from here and from
nowhere else in ``arena_kernel``; its tests add :mod:`arena_kernel.testkit`. The rest of the
kernel may be reorganised between releases, this module may not: names here change only
with :data:`API_VERSION` (see docs/plugins.md, "Stability").

Bot programs import this module too, so it stays cheap: the referee's :class:`Table` and
:class:`Reply`, which pull in asyncio, are loaded on first use (type checkers see them as
ordinary imports).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from arena_kernel.bots.logic import BotLogic
from arena_kernel.bots.serve import main
from arena_kernel.codecs.base import Codec
from arena_kernel.codecs.jsonl import JsonlCodec
from arena_kernel.codecs.line import LineCodec
from arena_kernel.codecs.raw import RawCodec
from arena_kernel.codecs.sexpr import SexprCodec, Symbol
from arena_kernel.games.base import BuiltinBot, Game, Option
from arena_kernel.hookspecs import Register
from arena_kernel.markers import hookimpl
from arena_kernel.model import Fault, FaultKind, Outcome
from arena_kernel.referee.clocks import Clocks

if TYPE_CHECKING:
    from arena_kernel.referee.table import Reply, Table

API_VERSION: Final = (1, 0)
"""(major, minor) of this surface. A minor step adds names or optional arguments; a major
step removes or changes one. A plugin may check ``API_VERSION[0] == 1`` at import."""

__all__ = [
    "API_VERSION",
    "BotLogic",
    "BuiltinBot",
    "Clocks",
    "Codec",
    "Fault",
    "FaultKind",
    "Game",
    "JsonlCodec",
    "LineCodec",
    "Option",
    "Outcome",
    "RawCodec",
    "Register",
    "Reply",
    "SexprCodec",
    "Symbol",
    "Table",
    "hookimpl",
    "main",
]

_REFEREE = frozenset({"Reply", "Table"})


def __getattr__(name: str) -> Any:
    """``Table`` and ``Reply`` on first use: a game needs them, a bot program does not."""
    if name in _REFEREE:
        from arena_kernel.referee import table

        value = getattr(table, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
