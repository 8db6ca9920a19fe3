"""A played run of the kernel's test games for the report's tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena_kernel.model import Event, Fault, FaultKind, GameRecord, Outcome, ScheduledGame
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store

HOSTILE = '</script><script>alert("pwned")</script><img src=x onerror=alert(2)>'
"""What a bot may write to stderr or put in a reply: it must reach the page as text."""


@pytest.fixture
def hostile_text() -> str:
    return HOSTILE


@pytest.fixture
def nim_run(write_match, scripted_bot) -> Path:
    """A played round robin of Nim: a cheat that answers every move with an illegal take
    wrapped in markup and writes markup to its stderr, listed first (so that the match
    file's order is not the standings'), and two built-in bots; Elo ranks."""
    cheat = scripted_bot([{"reply": f"take 9 {HOSTILE}", "stderr": HOSTILE}], only="move")
    path = write_match(
        f"""
        game = "nim"
        seed = 7
        rounds = 1
        scorers = ["wins", "elo"]
        ranking = "elo"
        [game_options]
        pile = 9
        [[bots]]
        name = "cheat"
        cmd = {json.dumps(cheat)}
        [[bots]]
        name = "optimal"
        builtin = "optimal"
        [[bots]]
        name = "random"
        builtin = "random"
        """
    )
    summary = run_match(path)
    assert not summary.errors, summary.errors
    return Path(summary.run.database)


CPU_CLOCK = {"startup": 10, "reply": 1, "grace": 0.1, "game": None, "kill": 0.5}
"""The clocks of the runs of :func:`cpu_run`, but what they measure."""


@pytest.fixture
def cpu_run(tmp_path: Path) -> Path:
    """A database of two runs stored by hand. Run 1 is on a CPU-time clock: in each of its
    two games ``busy`` answers in 0.153 s, 0.150 s of them on the CPU; ``sleepy`` answers
    in 0.2 s using 0.05 s, then in its second game passes the wall-clock cap. Run 2 is
    of an arena before CPU-time clocks: its clock has no mode, its replies no CPU time.
    Their game has no renderer: the pages show its transcript."""
    database = tmp_path / "cpu.sqlite"
    bots = ("busy", "sleepy")
    capped = Fault(FaultKind.WALL_CAP, "no reply within 10 s by the wall clock", seat=1, at=10.5)
    runs = (
        ("cpu", {**CPU_CLOCK, "mode": "cpu", "wall_cap": 10.0}, {0: 0.150, 1: 0.05}),
        ("old", CPU_CLOCK, {}),
    )
    with Store(database) as store:
        for name, clock, cpu in runs:
            spec = {"game": "cpu-bench", "bots": [{"name": b} for b in bots], "clock": clock}
            run = store.open_run(name, name, "cpu-bench", spec, 2)
            for index in range(2):
                events = [
                    Event(0.0, "send", 0, "move"),
                    Event(0.153, "recv", 0, "take 1", elapsed=0.153, cpu=cpu.get(0)),
                    Event(0.153, "send", 1, "move"),
                    Event(0.353, "recv", 1, "take 2", elapsed=0.2, cpu=cpu.get(1)),
                ]
                faults = [capped] if index and cpu else []
                if faults:
                    events += [
                        Event(0.353, "send", 1, "move"),
                        Event(10.5, "fault", 1, str(capped)),
                    ]
                record = GameRecord(
                    ScheduledGame(index, index, bots),
                    Outcome.win(0, 2, "took the last stone"),
                    faults=faults,
                    events=events,
                )
                store.save_game(run.run_id, record)
    return database
