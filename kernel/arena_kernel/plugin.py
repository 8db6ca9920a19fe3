"""Everything a plugin imports from arena, in one module.

A plugin (a game with its rules adapter and built-in bots, or a transport, codec, scorer,
renderer, executor or run observer) imports from here and from nowhere else in
``arena_kernel``; its tests add :mod:`arena_kernel.testkit`. The rest of the kernel may be
reorganised between releases, this module may not: names here change only
with :data:`API_VERSION` (see docs/plugins.md, "Stability").

Bot programs import this module too, so it stays cheap: what only a referee, a transport
or a scorer needs (the :class:`Table`, which pulls in asyncio, say) is loaded on first use;
type checkers see those names as ordinary imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

from arena_kernel.bots.logic import BotLogic
from arena_kernel.bots.serve import main
from arena_kernel.codecs.base import Codec
from arena_kernel.codecs.jsonl import JsonlCodec
from arena_kernel.codecs.line import LineCodec
from arena_kernel.codecs.raw import RawCodec
from arena_kernel.codecs.sexpr import SexprCodec, Symbol
from arena_kernel.errors import SetupError
from arena_kernel.games.base import BuiltinBot, Game
from arena_kernel.hookspecs import Register
from arena_kernel.markers import hookimpl
from arena_kernel.model import (
    Estimate,
    Event,
    Fault,
    FaultKind,
    GameRecord,
    Outcome,
    RunInfo,
    ScheduledGame,
    Standings,
)
from arena_kernel.options import Option
from arena_kernel.referee.clocks import Clocks

if TYPE_CHECKING:
    from arena_kernel.executors.base import Executor, Results
    from arena_kernel.executors.remote import (
        SessionResult,
        WorkerCheck,
        WorkerSetup,
        check_worker,
        close_run,
        deliver,
        play_session,
    )
    from arena_kernel.processes.cpu_meter import CpuMeter
    from arena_kernel.referee.table import Reply, Table
    from arena_kernel.report.renderer import Renderer, Replay, Step
    from arena_kernel.scoring.base import GameResult, Scorer
    from arena_kernel.transports.base import ConnectError, Connection, Launch, Transport
    from arena_kernel.transports.process import BotProcess, spawn

API_VERSION: Final = (1, 4)
"""(major, minor) of this surface. A minor step adds names or optional arguments; a major
step removes or changes one. A plugin may check ``API_VERSION[0] == 1`` at import."""

__all__ = [
    "API_VERSION",
    "BotLogic",
    "BotProcess",
    "BuiltinBot",
    "Clocks",
    "Codec",
    "ConnectError",
    "Connection",
    "CpuMeter",
    "Estimate",
    "Event",
    "Executor",
    "Fault",
    "FaultKind",
    "Game",
    "GameRecord",
    "GameResult",
    "JsonlCodec",
    "Launch",
    "LineCodec",
    "Option",
    "Outcome",
    "RawCodec",
    "Register",
    "Renderer",
    "Replay",
    "Reply",
    "Results",
    "RunInfo",
    "ScheduledGame",
    "Scorer",
    "SessionResult",
    "SetupError",
    "SexprCodec",
    "Standings",
    "Step",
    "Symbol",
    "Table",
    "Transport",
    "WorkerCheck",
    "WorkerSetup",
    "check_worker",
    "close_run",
    "deliver",
    "hookimpl",
    "main",
    "play_session",
    "spawn",
]

_ON_FIRST_USE = {
    "Executor": "arena_kernel.executors.base",
    "Results": "arena_kernel.executors.base",
    "SessionResult": "arena_kernel.executors.remote",
    "WorkerCheck": "arena_kernel.executors.remote",
    "WorkerSetup": "arena_kernel.executors.remote",
    "check_worker": "arena_kernel.executors.remote",
    "close_run": "arena_kernel.executors.remote",
    "deliver": "arena_kernel.executors.remote",
    "play_session": "arena_kernel.executors.remote",
    "Reply": "arena_kernel.referee.table",
    "Table": "arena_kernel.referee.table",
    "Renderer": "arena_kernel.report.renderer",
    "Replay": "arena_kernel.report.renderer",
    "Step": "arena_kernel.report.renderer",
    "GameResult": "arena_kernel.scoring.base",
    "Scorer": "arena_kernel.scoring.base",
    "ConnectError": "arena_kernel.transports.base",
    "CpuMeter": "arena_kernel.processes.cpu_meter",
    "Connection": "arena_kernel.transports.base",
    "Launch": "arena_kernel.transports.base",
    "Transport": "arena_kernel.transports.base",
    "BotProcess": "arena_kernel.transports.process",
    "spawn": "arena_kernel.transports.process",
}


def __getattr__(name: str) -> Any:
    """The names a bot program never needs, imported when a plugin first asks for them."""
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
