"""A bot that cannot start at all (a typo in its script, a missing class, a module not
installed, a program that never flushes its output) would lose every game of a schedule to
the same fault, and the run would end "finished" with nothing on the terminal. So a bot
has to come up in its first games of a run: one that fails to in each of its first
:data:`FIRST_GAMES` games stops the run with one line that quotes the end of its stderr,
as chess tournament runners stop on an engine that fails to start.

Those games are not stored: fixed, the next run plays them. A bot that has come up once in
the run is judged as any other from then on: the games it failed to start in before are
stored as they were played (a start-up that fails now and then is the bot's own fault).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from arena_kernel.errors import SetupError
from arena_kernel.model import GameRecord
from arena_kernel.referee.startup import FIRST_GAMES, startup_fault_indexes

FORFEIT_ADVICE = 'startup_failures = "forfeit" would play on, its games lost'
"""What the stop's line says to play on regardless (the match file's key)."""


@dataclass
class _Bot:
    """What the run knows of one bot's start-ups so far."""

    came_up: bool = False
    failures: list[str] = field(default_factory=list)
    """The first start-up fault of each game it failed to start in, as ``kind: reason``."""


class FirstStarts:
    """Holds back the games in which a bot that has not yet come up in the run failed to,
    until it comes up (they are then stored) or fails in its first :data:`FIRST_GAMES`
    (the run stops: :class:`~arena_kernel.errors.SetupError`). ``source`` names the match
    file in that error."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._bots: dict[str, _Bot] = {}
        self._held: list[tuple[GameRecord, frozenset[str]]] = []

    def admit(self, record: GameRecord) -> list[GameRecord]:
        """The records to store now that ``record`` has ended: none while it waits on a
        bot that failed to start in it, ``record`` and those it waited with once its bots
        have come up. Raises :class:`SetupError` when a bot failed to start in its first
        :data:`FIRST_GAMES` games."""
        seating = record.game.seating
        to_see = set(range(len(seating)))
        for event in record.events:
            if event.kind == "recv" and event.elapsed is not None and event.seat in to_see:
                self._bot(seating[event.seat]).came_up = True
                to_see.discard(event.seat)
                if not to_see:
                    break  # every seat answered: the rest of the log says no more
        waiting_on = set()
        for position in startup_fault_indexes(record.faults, record.events):
            fault = record.faults[position]
            assert fault.seat is not None
            name = seating[fault.seat]
            bot = self._bot(name)
            if not bot.came_up:
                bot.failures.append(f"{fault.kind}: {fault.detail}")
                waiting_on.add(name)
        self._held.append((record, frozenset(waiting_on)))
        self._stop_if(name for name, bot in self._bots.items() if len(bot.failures) >= FIRST_GAMES)
        return self._released()

    def settle(self) -> None:
        """At the end of a part of the run the executor played: a bot that failed to start
        in every game it had (fewer than :data:`FIRST_GAMES`) stops the run too."""
        self._stop_if(name for _, names in self._held for name in names)

    def _bot(self, name: str) -> _Bot:
        return self._bots.setdefault(name, _Bot())

    def _released(self) -> list[GameRecord]:
        """The held records none of whose failed bots is still to come up, in the order
        they ended; the others stay held."""
        ready, still = [], []
        for record, names in self._held:
            if all(self._bots[name].came_up for name in names):
                ready.append(record)
            else:
                still.append((record, names))
        self._held = still
        return ready

    def _stop_if(self, names: Iterable[str]) -> None:
        for name in names:
            bot = self._bots[name]
            if bot.came_up:
                continue
            count = len(bot.failures)
            games = "its first game" if count == 1 else f"each of its first {count} games"
            raise SetupError(
                f'{self.source}: bot "{name}" could not start in {games}: '
                f"{bot.failures[0]}; {FORFEIT_ADVICE}"
            )
