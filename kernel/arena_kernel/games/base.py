"""What a game plugin provides: options, defaults, built-in bots, and the protocol adapter."""

from __future__ import annotations

import importlib
import importlib.util
import os
import site
import sys
import sysconfig
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from arena_kernel.model import Outcome
from arena_kernel.options import Option, check_options
from arena_kernel.referee.clocks import Clocks

if TYPE_CHECKING:
    from arena_kernel.referee.table import Table


@dataclass(frozen=True)
class BuiltinBot:
    """A bot shipped with a game: a real program (``python -m module args...``) and,
    when ``inproc`` is given, the same bot as an in-process object for fast runs.

    ``args`` may use the ``{identifier}``, ``{host}`` and ``{port}`` placeholders.
    """

    summary: str
    module: str
    args: tuple[str, ...] = ()
    inproc: Callable[[], Any] | None = None

    @classmethod
    def from_module(cls, summary: str, module: str, *args: str) -> BuiltinBot:
        """The usual shape of a game's bot: ``python -m module`` runs it as a program and
        the module's ``make()`` builds the same bot in process, imported on first use only
        (a strong bot's tables cost start-up time nobody should pay for unused bots)."""
        return cls(summary, module, args, inproc=lambda: importlib.import_module(module).make())

    def argv(self) -> tuple[str, ...]:
        """``-P``: the bot's working folder is not put on ``sys.path``, so a ``random.py``
        next to a match file cannot shadow the standard library inside a built-in bot."""
        return (sys.executable, "-P", "-m", self.module, *self.args)

    def env(self) -> dict[str, str]:
        """What the program's environment needs beyond a bot's: ``PYTHONPATH`` naming the
        folder arena imports the bot's package from when that is not where the bot's
        interpreter looks by itself (a plugin loaded from its source folder with ``-p``,
        not installed), so that the bot finds its package as arena does. An installed
        plugin needs nothing: a bot does not inherit the arena's ``PYTHONPATH``."""
        root = _import_root(self.module)
        return {} if root is None else {"PYTHONPATH": root}


def _import_root(module: str) -> str | None:
    """The folder ``module``'s top-level package is found in, unless it is one of the
    interpreter's own (the standard library, site-packages); None too when it is not
    found (the bot's start then says so on its stderr)."""
    top = module.partition(".")[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    places = list(spec.submodule_search_locations or ())
    if not places and spec.origin is not None:
        places = [spec.origin]
    if not places:
        return None
    root = os.path.dirname(os.path.realpath(places[0]))  # a package's folder or a module's file
    return None if root in _interpreter_folders() else root


def _interpreter_folders() -> set[str]:
    """Where this Python finds modules by itself: the standard library and the
    site-packages folders."""
    paths = sysconfig.get_paths()
    found = {paths["stdlib"], paths["platstdlib"], paths["purelib"], paths["platlib"]}
    found.update(site.getsitepackages())
    found.add(site.getusersitepackages())
    return {os.path.realpath(path) for path in found}


SessionState = TypeVar("SessionState")
"""What a game's :meth:`Game.open_session` returns and every ``play`` of the session gets."""


class Game(ABC, Generic[SessionState]):
    """A game plugin's entry: subclass, set the class attributes, implement :meth:`play`.

    One instance is made per run with the validated options and serves all its games (and
    sessions) at once, so it holds no per-game or per-bot state: that belongs in the
    session object (``class Clue(Game[ClueSession])``). ``play`` is the protocol adapter:
    it drives the game's rules engine and talks to the bots only through the
    :class:`~arena_kernel.referee.table.Table`.
    """

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    seats: ClassVar[Sequence[int]] = (2,)
    """Seat counts the game supports."""
    codec: ClassVar[str] = "line"
    transport: ClassVar[str] = "stdio"
    clocks: ClassVar[Clocks] = Clocks()
    lifetime: ClassVar[Literal["game", "session"]] = "game"
    """``game``: bot processes live for one game. ``session``: they stay connected for a
    whole sequence of games (Speed Clue, Liar's Dice)."""
    options: ClassVar[Mapping[str, Option]] = {}
    bots: ClassVar[Mapping[str, BuiltinBot]] = {}
    tagged_replies: ClassVar[bool] = False
    """Replies carry their request's id (Liar's Dice's ``message_id``): after a timeout the
    next message is not taken for the late answer, the game itself sorts out stale replies
    (see :class:`~arena_kernel.referee.table.Table`)."""
    bot_args: ClassVar[tuple[str, ...]] = ()
    """Arguments appended to a ``cmd`` bot's command when it names no placeholder: how the
    game's original server started its bots (Speed Clue: ``("{identifier}", "{port}")``),
    so that a contest bot's plain command line works unchanged."""

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.config: dict[str, Any] = self.validate_options(dict(options or {}))

    @classmethod
    def validate_options(cls, raw: dict[str, Any]) -> dict[str, Any]:
        """Check a ``[game_options]`` table against :attr:`options`; unknown keys are errors.

        Override (calling ``super()``) for checks across several options.
        """
        return check_options(cls.options, raw, f'game "{cls.name}"')

    async def open_session(self, table: Table) -> SessionState:
        """Once per session, after every seat is connected (greetings, name handshakes):
        returns the session's state, which the kernel hands to each ``play`` and to
        ``close_session`` of that session. ``table``'s seats are the session's entrants,
        numbered as :meth:`Table.entrant` numbers them in each game.

        For ``lifetime = "game"`` every game is a session of its own. The default keeps
        nothing (``None``).
        """
        return None  # type: ignore[return-value]  # Game[None]'s default; others override

    @abstractmethod
    async def play(self, table: Table, seed: int, session: SessionState) -> Outcome:
        """Play one game on ``table`` (its seats in this game's seating order).

        Deterministic for a given ``seed`` and given replies. Faults the table reports are
        values: decide what they mean (forfeit, default move...) as the game's spec says;
        record illegal moves with ``table.fault(seat, FaultKind.ILLEGAL, reason)``.
        ``session`` is what :meth:`open_session` returned for this session.
        """

    async def close_session(self, table: Table, session: SessionState) -> None:
        """Once per session, after its last game (e.g. Speed Clue's ``done`` -> ``dead``);
        optional."""
