"""A game plugin that breaks costs its game, never the run, and the game is retried later."""

from __future__ import annotations

from plugin_modules import games_plugin

from arena_kernel.model import Outcome
from arena_kernel.runner.api import run_match
from arena_kernel.testing.nim import Nim
from arena_kernel.testing.rps import Rps


class Flaky(Nim):
    """Raises on odd seeds, returns a wrong-sized outcome on seeds divisible by 4."""

    name = "flaky"
    broken = True

    async def play(self, table, seed, session):
        if self.broken and seed % 2:
            raise RuntimeError("rules engine bug")
        if self.broken and seed % 4 == 0:
            return Outcome([1], "one rank for two seats")
        return await super().play(table, seed, session)


class BadSession(Rps):
    name = "badsession"

    async def open_session(self, table):
        raise ValueError("handshake bug")


BOTS = """
[[bots]]
name = "a"
builtin = "optimal"
inproc = true
[[bots]]
name = "b"
builtin = "random"
inproc = true
"""


def test_a_raising_game_costs_only_its_games_and_they_are_retried(write_match) -> None:
    path = write_match('game = "flaky"\nrounds = 6\n' + BOTS)
    first = run_match(path, [games_plugin(Flaky)])
    assert first.errors, "some seeds must have hit the bug"
    assert first.played + len(first.errors) == 12
    assert any("RuntimeError: rules engine bug" in e for e in first.errors)
    assert any("do not fit 2 seats" in e for e in first.errors)
    error_files = list((path.parent / "logs").rglob("*.error"))
    assert len(error_files) == len(first.errors)
    assert "Traceback" in error_files[0].read_text()

    Flaky.broken = False
    try:
        second = run_match(path, [games_plugin(Flaky)])
    finally:
        Flaky.broken = True
    assert second.errors == []
    assert second.skipped == first.played and second.played == len(first.errors)


def test_a_failing_session_opening_loses_that_session_only(write_match) -> None:
    path = write_match('game = "badsession"\nrounds = 2\n' + BOTS.replace("optimal", "rock"))
    summary = run_match(path, [games_plugin(BadSession)])
    assert summary.played == 0
    assert summary.errors and all("handshake bug" in e for e in summary.errors)


class NoSuchSeat(Nim):
    """Disqualifies a seat the game does not have."""

    name = "nosuchseat"

    async def play(self, table, seed, session):
        return Outcome.win(0, 2, "seat 5 cheated", disqualified=frozenset({5}))


def test_an_outcome_disqualifying_a_missing_seat_costs_its_game(write_match) -> None:
    summary = run_match(write_match('game = "nosuchseat"\n' + BOTS), [games_plugin(NoSuchSeat)])
    assert summary.played == 0 and len(summary.errors) == 2
    assert all("disqualifies {5}, not seats of 2" in e for e in summary.errors)
