"""``arena check-bot``: a bot plays a short match against a game's built-in bots, and the
report names what it got wrong; the report itself, from stored games made by hand."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from arena_cli import arena, one_error_line

from arena_kernel.cli.check_report import CheckedGame, ClockLimits, check_report
from arena_kernel.model import Event, Fault, FaultKind
from arena_kernel.store.sqlite import GameDetail

NIM = ("-p", "arena_kernel.testing.games")
GOOD = (sys.executable, "-m", "arena_kernel.testing.nim_bot", "optimal")


def scripted(steps: list[dict[str, object]]) -> tuple[str, ...]:
    """A nim bot that answers the ``move`` requests by ``steps`` (the last one repeats)."""
    return (
        sys.executable,
        "-m",
        "arena_kernel.testing.scripted",
        json.dumps(steps),
        "--only",
        "move",
    )


def check(*args: str) -> subprocess.CompletedProcess[str]:
    return arena("check-bot", *NIM, "-q", "nim", *args)


def verdict(stdout: str) -> list[str]:
    """The lines from PASS or FAIL on."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("PASS", "FAIL")))
    return lines[start:]


def test_the_built_in_nim_bot_passes_in_every_seat(tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    result = check("--keep", str(kept), "--", *GOOD)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "game 1 of 2: seat 0 of 2 against optimal" in out
    assert "game 2 of 2: seat 1 of 2 against optimal" in out
    assert verdict(out)[0] == "PASS: no fault in 2 games"
    assert "<< take " in out and "(request 1)" in out and "start-up clock" in out
    assert "faults of the bot: none" in out
    assert (kept / "check-bot.sqlite").is_file(), "--keep keeps the database"
    replay = arena("replay", str(kept / "check-bot.sqlite"), "1")
    assert replay.returncode == 0 and "candidate" in replay.stdout


BROKEN = {
    # name: (the bot's answers to "move" requests, extra options, the first problem's line,
    # what the report says it answered)
    "not a number": (
        [{"reply": "take 1"}, {"reply": "take lots"}],
        (),
        "request 2: illegal: expected take <1-3>, got 'take lots'",
        "it answered:  take lots",
    ),
    "illegal take": (
        [{"reply": "take 1"}, {"reply": "take 9"}],
        (),
        "request 2: illegal: cannot take 9 from a pile of",
        "it answered:  take 9",
    ),
    "late": (
        [{"reply": "take 1"}, {"sleep": 60, "reply": "take 1"}],
        ("--reply", "1"),
        "request 2: timeout: no reply within 1 s",
        "it answered:  nothing in time",
    ),
    "exits mid-game": (
        [{"reply": "take 1"}, {"exit": 3, "stderr": "the bot gave up\n"}],
        (),
        "request 2: exit: exited with status 3",
        "it answered:  nothing: its process ended",
    ),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_broken_bot_fails_and_its_first_violation_is_named(name: str) -> None:
    steps, options, problem, answered = BROKEN[name]
    result = check(*options, "--", *scripted(steps))
    assert result.returncode == 1, result.stdout + result.stderr
    lines = verdict(result.stdout)
    kind = problem.split(": ")[1]
    assert lines[0] == f"FAIL: 2 faults in 2 games: {kind} 2", lines
    assert lines[1].startswith("first problem: game 1 (seat 0), ")
    assert problem in lines[1], lines[1]
    if kind == "exit":  # it may have ended on any message since its last reply
        assert lines[2].startswith("  it was sent, after its last reply ("), lines[2]
        sent = lines[3 : lines.index(next(line for line in lines if "it answered" in line))]
        assert sent[-1].startswith("    move "), sent
    else:
        assert lines[2].startswith("  it was sent:  move "), lines[2]
    assert any(line.startswith(f"  {answered}") for line in lines[3:]), lines
    assert "<== first problem" in result.stdout


def test_a_crash_shows_the_end_of_the_bots_stderr() -> None:
    steps = [{"reply": "take 1"}, {"exit": 3, "stderr": "Traceback: the bot gave up\n"}]
    result = check("--games", "1", "--", *scripted(steps))
    assert result.returncode == 1
    assert "the end of its stderr in this game (1 line):" in result.stdout
    assert "    Traceback: the bot gave up" in result.stdout


def test_unknown_game_is_one_line_and_status_2() -> None:
    one_error_line(arena("check-bot", "nimm", "--", *GOOD), 'unknown game "nimm"', "nim")


def test_no_command_is_one_line_and_status_2() -> None:
    one_error_line(arena("check-bot", *NIM, "nim"), "no bot command")
    one_error_line(arena("check-bot", *NIM, "nim", "--"), "no bot command")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--seats", "7"), ("2, 3, 4 players, not 7",)),
        (("--opponent", "optimall"), ('no built-in bot "optimall"', 'did you mean "optimal"')),
        (("-o", "heap=3"), ('has no option "heap"',)),
        (("--games", "1"), ('no command "no-such-bot" on the PATH',)),
    ],
)
def test_set_up_errors_name_the_problem_not_a_temporary_file(
    args: tuple[str, ...], words: tuple[str, ...]
) -> None:
    line = one_error_line(arena("check-bot", *NIM, "nim", *args, "--", "no-such-bot"), *words)
    assert "check-bot.toml" not in line and "/tmp" not in line


def test_check_bot_help_imports_no_runner_and_no_game(tmp_path: Path) -> None:
    code = (
        "import sys\nfrom arena_kernel.cli.main import main\n"
        "sys.argv = ['arena', 'check-bot', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print([m for m in sys.modules if m.startswith(('arena_kernel.runner', "
        "'arena_kernel.games', 'arena_kernel.testing', 'arena_kernel.store', 'pluggy'))])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "-- CMD..." in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


# The report, from games made by hand -----------------------------------------------------


def game(
    events: list[Event], faults: list[Fault], *, seating=("candidate", "rival"), void=False
) -> CheckedGame:
    detail = GameDetail(
        game_id=1,
        index=0,
        seating=seating,
        ranks=(2, 1),
        scores=None,
        void=void,
        disqualified=frozenset(),
        reason="rival won",
        run_id=1,
        seed=0,
        session=0,
        started_at=0.0,
        duration=1.0,
        details={},
        extra={},
        faults=tuple(faults),
        stderr_logs={},
    )
    return CheckedGame(detail, events)


LIMITS = ClockLimits(startup=10, reply=2)


def test_the_report_shows_requests_replies_and_times_and_hides_notices() -> None:
    events = [
        Event(0.0, "send", 0, "start 0 2 21"),
        Event(0.0, "send", 1, "start 1 2 21"),
        Event(0.1, "send", 0, "move 21"),
        Event(0.5, "recv", 0, "take 1", 0.4),
        Event(0.6, "send", 0, "took 0 1 20"),
        Event(0.6, "note", None, "rival thinks hard"),
        Event(0.7, "send", 0, "move 19"),
        Event(1.9, "recv", 0, "take 3", 1.2),
    ]
    report = check_report([game(events, [])], "candidate", LIMITS)
    text = "\n".join(report.lines)
    assert report.passed and not report.first
    assert "move 21  (request 1)" in text
    assert "<< take 1  (400.0 ms of 10 s, start-up clock)" in text
    assert "<< take 3  (1.20 s of 2 s: SLOW)" in text, "more than half its limit"
    assert "start 0 2 21" not in text and "start 1 2 21" not in text
    assert "rival thinks hard" not in text, "a note about another bot only"
    assert "(2 messages that need no reply not shown" in text
    assert report.lines[-3:] == [
        "PASS: no fault in 1 game",
        "closest to its limit: a reply in 1.20 s of 2 s",
        "warning: 1 reply took more than 50% of the time limit (marked SLOW): on a busy "
        "tournament machine it may time out",
    ]
    verbose = "\n".join(check_report([game(events, [])], "candidate", LIMITS, verbose=True).lines)
    assert "start 0 2 21" in verbose and "took 0 1 20" in verbose
    assert "start 1 2 21" not in verbose, "another seat's messages are never shown"


def test_the_first_fault_of_the_bot_fails_the_check_and_is_named() -> None:
    illegal = Fault(FaultKind.ILLEGAL, "cannot take 9 from a pile of 19", seat=1, at=0.3)
    events = [
        Event(0.1, "send", 1, "move 19"),
        Event(0.3, "recv", 1, "take 9", 0.2),
        Event(0.3, "fault", 1, str(illegal)),
    ]
    first = game([], [], seating=("rival", "candidate"))
    second = game(events, [illegal], seating=("rival", "candidate"))
    report = check_report([first, second], "candidate", LIMITS)
    assert not report.passed and report.faults == {"illegal": 1}
    assert report.first == [
        "first problem: game 2 (seat 1), request 1: illegal: cannot take 9 from a pile of 19",
        "  it was sent:  move 19",
        "  it answered:  take 9",
    ]
    assert verdict("\n".join(report.lines))[:4] == [
        "FAIL: 1 fault in 2 games: illegal 1",
        *report.first,
    ]
    assert any(line.endswith("<== first problem") for line in report.lines)


def test_faults_of_the_opponents_do_not_fail_the_check() -> None:
    theirs = Fault(FaultKind.TIMEOUT, "no reply within 2 s", seat=1, at=2.1)
    events = [Event(2.1, "fault", 1, str(theirs))]
    report = check_report([game(events, [theirs])], "candidate", LIMITS)
    assert report.passed
    assert "  faults of the opponents (not counted): rival: timeout: no reply within 2 s" in (
        report.lines
    )


def test_a_fault_logged_twice_is_shown_once_and_never_cut() -> None:
    detail = "invalid JSON: Expecting value at column 1: '" + "x" * 200 + "'"
    malformed = Fault(FaultKind.MALFORMED, detail, seat=0, at=0.2)
    events = [
        Event(0.1, "send", 0, "move 21"),
        Event(0.2, "fault", 0, f"{malformed}: {'x' * 200}"),
        Event(0.2, "fault", 0, str(malformed)),
    ]
    report = check_report([game(events, [malformed])], "candidate", LIMITS)
    shown = [line for line in report.lines if " !! " in line]
    assert len(shown) == 1 and detail in shown[0]
    assert report.first[0] == f"first problem: game 1 (seat 0), request 1: {malformed}"
    assert len(report.first) == 2, "what came is in the fault; no 'it answered' line"


def test_games_not_played_fail_the_check() -> None:
    skipped = game([], [], void=True)
    report = check_report([skipped], "candidate", LIMITS, planned=2)
    assert not report.passed and report.missing == 2
    assert report.lines[-1] == "FAIL: no fault, but 2 of the games could not be played"


def test_late_replies_are_shown_as_late() -> None:
    events = [
        Event(0.1, "send", 0, "move 21"),
        Event(2.2, "fault", 0, "timeout: no reply within 2 s"),
        Event(3.0, "late", 0, "take 1", 2.9),
    ]
    timeout = Fault(FaultKind.TIMEOUT, "no reply within 2 s", seat=0, at=2.2)
    report = check_report([game(events, [timeout])], "candidate", LIMITS)
    assert any("<~ take 1  (late: 2.90 s after its request)" in line for line in report.lines)
    assert report.first[-1] == "  it answered:  nothing in time"


def test_a_reply_past_the_wall_clock_cap_is_no_reply() -> None:
    capped = Fault(FaultKind.WALL_CAP, "no reply within 20 s by the wall clock", seat=0, at=20.1)
    events = [Event(0.1, "send", 0, "move 21"), Event(20.1, "fault", 0, str(capped))]
    report = check_report([game(events, [capped])], "candidate", LIMITS)
    assert report.faults == {"wall-cap": 1} and not report.passed
    assert "  it answered:  nothing within the wall-clock cap" in report.first


def test_on_a_cpu_clock_a_reply_is_judged_by_its_cpu_time_and_shows_both() -> None:
    events = [
        Event(0.0, "send", 0, "move 21"),
        Event(0.5, "recv", 0, "take 1", 0.5, 0.3),
        Event(0.6, "send", 0, "move 19"),
        Event(3.6, "recv", 0, "take 3", 3.0, 0.15),
    ]
    report = check_report([game(events, [])], "candidate", LIMITS)
    text = "\n".join(report.lines)
    assert "<< take 1  (300.0 ms CPU (500.0 ms wall) of 10 s, start-up clock)" in text
    assert "<< take 3  (150.0 ms CPU (3.00 s wall) of 2 s)" in text, "not SLOW: 7.5 % of it"
    assert report.slow == 0


def test_check_bot_on_a_cpu_clock_charges_the_bots_cpu_time() -> None:
    steps = [{"burn": 0.05, "reply": "take 1"}]
    result = check("--games", "1", "--clock", "cpu", "--reply", "1", "--", *scripted(steps))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "s of CPU time (wall cap 10 times)" in result.stdout
    assert re.search(r"<< take 1  \(\d+\.\d ms CPU \([\d.]+ m?s wall\) of 1 s\)", result.stdout)


# Hints for the mistakes most bots make once ------------------------------------------------


def first_problem(events: list[Event], fault: Fault, stderr: str = "", **options) -> list[str]:
    checked = game(events, [fault])
    checked = CheckedGame(checked.detail, checked.events, stderr)
    return check_report([checked], "candidate", LIMITS, **options).first


def test_a_bot_that_sends_nothing_is_told_to_flush() -> None:
    timeout = Fault(FaultKind.TIMEOUT, "no reply within 10 s of its start", seat=0, at=10.0)
    events = [Event(0.0, "send", 0, "move 21"), Event(10.0, "fault", 0, str(timeout))]
    assert any(
        "flush its output after every message" in line for line in first_problem(events, timeout)
    )
    late = [*events, Event(10.5, "late", 0, "take 1", 10.5)]
    assert not any("flush" in line for line in first_problem(late, timeout)), "it sent, late"


def test_a_key_in_another_case_is_named() -> None:
    illegal = Fault(FaultKind.ILLEGAL, "Type is missing", seat=0, at=0.2)
    events = [
        Event(0.0, "send", 0, '{"Board": {"state": [1]}, "AllowedMoves": [1]}'),
        Event(0.2, "recv", 0, '{"type": 1, "From": {"X": 0}}', 0.2),
        Event(0.2, "fault", 0, str(illegal)),
    ]
    assert first_problem(events, illegal)[-1] == (
        'hint: keys are case-sensitive: it wrote "type" where the protocol writes "Type"'
    )


def test_a_refused_connection_suggests_the_port() -> None:
    connect = Fault(FaultKind.CONNECT, 'bot "candidate" exited with status 1', seat=0, at=0.3)
    events = [Event(0.0, "send", 0, "move 21"), Event(0.3, "fault", 0, str(connect))]
    stderr = "Error: connect ECONNREFUSED 127.0.0.1:5533\n"
    (hint,) = [line for line in first_problem(events, connect, stderr) if "hint" in line]
    assert "connection was refused" in hint and "needs --port 5533 here" in hint
    python = "ConnectionRefusedError: [Errno 111] Connection refused\n"
    (unknown,) = [line for line in first_problem(events, connect, python) if "hint" in line]
    assert "needs --port PORT here" in unknown
    (given,) = [
        line for line in first_problem(events, connect, stderr, port_given=True) if "hint" in line
    ]
    assert "--port" not in given
    assert not [line for line in first_problem(events, connect, "") if "hint" in line]


def test_a_bot_that_ended_is_shown_every_message_since_its_last_reply() -> None:
    """It crashed on the notice before the request the exit was found at."""
    ended = Fault(FaultKind.EXIT, "exited with status 1", seat=0, at=0.4)
    events = [
        Event(0.0, "send", 0, "move 21"),
        Event(0.1, "recv", 0, "take 1", 0.1),
        Event(0.2, "send", 0, "took 1 3 17"),
        Event(0.3, "send", 0, "move 17"),
        Event(0.4, "fault", 0, str(ended)),
    ]
    assert first_problem(events, ended) == [
        "first problem: game 1 (seat 0), request 2: exit: exited with status 1",
        "  it was sent, after its last reply (2 messages; it ended on one):",
        "    took 1 3 17",
        "    move 17",
        "  it answered:  nothing: its process ended or its connection closed",
    ]


NO_FLUSH_BOT = """
import sys
for line in sys.stdin:
    if line.startswith("move"):
        print("take 1")
"""


def test_a_bot_that_never_flushes_fails_whatever_the_organisers_environment() -> None:
    """A PYTHONUNBUFFERED=1 in the organiser's shell does not reach the bot."""
    check = ["check-bot", "nim", "-q", "-p", "arena_kernel.testing.games", "--games", "1"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena_kernel.cli.main",
            *check,
            "--startup",
            "2",
            "--",
            sys.executable,
            "-c",
            NO_FLUSH_BOT,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "flush its output after every message" in done.stdout
