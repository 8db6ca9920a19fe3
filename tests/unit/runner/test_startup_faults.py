"""A bot that failed to come up: its fault's reason ends with the end of its stderr, a few
lines on one line, bounded, whatever the bot wrote."""

from __future__ import annotations

from pathlib import Path

from arena_kernel.games.base import Outcome
from arena_kernel.model import Event, Fault, FaultKind, GameRecord, ScheduledGame
from arena_kernel.referee.startup import with_stderr_tails
from arena_kernel.transports.stderr_log import TAIL_CHARS, TAIL_LINES, stderr_tail


def test_the_tail_is_the_last_lines_that_are_not_blank_on_one_line(tmp_path: Path) -> None:
    log = tmp_path / "bot.stderr"
    log.write_text("".join(f"line {n}\n\n" for n in range(20)))
    expected = [f"line {n}" for n in range(20 - TAIL_LINES, 20)]
    assert stderr_tail(log) == " | ".join(expected)


def test_the_tail_is_bounded_and_printable_whatever_the_bot_wrote(tmp_path: Path) -> None:
    log = tmp_path / "bot.stderr"
    log.write_bytes(b"x" * 100_000 + b"\n" + b"y" * 5000)
    tail = stderr_tail(log)
    assert tail == "..." + "y" * (TAIL_CHARS - 3)
    log.write_bytes(b"\x1b[31mred\xff\ttab\r\n")
    assert stderr_tail(log) == "\\x1b[31mred\ufffd\\ttab"
    assert stderr_tail(tmp_path / "missing.stderr") == ""
    log.write_text("\n  \n")
    assert stderr_tail(log) == ""


def test_only_the_first_start_up_fault_of_a_seat_that_answered_nothing_quotes_it(
    tmp_path: Path,
) -> None:
    """Seat 0 answered, then crashed: not a start-up failure. Seat 1 never answered: its
    timeout is, and its exit after it says nothing more."""
    logs = {}
    for seat in (0, 1):
        logs[seat] = str(tmp_path / f"{seat}.stderr")
        Path(logs[seat]).write_text(f"Traceback of seat {seat}\nImportError: no bot {seat}\n")
    faults = [
        Fault(FaultKind.TIMEOUT, "no reply within 10 s of its start", 1, 10.0),
        Fault(FaultKind.EXIT, "exited with status 1", 0, 10.5),
        Fault(FaultKind.EXIT, "exited with status 1", 1, 11.0),
    ]
    record = GameRecord(
        game=ScheduledGame(index=0, seed=1, seating=("a", "b")),
        outcome=Outcome.draw(2, "no game"),
        faults=faults,
        events=[Event(0.2, "recv", 0, "take 1", elapsed=0.1)],
        stderr_logs=logs,
    )
    amended = with_stderr_tails(record)
    tail = "the end of its stderr: Traceback of seat 1 | ImportError: no bot 1"
    assert [fault.detail for fault in amended.faults] == [
        f"no reply within 10 s of its start; {tail}",
        "exited with status 1",
        "exited with status 1",
    ]
    assert record.faults == faults, "the record given is left as it was"
    assert with_stderr_tails(GameRecord(record.game, record.outcome, faults)) == GameRecord(
        record.game, record.outcome, faults
    ), "no stderr log: nothing to quote"
