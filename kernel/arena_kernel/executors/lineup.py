"""Bringing bots up for a game or a session: programs, transports, channels."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path

from arena_kernel.executors.preflight import check_program, check_writable_folder
from arena_kernel.executors.sandboxes import RunSandboxes
from arena_kernel.match.resolved import ResolvedMatch
from arena_kernel.match.spec import BotSpec
from arena_kernel.processes.cancel_proof import to_the_end
from arena_kernel.processes.reaper import reaper
from arena_kernel.processes.warden import Warden
from arena_kernel.referee.channel import Channel
from arena_kernel.transports.base import BotProgram, ConnectError, Launch


def safe_name(text: str) -> str:
    """A bot name usable in file names and argv identifiers."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:40] or "bot"


class Lineup:
    """The bots of a match and how to reach each of them: one instance per run.

    It reads a :class:`~arena_kernel.match.resolved.ResolvedMatch`, whose transports are
    made once per run (a TCP transport owns one listening socket that every game shares):
    the lineup prepares them before the first game and closes them in :meth:`aclose`. So
    is the run's warden, started with the first bot program
    (:mod:`arena_kernel.processes.warden`: it ends the bots if arena dies).

    After :meth:`prepare`, :attr:`sandbox` says what the run's started bots run under
    (``"bwrap"`` or ``"none"``) and :attr:`sandbox_note` is a warning line for the run's
    header, or None.
    """

    def __init__(self, match: ResolvedMatch) -> None:
        self.match = match
        self._warden: Warden | None = None
        self._sandboxes: RunSandboxes | None = None
        self.sandbox = "none"
        self.sandbox_note: str | None = None

    def program(self, bot: BotSpec) -> BotProgram:
        """What runs for ``bot`` (resolved with the match)."""
        return self.match.bots[bot.name].program

    async def prepare(self) -> None:
        """Check, before the first game, what would otherwise fail every game: each bot's
        command can be started, the ``logs`` and ``database`` folders can be written, and
        each transport acquires what its connections need (a free port). A transport whose
        bots all run confined to a network of their own (sandboxed, ``network = "none"``)
        is not prepared: what it would acquire on the machine (a fixed port another run
        holds, say) is nothing they can reach. Raises
        :class:`~arena_kernel.errors.SetupError`; call :meth:`aclose` afterwards in any case."""
        spec = self.match.spec
        source = str(spec.path)
        for bot in self.match.bots.values():
            check_program(bot.program, source)
        check_writable_folder(spec.logs, "logs", source)
        check_writable_folder(spec.database.parent, "database", source)
        sandboxes = self._sandboxes = RunSandboxes(self.match)
        self.sandbox, self.sandbox_note = sandboxes.mode, sandboxes.note
        for transport in self.match.transports:
            if any(
                bot.transport is transport and not sandboxes.confined(name)
                for name, bot in self.match.bots.items()
            ):
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
        match = self.match
        if self._warden is None and any(match.bots[n].program.argv for n in names):
            self._warden = Warden.start()

        async def one(position: int, name: str) -> Channel:
            bot = match.bots[name]
            identifier = f"{position}-{safe_name(name)}"
            launch = Launch(
                program=bot.program,
                codec=match.codec,
                identifier=identifier,
                limits=match.spec.limits,
                log_dir=log_dir,
                startup=match.clocks.startup,
                kill_grace=match.clocks.kill,
                sandbox=self._sandboxes.for_bot(name) if self._sandboxes else None,
                cpu_clock=match.clocks.mode == "cpu",
                clocks=match.clocks.told(),
            )
            try:
                connection = await bot.transport.connect(launch)
            except ConnectError as exc:
                return Channel.failed(name, identifier, match.codec, str(exc))
            tagged = type(match.game).tagged_replies
            return Channel(name, identifier, connection, match.codec, tagged=tagged)

        launches = [asyncio.ensure_future(one(i, n)) for i, n in enumerate(names)]
        try:
            return list(await asyncio.gather(*launches))
        except BaseException:
            await to_the_end(_close_launched(launches))
            raise

    async def aclose(self) -> None:
        """Close the transports, end what bots left behind, and stop the warden."""
        try:
            for transport in self.match.transports:
                await transport.aclose()
            await reaper.sweep()
        finally:
            if self._sandboxes is not None:
                self._sandboxes.close()
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
