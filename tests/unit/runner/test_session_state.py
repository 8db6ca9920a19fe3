"""The session object: what ``open_session`` returns reaches every ``play`` of that session
and its ``close_session``, and ``table.entrant(seat)`` names the same bot in every game of
the session whatever its seat, so a game keeps per-bot state without touching kernel
objects. Each session has its own object, even when sessions run at once."""

from __future__ import annotations

from dataclasses import dataclass, field

from plugin_modules import games_plugin

from arena_kernel.plugin import Outcome, Table
from arena_kernel.runner.api import run_match
from arena_kernel.testing.rps import Rps


@dataclass
class Ledger:
    """One session: its entrants by name, and what each game saw of them."""

    names: list[str]
    seen: list[list[tuple[int, str, str]]] = field(default_factory=list)
    closed: bool = False


SESSIONS: list[Ledger] = []


class Ledgered(Rps):
    """Rock-paper-scissors that records, per game, each seat's entrant and name."""

    name = "ledgered"

    async def open_session(self, table: Table) -> Ledger:  # type: ignore[override]
        ledger = Ledger([table.name(seat) for seat in range(len(table))])
        SESSIONS.append(ledger)
        return ledger

    async def play(self, table: Table, seed: int, session: Ledger) -> Outcome:  # type: ignore[override]
        session.seen.append(
            [(table.entrant(s), table.name(s), session.names[table.entrant(s)]) for s in (0, 1)]
        )
        return await super().play(table, seed, None)

    async def close_session(self, table: Table, session: Ledger) -> None:  # type: ignore[override]
        session.closed = True
        await super().close_session(table, None)


def test_each_session_hands_its_own_state_to_its_games(write_match) -> None:
    SESSIONS.clear()
    bots = "".join(f'[[bots]]\nname = "{n}"\nbuiltin = "random"\ninproc = true\n' for n in "abcd")
    path = write_match(
        f"""
        game = "ledgered"
        rounds = 2
        concurrency = 2
        [game_options]
        throws = 1
        {bots}
        """
    )
    summary = run_match(path, [games_plugin(Ledgered)])
    assert summary.played == 24 and not summary.errors
    assert SESSIONS and all(ledger.closed for ledger in SESSIONS)
    assert sum(len(ledger.seen) for ledger in SESSIONS) == 24
    for ledger in SESSIONS:
        for game in ledger.seen:
            for entrant, name, recorded in game:
                assert name == recorded, (entrant, name, ledger.names)
            assert len({entrant for entrant, _n, _r in game}) == 2, "two bots, two entrants"
    # Seatings swap seats within a session, so entrant and seat differ in some games.
    assert any([e for e, _n, _r in game] != [0, 1] for ledger in SESSIONS for game in ledger.seen)
