"""Which games wait on a bot that has not come up yet, which are stored, and when a bot
that fails to come up stops the run."""

from __future__ import annotations

import pytest

from arena_kernel.errors import SetupError
from arena_kernel.games.base import Outcome
from arena_kernel.model import Event, Fault, FaultKind, GameRecord, ScheduledGame
from arena_kernel.referee.startup import FIRST_GAMES
from arena_kernel.runner.first_starts import FirstStarts


def game(index: int, seating: tuple[str, ...], up: set[int], failed: set[int]) -> GameRecord:
    """A finished game whose seats ``up`` answered and whose seats ``failed`` exited
    before answering anything."""
    events = [Event(0.1, "recv", seat, "take 1", elapsed=0.05) for seat in sorted(up)]
    faults = [Fault(FaultKind.EXIT, f"exited with status {index}", seat) for seat in failed]
    return GameRecord(
        game=ScheduledGame(index=index, seed=index, seating=seating),
        outcome=Outcome.draw(len(seating), "no game"),
        faults=faults,
        events=events,
    )


def test_a_game_waits_on_its_failed_bot_and_is_stored_once_that_bot_comes_up() -> None:
    starts = FirstStarts("m.toml")
    first = game(0, ("a", "b"), up={0}, failed={1})
    assert starts.admit(first) == []
    plain = game(1, ("a", "c"), up={0, 1}, failed=set())
    assert starts.admit(plain) == [plain], "a game of bots that came up is stored at once"
    second = game(2, ("b", "a"), up={0, 1}, failed=set())
    assert starts.admit(second) == [first, second], "in the order they ended"
    later = game(3, ("b", "a"), up={1}, failed={0})
    assert starts.admit(later) == [later], "b came up once: its faults are its own"
    starts.settle()


def test_a_bot_that_fails_in_its_first_games_stops_the_run_quoting_its_first_fault() -> None:
    starts = FirstStarts("m.toml")
    for index in range(FIRST_GAMES - 1):
        assert starts.admit(game(index, ("a", "b"), up={0}, failed={1})) == []
    with pytest.raises(SetupError) as stop:
        starts.admit(game(FIRST_GAMES, ("b", "a"), up={1}, failed={0}))
    assert str(stop.value) == (
        f'm.toml: bot "b" could not start in each of its first {FIRST_GAMES} games: exit: '
        'exited with status 0; startup_failures = "forfeit" would play on, its games lost'
    )


def test_a_game_two_bots_failed_in_waits_for_both() -> None:
    starts = FirstStarts("m.toml")
    both = game(0, ("a", "b", "c"), up={0}, failed={1, 2})
    assert starts.admit(both) == []
    b_up = game(1, ("b", "a"), up={0, 1}, failed=set())
    assert starts.admit(b_up) == [b_up]
    c_up = game(2, ("c", "a"), up={0, 1}, failed=set())
    assert starts.admit(c_up) == [both, c_up]


def test_a_bot_whose_only_game_failed_stops_the_run_when_the_executor_is_done() -> None:
    starts = FirstStarts("m.toml")
    assert starts.admit(game(0, ("a", "b"), up={0}, failed={1})) == []
    with pytest.raises(SetupError, match='bot "b" could not start in its first game: exit'):
        starts.settle()


def test_a_seat_never_asked_is_neither_up_nor_failed() -> None:
    """The game ended before the bot was asked anything: nothing to hold it to."""
    starts = FirstStarts("m.toml")
    quiet = game(0, ("a", "b"), up={0}, failed=set())
    assert starts.admit(quiet) == [quiet]
    starts.settle()


def test_a_seat_that_answered_only_at_the_end_of_a_long_log_came_up() -> None:
    """Every answer counts, the last event's too, whatever came before it (unasked
    messages, notes, many answers of the other seat)."""
    starts = FirstStarts("m.toml")
    failed = game(0, ("a", "b"), up={0}, failed={1})
    assert starts.admit(failed) == []
    late = game(1, ("a", "b"), up=set(), failed=set())
    late.events = [
        *(Event(0.1 * n, "recv", 0, "take 1", elapsed=0.01) for n in range(50)),
        Event(5.0, "recv", 1, "unasked"),
        Event(5.1, "note", None, "the referee", 0.02),
        Event(5.2, "recv", 1, "take 2", elapsed=0.03),
    ]
    assert starts.admit(late) == [failed, late], "b came up in its last event"
