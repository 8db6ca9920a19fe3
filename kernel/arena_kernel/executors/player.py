"""Playing one session: its bots brought up, its game (or games, with the bots staying
connected) refereed, each finished game's record handed to :class:`Results`.

The same code plays on this machine's event loop and on a cluster's worker; only where a
finished game goes differs (the runner stores it, a worker sends it back).
"""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Awaitable, Iterable, Sequence
from enum import Enum
from pathlib import Path
from typing import Any, Literal, TypeVar

from arena_kernel.errors import SetupError
from arena_kernel.executors.base import Results
from arena_kernel.executors.lineup import Lineup, close_all
from arena_kernel.match.resolved import ResolvedMatch
from arena_kernel.match.schedule import Session
from arena_kernel.model import GameRecord, Outcome, ScheduledGame
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table

T = TypeVar("T")


class Failed(Enum):
    """What :meth:`SessionPlayer._guarded` returns for a plugin coroutine that raised (a
    session may legitimately be ``None``, so None cannot say it)."""

    FAILED = "failed"


FAILED = Failed.FAILED


class RefereeError(Exception):
    """A game plugin broke its contract (raised, or returned a malformed outcome)."""


class SessionPlayer:
    """Plays sessions of one run with the bots of ``lineup`` (prepared), handing each
    finished game to ``results``. Several sessions may play at once on one event loop."""

    def __init__(self, match: ResolvedMatch, lineup: Lineup, results: Results) -> None:
        self.match = match
        self.game = match.game
        self.clocks = match.clocks
        self.lineup = lineup
        self.results = results
        self.lifetime = self.game.lifetime

    async def play(self, session: Session) -> None:
        if self.lifetime == "game":
            (game,) = session
            await self._single_game(game)
        else:
            await self._session(session)

    def _skipped(self, game: ScheduledGame) -> bool:
        """A game of a disqualified bot is not played: it is stored void, so that a resumed
        run counts it as done and no standings count it."""
        out = [name for name in game.seating if name in self.results.disqualified]
        if not out:
            return False
        seats = len(game.seating)
        outcome = Outcome([1] * seats, f"not played: {', '.join(out)} disqualified", void=True)
        self.results.game_ended(GameRecord(game=game, outcome=outcome, sandbox="none"))
        return True

    async def _single_game(self, game: ScheduledGame) -> None:
        """Bots live for this one game: connect, play, end every process."""
        if self._skipped(game):
            return
        self.results.game_started(game)
        log_dir = self.results.log_root / f"game-{game.index}"
        channels = await self._bring_up(game.seating, log_dir, f"game-{game.index}")
        try:
            log = EventLog()
            table = Table(channels, self.clocks, log)
            outcome = await self._guarded(f"game-{game.index}", self._whole_game(table, game))
        finally:
            await close_all(channels)
        if outcome is not FAILED:
            self._finished(game, table, log, outcome, channels, log_dir)

    async def _whole_game(self, table: Table, game: ScheduledGame) -> Outcome:
        session = await self.game.open_session(table)
        outcome = await self._checked_play(table, game, session)
        await self.game.close_session(table, session)
        return outcome

    async def _checked_play(self, table: Table, game: ScheduledGame, session: object) -> Outcome:
        outcome = await self.game.play(table, game.seed, session)
        _check_outcome(outcome, len(game.seating))
        return outcome

    async def _session(self, games: Session) -> None:
        """Bots stay connected for all ``games`` (Speed Clue, Liar's Dice)."""
        entrants = games.entrants()
        label = f"session-{games.number}"
        log_dir = self.results.log_root / label
        channels = await self._bring_up(entrants, log_dir, label)
        by_name = dict(zip(entrants, channels, strict=True))
        session_log = EventLog()
        try:
            opening = self.game.open_session(Table(channels, self.clocks, session_log))
            session = await self._guarded(label, opening)
            if session is FAILED:
                return
            for game in games:
                if self._skipped(game):
                    continue
                self.results.game_started(game)
                seated = [by_name[name] for name in game.seating]
                log = EventLog()
                entrant = [entrants.index(name) for name in game.seating]
                table = Table(seated, self.clocks, log, entrant)
                outcome = await self._guarded(
                    f"game-{game.index}", self._checked_play(table, game, session)
                )
                if outcome is not FAILED:
                    self._finished(game, table, log, outcome, seated, log_dir)
                # Between games (and after a bot's last one) what bots send goes to the
                # session log, not into a game that is already stored.
                for position, channel in enumerate(channels):
                    channel.attach(session_log, position)
            closing = self.game.close_session(Table(channels, self.clocks, session_log), session)
            await self._guarded(label, closing)
        finally:
            await close_all(channels)
            _write_session_log(log_dir / "session.log", session_log, entrants)

    async def _bring_up(self, names: Sequence[str], log_dir: Path, label: str) -> list[Channel]:
        """The channels of ``names``. A bot that fails to come up is its own seat's fault
        (a failed channel); an OS error escaping a transport is the arena's own (out of
        file descriptors, a log folder it cannot create): a set-up error."""
        try:
            return await self.lineup.connect(names, log_dir)
        except OSError as exc:
            raise SetupError(f"{label}: cannot start its bots: {exc}") from None

    async def _guarded(self, label: str, call: Awaitable[T]) -> T | Literal[Failed.FAILED]:
        """Await a game plugin's coroutine: its result, or :data:`FAILED` when it raised.

        A plugin bug costs that game (or session), never the run: :meth:`Results.failed`
        hears of it, with the traceback. A :class:`SetupError` is not the plugin's doing:
        it stops the run.

        An exception is never charged to a bot, not even one raised while the plugin
        handled a bot's message: nothing ties it to that message rather than to the
        plugin's own code, and a bot blamed for a plugin's bug would lose games with no
        traceback to show why. What a bot can send is bounded by its codec instead (size,
        nesting depth, integers Python converts: see
        :class:`~arena_kernel.codecs.base.Decoder`), so that any message can be printed and
        walked, and judging its content is the plugin's part (``Table.fault``)."""
        try:
            return await call
        except (asyncio.CancelledError, KeyboardInterrupt, SetupError):
            raise
        except Exception as exc:
            message = f"referee error {type(exc).__name__}: {exc}"
            self.results.failed(label, message, traceback.format_exc())
            return FAILED

    def _finished(
        self,
        game: ScheduledGame,
        table: Table,
        log: EventLog,
        outcome: Outcome,
        channels: Sequence[Channel],
        log_dir: Path,
    ) -> None:
        record = GameRecord(
            game=game,
            outcome=outcome,
            faults=list(table.faults),
            events=log.events,
            started_at=log.started,
            duration=time.monotonic() - log.t0,
            stderr_logs={
                seat: str(log_dir / f"{ch.identifier}.stderr")
                for seat, ch in enumerate(channels)
                if (log_dir / f"{ch.identifier}.stderr").exists()
            },
            sandbox=self.lineup.sandbox if starts_any(self.match, game.seating) else "none",
        )
        self.results.game_ended(record)


def starts_any(match: ResolvedMatch, names: Iterable[str]) -> bool:
    """Whether the arena starts any of the bots ``names``: only those run sandboxed, so a
    game (or a run) of in-process bots and bots that connect by themselves has ``"none"``
    for its sandbox (:attr:`GameRecord.sandbox`), and no header line."""
    return any(match.bots[name].program.argv is not None for name in names)


def _check_outcome(outcome: Any, seats: int) -> None:
    if not isinstance(outcome, Outcome):
        raise RefereeError(f"play() returned {type(outcome).__name__}, not an Outcome")
    if len(outcome.ranks) != seats or any(not isinstance(r, int) or r < 1 for r in outcome.ranks):
        raise RefereeError(f"outcome ranks {outcome.ranks!r} do not fit {seats} seats")
    if outcome.scores is not None and len(outcome.scores) != seats:
        raise RefereeError(f"outcome scores {outcome.scores!r} do not fit {seats} seats")
    if any(not isinstance(s, int) or not 0 <= s < seats for s in outcome.disqualified):
        raise RefereeError(
            f"outcome disqualifies {set(outcome.disqualified)!r}, not seats of {seats}"
        )


def _write_session_log(path: Path, log: EventLog, entrants: Sequence[str]) -> None:
    """Session-level messages (greetings, farewells) belong to no game: keep them in a file
    (none for a session that had none, so that quiet sessions leave no folders behind)."""
    if not log.events:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8") as out:
            for event in log.events:
                who = "-" if event.seat is None else entrants[event.seat]
                out.write(f"{event.t:10.4f} {event.kind:5} {who}: {event.text}\n")
    except OSError as exc:
        raise SetupError(f"cannot write {path}: {os_error(exc)}") from None


def os_error(exc: OSError) -> str:
    """``strerror`` alone when it exists: the callers name the file themselves."""
    return exc.strerror or str(exc)
