"""The hook specifications: every way a plugin can extend arena.

Six registration hooks hand the kernel named classes (the match file refers to everything
by name), and four notification hooks let observers follow a run. Built-in transports,
codecs and scorers are registered through the very same hooks as third-party ones.

The kernel calls each implementation on its own, so that one plugin's failure stays its
own: an installed plugin whose registration hook raises is left out (``arena plugins``
lists it as broken), and a notification hook that raises is reported once, as one
warning naming the plugin, while the run goes on. Hook wrappers are therefore refused.
The runner calls the notification hooks through these very functions
(:class:`arena_kernel.registries.observers.Observers`), so their signatures here are the
ones type-checked at every call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from arena_kernel.markers import hookspec

if TYPE_CHECKING:
    from arena_kernel.model import GameRecord, RunInfo, ScheduledGame, Standings

Register = Callable[[type[Any]], None]


@hookspec
def arena_register_transports(register: Register) -> None:
    """Register transports: how bytes reach a bot.

    Call ``register(cls)`` once per :class:`arena_kernel.transports.base.Transport` subclass.
    The class's ``name`` is what a match file writes as ``transport = "..."``.
    """


@hookspec
def arena_register_codecs(register: Register) -> None:
    """Register codecs: how messages are framed and encoded on a byte stream.

    Call ``register(cls)`` once per :class:`arena_kernel.codecs.base.Codec` subclass; its
    ``name`` is what a game or a match file selects with ``codec = "..."``.
    """


@hookspec
def arena_register_games(register: Register) -> None:
    """Register games: a rules engine, its protocol adapter and its built-in bots.

    Call ``register(cls)`` once per :class:`arena_kernel.games.base.Game` subclass; its ``name``
    is the match file's ``game = "..."``.
    """


@hookspec
def arena_register_scorers(register: Register) -> None:
    """Register scorers: turning stored game outcomes into standings.

    Call ``register(cls)`` once per :class:`arena_kernel.scoring.base.Scorer` subclass; its
    ``name`` is what a match file lists in ``scorers = [...]``.
    """


@hookspec
def arena_register_renderers(register: Register) -> None:
    """Register renderers: how a game's stored games are drawn in the HTML report.

    Call ``register(cls)`` once per :class:`arena_kernel.report.renderer.Renderer`
    subclass; its ``name`` is the name of the game it draws. ``arena report`` shows a game
    with no renderer as its transcript, step by step.
    """


@hookspec
def arena_register_executors(register: Register) -> None:
    """Register executors: where a run's games are played.

    Call ``register(cls)`` once per :class:`arena_kernel.executors.base.Executor`
    subclass; its ``name`` is the match file's ``executor = "..."`` (or ``arena run
    --executor``). Built in: ``local`` (one event loop on this machine) and ``dask`` (the
    workers of a Dask cluster). Whatever plays the games, the coordinator alone stores them.
    """


@hookspec
def arena_run_start(run: RunInfo) -> None:
    """A run is about to play its scheduled games (finished games of a resumed run excluded)."""


@hookspec
def arena_game_start(run: RunInfo, game: ScheduledGame) -> None:
    """One game is about to open its seats' connections."""


@hookspec
def arena_game_end(run: RunInfo, game: ScheduledGame, record: GameRecord) -> None:
    """One game has ended and its record has been stored (one transaction)."""


@hookspec
def arena_run_end(run: RunInfo, standings: list[Standings]) -> None:
    """The run has played every game it had to play (some may have failed on a referee
    error, to be retried by a later run). Not called for a run that stopped early (an
    interrupt, or a run error such as a port in use).

    ``standings`` holds one table per scorer of the match file.
    """
