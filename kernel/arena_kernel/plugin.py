"""Everything a plugin imports from arena, in one module.

A plugin (a game with its rules adapter and built-in bots, or a transport, codec, scorer,
renderer or run observer) imports from here and from nowhere else in ``arena_kernel``; an
executor adds :mod:`arena_kernel.executor_plugin`, and a plugin's tests add
:mod:`arena_kernel.testkit`. The rest of the kernel may be reorganised between releases,
this module may not: names here change only with :data:`API_VERSION` (see
docs/plugins.md, "Stability").

Bot programs import this module too, so it stays cheap: each name of ``_EXPORTS`` is
imported from where it is defined on first use (a bot program never loads the
:class:`Table`, which pulls in asyncio); type checkers see the names as the ordinary
imports below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from arena_kernel.lazy_names import served_on_first_use

if TYPE_CHECKING:  # _EXPORTS for type checkers: the same names from the same modules
    from arena_kernel.bot_clocks import BotClocks as BotClocks
    from arena_kernel.bots.logic import BotLogic as BotLogic
    from arena_kernel.bots.serve import main as main
    from arena_kernel.codecs.base import Codec as Codec
    from arena_kernel.codecs.jsonl import JsonlCodec as JsonlCodec
    from arena_kernel.codecs.line import LineCodec as LineCodec
    from arena_kernel.codecs.raw import RawCodec as RawCodec
    from arena_kernel.codecs.sexpr import SexprCodec as SexprCodec
    from arena_kernel.codecs.sexpr import Symbol as Symbol
    from arena_kernel.errors import SetupError as SetupError
    from arena_kernel.games.base import BuiltinBot as BuiltinBot
    from arena_kernel.games.base import Game as Game
    from arena_kernel.hookspecs import Register as Register
    from arena_kernel.markers import hookimpl as hookimpl
    from arena_kernel.model import Estimate as Estimate
    from arena_kernel.model import Event as Event
    from arena_kernel.model import Fault as Fault
    from arena_kernel.model import FaultKind as FaultKind
    from arena_kernel.model import GameRecord as GameRecord
    from arena_kernel.model import Outcome as Outcome
    from arena_kernel.model import RunInfo as RunInfo
    from arena_kernel.model import ScheduledGame as ScheduledGame
    from arena_kernel.model import Standings as Standings
    from arena_kernel.options import Option as Option
    from arena_kernel.processes.cpu_meter import CpuMeter as CpuMeter
    from arena_kernel.referee.clocks import Clocks as Clocks
    from arena_kernel.referee.table import Reply as Reply
    from arena_kernel.referee.table import Table as Table
    from arena_kernel.report.renderer import Renderer as Renderer
    from arena_kernel.report.renderer import Replay as Replay
    from arena_kernel.report.renderer import Step as Step
    from arena_kernel.scoring.base import GameResult as GameResult
    from arena_kernel.scoring.base import Scorer as Scorer
    from arena_kernel.transports.base import ConnectError as ConnectError
    from arena_kernel.transports.base import Connection as Connection
    from arena_kernel.transports.base import Launch as Launch
    from arena_kernel.transports.base import Transport as Transport
    from arena_kernel.transports.process import BotProcess as BotProcess
    from arena_kernel.transports.process import spawn as spawn

API_VERSION: Final = (2, 4)
"""(major, minor) of this surface and of :mod:`arena_kernel.executor_plugin`. A minor step
adds names or optional arguments; a major step removes or changes one. A plugin may check
``API_VERSION[0] == 2`` at import."""

_EXPORTS: Final = {
    "BotClocks": "arena_kernel.bot_clocks",
    "BotLogic": "arena_kernel.bots.logic",
    "main": "arena_kernel.bots.serve",
    "Codec": "arena_kernel.codecs.base",
    "JsonlCodec": "arena_kernel.codecs.jsonl",
    "LineCodec": "arena_kernel.codecs.line",
    "RawCodec": "arena_kernel.codecs.raw",
    "SexprCodec": "arena_kernel.codecs.sexpr",
    "Symbol": "arena_kernel.codecs.sexpr",
    "SetupError": "arena_kernel.errors",
    "BuiltinBot": "arena_kernel.games.base",
    "Game": "arena_kernel.games.base",
    "Register": "arena_kernel.hookspecs",
    "hookimpl": "arena_kernel.markers",
    "Event": "arena_kernel.model",
    "Fault": "arena_kernel.model",
    "FaultKind": "arena_kernel.model",
    "GameRecord": "arena_kernel.model",
    "Outcome": "arena_kernel.model",
    "RunInfo": "arena_kernel.model",
    "ScheduledGame": "arena_kernel.model",
    "Estimate": "arena_kernel.model",
    "Standings": "arena_kernel.model",
    "Option": "arena_kernel.options",
    "Clocks": "arena_kernel.referee.clocks",
    "Reply": "arena_kernel.referee.table",
    "Table": "arena_kernel.referee.table",
    "Renderer": "arena_kernel.report.renderer",
    "Replay": "arena_kernel.report.renderer",
    "Step": "arena_kernel.report.renderer",
    "GameResult": "arena_kernel.scoring.base",
    "Scorer": "arena_kernel.scoring.base",
    "ConnectError": "arena_kernel.transports.base",
    "Connection": "arena_kernel.transports.base",
    "Launch": "arena_kernel.transports.base",
    "Transport": "arena_kernel.transports.base",
    "CpuMeter": "arena_kernel.processes.cpu_meter",
    "BotProcess": "arena_kernel.transports.process",
    "spawn": "arena_kernel.transports.process",
}
"""Every name of the surface but :data:`API_VERSION`, and the module that defines it."""

__all__ = ["API_VERSION", *_EXPORTS]

__getattr__ = served_on_first_use(__name__, _EXPORTS)
