"""Bringing bots up for a game or a session: programs, transports, channels."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena_kernel.codecs.base import Codec
from arena_kernel.errors import ArenaError, OptionError
from arena_kernel.games.base import Game
from arena_kernel.match.spec import BotSpec, MatchSpec
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.registries.registry import Registries
from arena_kernel.runner.preflight import check_program, check_writable_folder
from arena_kernel.transports.base import (
    BotProgram,
    ConnectError,
    Launch,
    Transport,
    uses_placeholders,
)
from arena_kernel.transports.reaper import reaper
from arena_kernel.transports.unstoppable import to_the_end
from arena_kernel.transports.warden import Warden


def safe_name(text: str) -> str:
    """A bot name usable in file names and argv identifiers."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:40] or "bot"


class Lineup:
    """The bots of a match and how to reach each of them: one instance per run.

    Transports are made once per run (a TCP transport owns one listening socket that every
    game shares) and closed by :meth:`aclose`. So is the run's warden, started with the
    first bot program (:mod:`arena_kernel.transports.warden`: it ends the bots if arena dies).
    """

    def __init__(
        self, spec: MatchSpec, game: Game[Any], codec: Codec, clocks: Clocks, registries: Registries
    ) -> None:
        self.spec = spec
        self.game = game
        self.codec = codec
        self.clocks = clocks
        self.registries = registries
        self.bots: Mapping[str, BotSpec] = {b.name: b for b in spec.bots}
        self._transports: dict[str, Transport] = {}
        self._warden: Warden | None = None
        for bot in spec.bots:
            self.transport_for(bot)  # fail early, before any game, on a bad transport option

    def program(self, bot: BotSpec) -> BotProgram:
        inproc = None
        argv: tuple[str, ...] | None = bot.cmd
        if argv is not None and not uses_placeholders(argv):
            argv = (*argv, *type(self.game).bot_args)
        if bot.builtin is not None:
            builtin = type(self.game).bots[bot.builtin]
            argv = (*builtin.argv(), *bot.args)
            inproc = builtin.inproc if bot.inproc else None
        return BotProgram(
            name=bot.name,
            argv=None if inproc else argv,
            inproc=inproc,
            connect=bot.connect,
            env=dict(bot.env),
            cwd=bot.cwd,
            port=bot.port,
            peer=bot.peer,
        )

    def transport_for(self, bot: BotSpec) -> Transport:
        if bot.inproc:
            name = "inproc"
        else:
            name = bot.transport or self.spec.transport or type(self.game).transport
        if name not in self._transports:
            cls = self.registries.transports.cls(name)
            options: dict[str, Any] = dict(self.spec.transport_options.get(name, {}))
            try:
                self._transports[name] = cls(**options)
            except OptionError as exc:
                raise ArenaError(f"{self.spec.path}: [transport_options.{name}] {exc}") from None
        return self._transports[name]

    async def prepare(self) -> None:
        """Check, before the first game, what would otherwise fail every game: each bot's
        command can be started, the ``logs`` and ``database`` folders can be written, and
        each transport acquires what its connections need (a free port). Raises
        :class:`~arena_kernel.errors.SetupError`; call :meth:`aclose` afterwards in any case."""
        source = str(self.spec.path)
        for bot in self.spec.bots:
            check_program(self.program(bot), source)
        check_writable_folder(self.spec.logs, "logs", source)
        check_writable_folder(self.spec.database.parent, "database", source)
        for transport in self._transports.values():
            await transport.prepare()

    async def connect(self, names: Sequence[str], log_dir: Path) -> list[Channel]:
        """One channel per bot name, started concurrently (TCP serializes its own launches).

        A bot that cannot be brought up gets a failed channel: its seat plays on and every
        request to it returns a ``connect`` fault, for the game's policy to judge. If
        connecting is cancelled (Ctrl-C, SIGTERM) or fails for a reason that is not a bot's
        (:class:`~arena_kernel.errors.SetupError`), the channels already opened are closed before
        that propagates: a caller that never receives them cannot leak their bots.
        ``log_dir`` is created only by a bot that writes to its stderr log.
        """
        if self._warden is None and any(self.program(self.bots[n]).argv for n in names):
            self._warden = Warden.start()

        async def one(position: int, name: str) -> Channel:
            bot = self.bots[name]
            identifier = f"{position}-{safe_name(name)}"
            launch = Launch(
                program=self.program(bot),
                codec=self.codec,
                identifier=identifier,
                limits=self.spec.limits,
                log_dir=log_dir,
                startup=self.clocks.startup,
                kill_grace=self.clocks.kill,
            )
            try:
                connection = await self.transport_for(bot).connect(launch)
            except ConnectError as exc:
                return Channel.failed(name, identifier, self.codec, str(exc))
            tagged = type(self.game).tagged_replies
            return Channel(name, identifier, connection, self.codec, tagged=tagged)

        launches = [asyncio.ensure_future(one(i, n)) for i, n in enumerate(names)]
        try:
            return list(await asyncio.gather(*launches))
        except BaseException:
            await to_the_end(_close_launched(launches))
            raise

    async def aclose(self) -> None:
        """Close the transports, end what bots left behind, and stop the warden."""
        try:
            for transport in self._transports.values():
                await transport.aclose()
            await reaper.sweep()
        finally:
            if self._warden is not None:
                await self._warden.stop()


async def _close_launched(launches: Sequence[asyncio.Future[Channel]]) -> None:
    """Stop the launches still running and close every channel that was opened."""
    for launch in launches:
        launch.cancel()
    await asyncio.wait(launches)
    opened = [f.result() for f in launches if not f.cancelled() and f.exception() is None]
    await close_all(opened)


async def close_all(channels: Sequence[Channel]) -> None:
    """End every bot of a game or session; no process outlives it, even if the caller is
    cancelled (again) while it waits."""
    closing = asyncio.gather(*(ch.close() for ch in channels), return_exceptions=True)
    await to_the_end(closing)
