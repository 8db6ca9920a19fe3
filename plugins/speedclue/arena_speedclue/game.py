"""The Speed Clue referee: the contest's TCP protocol around :mod:`arena_speedclue.rules`.

Bots are TCP clients started with ``<identifier> <port>`` that stay connected for a whole
session of games (``lifetime = "session"``): ``<identifier> alive`` once, then ``reset`` at
the start of every game, and ``done`` -> ``dead`` after the last one. Messages are bare
writes (the ``raw`` codec) answered lock-step, each within the reply clock.

Anything a bot does wrong is a *violation*, judged by the ``violations`` option:
``disqualify`` (the contest's policy: the game ends at once, void, and the kernel voids every
game the bot played in the run and skips its later ones) or ``forfeit`` (the bot loses this
game only and its seat turns passive, see :class:`Referee`).

A bot that times out (or whose connection is gone) is out of the rest of its session under
either policy: with unframed messages, its late reply and its next one can arrive in one
read, so its stream can never again be trusted to be in step.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arena_kernel.plugin import BuiltinBot, Clocks, Fault, FaultKind, Game, Option, Outcome
from arena_speedclue import wire
from arena_speedclue.cards import Triple
from arena_speedclue.rules import RuleError, State, missed_accusation, suicidal_accusation
from arena_speedclue.wire import WireError

if TYPE_CHECKING:
    from arena_kernel.plugin import Reply, Table

DISQUALIFY = "disqualify"
FORFEIT = "forfeit"
OUT_OF_STEP = frozenset(
    {
        FaultKind.TIMEOUT,
        FaultKind.WALL_CAP,
        FaultKind.EXIT,
        FaultKind.CONNECT,
        FaultKind.FLOOD,
        FaultKind.OVERSIZE,
    }
)
"""Faults after which a bot's replies can no longer be matched to requests."""


class Disqualified(Exception):
    """Raised out of a game under the ``disqualify`` policy once a step is complete."""


class Referee:
    """One game: the turn loop, the broadcasts and the violation policy.

    Under ``forfeit`` a violating seat becomes *passive* for the rest of the game: it is out
    of the turn order and gets no more messages, but it keeps its cards, so when a
    suggestion reaches it the referee shows for it (its only matching card, or the first of
    them in suggestion order). The other bots see it stop taking turns, as they would see an
    eliminated player. It ranks below every other seat. A violation is applied to the game
    only once the step it happened in is complete, so a disprover that times out still
    shows a card and the suggestion broadcast still goes out.

    ``out`` are the seats whose bots are out of their session before the game starts (they
    forfeit, or are disqualified, at once); ``retire`` puts a bot out of its session when it
    falls out of step (:data:`OUT_OF_STEP`).
    """

    def __init__(
        self,
        table: Table,
        state: State,
        config: Mapping[str, Any],
        out: Mapping[int, Fault],
        retire: Callable[[int, Fault], None],
    ) -> None:
        self.table = table
        self.state = state
        self.config = config
        self.out = out
        self.retire = retire
        self.passive: set[int] = set()
        self.forfeited: list[int] = []
        self.reasons: dict[int, str] = {}
        self.pending: list[int] = []
        self.turns = 0

    async def play(self) -> Outcome:
        try:
            for seat, fault in self.out.items():
                self.violation(seat, str(self.table.fault(seat, fault.kind, fault.detail)), fault)
            self.commit()
            await self.reset()
            while not self.state.over:
                await self.turn()
        except Disqualified:
            return self.void()
        return self.result()

    # -- steps --------------------------------------------------------------------------

    async def reset(self) -> None:
        n = self.state.n_players
        messages = {s: wire.reset(n, s, self.state.hands[s]) for s in self.active_seats()}
        self.expect_ok(await self.table.ask_many(messages))
        self.commit()

    async def turn(self) -> None:
        self.turns += 1
        active = self.state.active
        triple = await self.suggest(active)
        self.commit()
        if triple is None:
            return
        disproof = self.state.last_disproof
        assert disproof is not None
        card = disproof.card
        if disproof.needs_choice:
            card = await self.show(active, triple, disproof.disprover, disproof.choices)
        messages = {
            seat: wire.suggestion(
                active,
                triple,
                disproof.disprover,
                card if seat in (active, disproof.disprover) else None,
            )
            for seat in self.active_seats()
        }
        self.expect_ok(await self.table.ask_many(messages))
        self.commit()
        if active in self.passive or self.state.over:
            return
        await self.accuse(active)
        self.commit()

    async def suggest(self, active: int) -> Triple | None:
        message = await self.ask(active, "suggest")
        if message is None:
            return None
        try:
            triple = wire.read_triple(message, "suggest")
            self.state.suggest(active, *triple)
        except (WireError, RuleError) as error:
            self.violation(active, str(error))
            return None
        return triple

    async def show(
        self, active: int, triple: Triple, disprover: int | None, choices: tuple[str, ...]
    ) -> str:
        """The disprover's choice among two or three cards; the referee's when it fails."""
        assert disprover is not None
        if disprover not in self.passive:
            message = await self.ask(disprover, wire.disprove(active, triple))
            if message is not None:
                try:
                    return self.state.show(disprover, wire.read_show(message))
                except (WireError, RuleError) as error:
                    self.violation(disprover, str(error))
        if self.config["violations"] == DISQUALIFY and self.pending:
            raise Disqualified
        return self.state.show(disprover, choices[0])

    async def accuse(self, active: int) -> None:
        message = await self.ask(active, "accuse")
        if message is None:
            return
        try:
            accusation = wire.read_accuse(message)
        except WireError as error:
            self.violation(active, str(error))
            return
        if accusation is None:
            reason = self.config["missed_accusation"] and missed_accusation(self.state, active)
            if reason:
                self.violation(active, reason)
            else:
                self.state.decline(active)
            return
        reason = self.config["suicidal_accusation"] and suicidal_accusation(
            self.state, active, accusation
        )
        if reason:
            self.violation(active, reason)
            return
        correct = self.state.accuse(active, *accusation)
        messages = {s: wire.accusation(active, accusation, correct) for s in self.active_seats()}
        self.expect_ok(await self.table.ask_many(messages))

    # -- talking and judging -----------------------------------------------------------

    def active_seats(self) -> list[int]:
        """Seats that still get messages: everyone but the passive, eliminated ones too."""
        return [s for s in range(self.state.n_players) if s not in self.passive]

    async def ask(self, seat: int, message: str) -> str | None:
        """The seat's reply, or ``None`` after recording the violation."""
        reply = await self.table.ask(seat, message)
        if reply.fault is not None:
            self.violation(seat, str(reply.fault), reply.fault)
            return None
        return reply.message

    def expect_ok(self, replies: Mapping[int, Reply]) -> None:
        for seat, reply in replies.items():
            if reply.fault is not None:
                self.violation(seat, str(reply.fault), reply.fault)
                continue
            try:
                wire.read_ok(reply.message)
            except WireError as error:
                self.violation(seat, str(error))

    def violation(self, seat: int, reason: str, fault: Fault | None = None) -> None:
        """Note a violation; :meth:`commit` applies the policy once the step is complete.

        Faults the table reported (timeouts, exits, unreadable bytes) are recorded already;
        everything the referee judges is recorded here as ``illegal``.
        """
        if seat in self.passive or seat in self.pending:
            return
        if fault is None:
            self.table.fault(seat, FaultKind.ILLEGAL, reason)
        elif fault.kind in OUT_OF_STEP and seat not in self.out:
            self.retire(seat, fault)
        self.reasons[seat] = reason
        self.pending.append(seat)
        if self.config["violations"] == FORFEIT:
            self.passive.add(seat)

    def commit(self) -> None:
        if not self.pending:
            return
        if self.config["violations"] == DISQUALIFY:
            raise Disqualified
        for seat in self.pending:
            self.forfeited.append(seat)
            self.state.eliminate(seat)
        self.pending.clear()

    # -- outcomes -----------------------------------------------------------------------

    def details(self) -> dict[str, Any]:
        return {
            "solution": list(self.state.solution),
            "hands": [list(hand) for hand in self.state.hands],
            "turns": self.turns,
            "eliminated": sorted(self.state.eliminated - set(self.forfeited)),
            "violations": {str(seat): reason for seat, reason in self.reasons.items()},
        }

    def void(self) -> Outcome:
        out = sorted(self.pending)
        n = self.state.n_players
        names = "; ".join(f"{self.table.name(s)} ({self.reasons[s]})" for s in out)
        return Outcome(
            [2 if seat in out else 1 for seat in range(n)],
            f"void: disqualified {names}",
            details=self.details(),
            void=True,
            disqualified=frozenset(out),
        )

    def result(self) -> Outcome:
        winner = self.state.winner
        assert winner is not None
        n = self.state.n_players
        details = {**self.details(), "winner": winner, "forfeited": self.forfeited}
        if winner in self.forfeited:
            return Outcome([1] * n, "void: every player forfeited", details=details, void=True)
        ranks = [1 if s == winner else 3 if s in self.forfeited else 2 for s in range(n)]
        name = self.table.name(winner)
        if self.state.by_accusation:
            reason = f"{name} accused {' '.join(self.state.solution)} correctly"
        else:
            reason = f"{name} is the last player standing"
        return Outcome(ranks, reason, details=details)


def _bot(summary: str, module: str) -> BuiltinBot:
    return BuiltinBot.from_module(summary, module, "{identifier}", "{port}")


@dataclass
class Roster:
    """What a session knows of its bots, by their seat in the session (``table.entrant``)."""

    greetings: dict[int, str] = field(default_factory=dict)
    """What each bot said at its handshake: it is received before any game, so every
    game's replay repeats it."""
    out: dict[int, Fault] = field(default_factory=dict)
    """Bots out of the session (no ``alive``, or out of step), with the reason."""


class SpeedClue(Game[Roster]):
    name = "speedclue"
    summary = "Speed Clue (2014 contest): board-less Cluedo, 3-6 players, TCP, session bots"
    seats = (3, 4, 5, 6)
    codec = "raw"
    transport = "tcp"
    clocks = Clocks(startup=10.0, reply=10.0)
    lifetime = "session"
    bot_args = ("{identifier}", "{port}")
    options = {
        "violations": Option(
            DISQUALIFY,
            "disqualify: out of the run, all its games void (the contest's); "
            "forfeit: loses that game only, its seat turns passive",
            choices=(DISQUALIFY, FORFEIT),
        ),
        "suicidal_accusation": Option(
            True, "a violation: accusing with a card one holds or was shown (contest rule)"
        ),
        "missed_accusation": Option(
            True,
            "a violation: not accusing after one's own suggestion went undisproved with no "
            "card one holds or has seen (contest rule)",
        ),
    }
    bots = {
        "random": _bot(
            "random new suggestions; accuses only when its own evidence is certain",
            "arena_speedclue.bots.random",
        ),
        "deducer": _bot(
            "full knowledge base of who may hold each card; asks about likely envelope cards",
            "arena_speedclue.bots.deducer",
        ),
    }

    async def open_session(self, table: Table) -> Roster:
        """Every bot must say ``<identifier> alive`` within the start-up clock."""
        session = Roster()
        seats = range(len(table))
        replies = await asyncio.gather(*(table.receive(seat) for seat in seats))
        for seat, reply in zip(seats, replies, strict=True):
            fault = reply.fault
            if fault is None:
                session.greetings[seat] = reply.message
                try:
                    wire.read_alive(reply.message, table.identifier(seat))
                except WireError as error:
                    fault = table.fault(seat, FaultKind.ILLEGAL, str(error))
            if fault is not None:
                session.out[seat] = Fault(fault.kind, f"no alive handshake: {fault.detail}")
        return session

    async def play(self, table: Table, seed: int, session: Roster) -> Outcome:
        for seat in range(len(table)):
            said = session.greetings.get(table.entrant(seat))
            words = "nothing" if said is None else repr(said)
            table.note(
                f"handshake: {table.name(seat)} (identifier {table.identifier(seat)}) said {words}"
            )
        out = {
            seat: fault
            for seat in range(len(table))
            if (fault := session.out.get(table.entrant(seat))) is not None
        }

        def retire(seat: int, fault: Fault) -> None:
            detail = f"out of the session since an earlier game ({fault})"
            session.out[table.entrant(seat)] = Fault(fault.kind, detail)

        state = State.new(len(table), random.Random(seed))
        return await Referee(table, state, self.config, out, retire).play()

    async def close_session(self, table: Table, session: Roster) -> None:
        """``done`` -> ``dead`` to every bot still there, once, at the end of the session."""
        ready = [
            seat for seat in range(len(table)) if table.alive(seat) and seat not in session.out
        ]
        replies = await table.ask_many(dict.fromkeys(ready, "done"))
        for seat, reply in replies.items():
            if reply.ok:
                try:
                    wire.read_ok(reply.message, "dead")
                except WireError as error:
                    table.fault(seat, FaultKind.ILLEGAL, str(error))
