"""The match resolved once: the objects a run plays with, made from a validated spec.

The loader checks the file and fills in what the run key holds (a
:class:`~arena_kernel.match.spec.MatchSpec`: names and values). :func:`resolve` turns those
into the game with its options, the codec, the clocks, one transport per name with its
options, and for each bot its program and its transport. The runner and the lineup read a
:class:`ResolvedMatch` and decide no default again, so that data flows one way: file,
spec, resolved match, games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena_kernel.codecs.base import Codec
from arena_kernel.errors import ArenaError, OptionError
from arena_kernel.games.base import Game
from arena_kernel.match.spec import BotSpec, MatchSpec
from arena_kernel.referee.clocks import Clocks
from arena_kernel.registries.registry import Registries
from arena_kernel.sandbox.settings import BotSandbox
from arena_kernel.transports.base import BotProgram, Transport, uses_placeholders


@dataclass(frozen=True)
class ResolvedBot:
    """One bot: what to run for it, the transport that brings it up, and the sandbox it
    runs in when the run is sandboxed (the run's ``[sandbox]`` with its own on top)."""

    spec: BotSpec
    program: BotProgram
    transport: Transport
    sandbox: BotSandbox


@dataclass(frozen=True)
class ResolvedMatch:
    """A match ready to play. Its transports are made but hold nothing yet: the run's
    lineup prepares them before the first game and closes them at the end."""

    spec: MatchSpec
    game: Game[Any]
    codec: Codec
    clocks: Clocks
    bots: Mapping[str, ResolvedBot]
    """By name, in the match file's order."""

    @property
    def transports(self) -> list[Transport]:
        """Each transport the bots use, once (a TCP transport's listener serves them all)."""
        return list({id(bot.transport): bot.transport for bot in self.bots.values()}.values())


def resolve(spec: MatchSpec, registries: Registries) -> ResolvedMatch:
    """Make the game, codec, clocks, transports and programs of ``spec``. A transport option
    its transport refuses (``port = 70000``) is an :class:`~arena_kernel.errors.ArenaError`
    naming the file and the table."""
    game_cls: type[Game[Any]] = registries.games.cls(spec.game)
    try:
        game = game_cls(spec.game_options)
    except OptionError as exc:
        raise ArenaError(f"{spec.path}: [game_options] {exc.key}: {exc}") from None
    codec = registries.codecs.cls(spec.codec or game_cls.codec)(max_message=spec.max_message)
    clocks = game_cls.clocks.merged(dict(spec.clock))
    return ResolvedMatch(spec, game, codec, clocks, resolve_bots(spec, game_cls, registries))


def resolve_bots(
    spec: MatchSpec, game_cls: type[Game[Any]], registries: Registries
) -> dict[str, ResolvedBot]:
    """Each bot's program, transport and sandbox; bots that share a transport share its
    instance."""
    transports: dict[str, Transport] = {}

    def transport(name: str) -> Transport:
        if name not in transports:
            cls = registries.transports.cls(name)
            try:
                transports[name] = cls(**spec.transport_options.get(name, {}))
            except OptionError as exc:
                raise ArenaError(f"{spec.path}: [transport_options.{name}] {exc}") from None
        return transports[name]

    return {
        bot.name: ResolvedBot(
            bot,
            program(bot, game_cls),
            transport(transport_name(bot, spec, game_cls)),
            spec.sandbox.for_bot(**bot.sandbox),
        )
        for bot in spec.bots
    }


def transport_name(bot: BotSpec, spec: MatchSpec, game_cls: type[Game[Any]]) -> str:
    """An in-process bot's transport is ``inproc``; any other's is its own, the match's,
    or the game's (``None`` in a spec means the next one says)."""
    if bot.inproc:
        return "inproc"
    return bot.transport or spec.transport or game_cls.transport


def program(bot: BotSpec, game_cls: type[Game[Any]]) -> BotProgram:
    """What to run: a built-in bot's program (or its in-process object), or the bot's own
    command with the game's ``bot_args`` appended when it names no placeholder."""
    inproc = None
    env = dict(bot.env)
    warm = None
    argv: tuple[str, ...] | None = bot.cmd
    if argv is not None and not uses_placeholders(argv):
        argv = (*argv, *game_cls.bot_args)
    if bot.builtin is not None:
        builtin = game_cls.bots[bot.builtin]
        argv = (*builtin.argv(), *bot.args)
        inproc = builtin.inproc if bot.inproc else None
        env = {**builtin.env(), **env}
        warm = builtin.module
    return BotProgram(
        name=bot.name,
        argv=None if inproc else argv,
        inproc=inproc,
        connect=bot.connect,
        env=env,
        cwd=bot.cwd,
        port=bot.port,
        peer=bot.peer,
        warm=warm,
    )
