"""A game's event log stored as one compressed document: it comes back exactly as it was
given, any tool can read it, and it takes a fraction of the room of its text."""

from __future__ import annotations

import json
import math
import sqlite3
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena_kernel.codecs import compiled
from arena_kernel.model import Event, GameRecord, Outcome, ScheduledGame
from arena_kernel.store import Store
from arena_kernel.store.logs import (
    COMPRESSION_LEVEL,
    columns,
    pack,
    reply_pairs,
    seat_replies,
    unpack,
    unpack_times,
)

times = st.floats(allow_nan=False, allow_infinity=False)
events = st.builds(
    Event,
    t=times,
    kind=st.sampled_from(["send", "recv", "late", "fault", "note"]),
    seat=st.one_of(st.none(), st.integers(-1, 5)),
    text=st.text(st.characters(exclude_categories=["Cs"])),
    elapsed=st.one_of(st.none(), times),
    cpu=st.one_of(st.none(), times),
)


@settings(max_examples=300, deadline=None)
@given(log=st.lists(events, max_size=40))
def test_a_log_comes_back_bit_for_bit(log: list[Event]) -> None:
    """But for the sign of a zero time, which the REAL columns of old did not keep either."""

    def bits(time: float | None) -> str | None:
        return None if time is None else (time + 0.0).hex()

    assert unpack(pack(log)) == log
    assert [(bits(e.t), bits(e.elapsed), bits(e.cpu)) for e in unpack(pack(log))] == [
        (bits(e.t), bits(e.elapsed), bits(e.cpu)) for e in log
    ]


def test_whole_numbers_come_back_as_the_floats_they_always_were() -> None:
    (event,) = unpack(pack([Event(2, "recv", 0, "x", 1, 1)]))  # type: ignore[arg-type]
    assert (type(event.t), type(event.elapsed), type(event.cpu)) == (float, float, float)


def test_a_log_stored_before_cpu_times_reads_as_never_measured() -> None:
    """What arena stored before schema version 5: no ``cpu`` list, no ``cpu_step``."""
    old = {
        "t": [1, 2],
        "t_step": 2,
        "kind": ["send", "recv"],
        "seat": [0, 0],
        "text": ["pile 3", "take 2"],
        "elapsed": [None, 1],
        "elapsed_step": 1,
    }
    assert unpack(zlib.compress(json.dumps(old).encode())) == [
        Event(0.25, "send", 0, "pile 3"),
        Event(0.75, "recv", 0, "take 2", 0.5, None),
    ]


def test_a_log_on_a_wall_clock_is_stored_as_before_cpu_times() -> None:
    """Nothing to keep of CPU times never measured: a wall clock's log is as it was."""
    log = [Event(0.25, "send", 0, "pile 3"), Event(0.75, "recv", 0, "take 2", 0.5)]
    stored = json.loads(zlib.decompress(pack(log)))
    assert "cpu" not in stored and "cpu_step" not in stored
    assert unpack(pack(log)) == log


def test_any_tool_reads_a_stored_log(tmp_path: Path) -> None:
    """Inflate, parse JSON: times are steps of 2**-t_step seconds since the previous
    event, reply times steps of 2**-elapsed_step, their CPU times of 2**-cpu_step."""
    log = [Event(0.25, "send", 0, "pile 3"), Event(0.75, "recv", 0, "take 2", 0.5, 0.375)]
    with Store(tmp_path / "a.sqlite") as store:
        run = store.open_run("k", "n", "nim", {}, 1)
        record = GameRecord(ScheduledGame(0, 1, ("a", "b")), Outcome.win(0, 2, "r"), events=log)
        store.save_game(run.run_id, record)
    with sqlite3.connect(tmp_path / "a.sqlite") as raw:
        (blob,) = raw.execute("SELECT events FROM event_logs WHERE game_id = 1").fetchone()
    raw.close()
    stored = json.loads(zlib.decompress(blob))
    assert stored == {
        "t": [1, 2],
        "t_step": 2,
        "kind": ["send", "recv"],
        "seat": [0, 0],
        "text": ["pile 3", "take 2"],
        "elapsed": [None, 1],
        "elapsed_step": 1,
        "cpu": [None, 3],
        "cpu_step": 3,
    }


def test_a_log_is_compressed_at_its_level_and_reads_back_at_any_level() -> None:
    """A log compressed at zlib's default level (those in databases already written) or at
    any other reads back the same: the level is the writer's choice alone."""
    log = [Event(0.25 * n, "send" if n % 2 else "recv", n % 2, f"pile {n}") for n in range(20)]
    blob = pack(log)
    text = zlib.decompress(blob)
    assert blob == zlib.compress(text, COMPRESSION_LEVEL)
    for level in (1, 6, 9):
        assert unpack(zlib.compress(text, level)) == log


def test_a_repetitive_log_takes_a_fraction_of_its_text() -> None:
    board = '{"Board":[[5,5,5,5,-5,0,0,0,0],[-5,6,6,6,-6,-5,0,0,0],[-5,-6,7,7,-7,-6,-5,0,0]]}'
    log = [Event(0.001 * n + 0.000123 * (n % 7), "send", n % 2, board) for n in range(200)]
    assert len(pack(log)) * 10 < sum(len(e.text) for e in log)


def test_each_seat_keeps_its_reply_times_and_late_replies() -> None:
    log = [
        Event(0.1, "recv", 0, "a", 0.05),
        Event(0.2, "recv", 1, "b", 0.07),
        Event(0.3, "recv", 1, "unasked"),
        Event(0.4, "late", 1, "too late"),
        Event(0.5, "recv", 2, "no such seat", 0.01),
        Event(0.6, "note", None, "the referee", 0.02),
        Event(0.7, "recv", 0, "c", 0.03),
    ]
    first, second = seat_replies(log, seats=2)
    assert (unpack_times(first.times), first.late) == ((0.05, 0.03), 0)
    assert (unpack_times(second.times), second.late) == ((0.07,), 1)
    assert first.cpu == second.cpu == b"", "a wall-time clock measures no CPU time"


def test_each_reply_keeps_its_cpu_time_beside_its_wall_time() -> None:
    log = [
        Event(0.1, "recv", 0, "a", 0.05, 0.04),
        Event(0.2, "recv", 1, "b", 0.07),
        Event(0.3, "recv", 0, "unmeasured", 0.02),
        Event(0.4, "late", 0, "too late", 2.0, 1.5),
        Event(0.5, "recv", 0, "c", 0.03, 0.01),
    ]
    first, second = seat_replies(log, seats=2)
    assert unpack_times(first.times) == (0.05, 0.02, 0.03)
    cpu = unpack_times(first.cpu)
    assert (cpu[0], math.isnan(cpu[1]), cpu[2]) == (0.04, True, 0.01), "NaN: not measured"
    assert reply_pairs(first.times, first.cpu) == [(0.05, 0.04), (0.03, 0.01)]
    assert second.cpu == b"" and reply_pairs(second.times, second.cpu) == []


needs_extension = pytest.mark.skipif(
    compiled.COMPILED is None, reason="the kernel's extension is not built here"
)


@needs_extension
@settings(max_examples=300, deadline=None)
@given(log=st.lists(events, max_size=40))
def test_the_compiled_columns_are_the_pythons_or_left_to_it(log: list[Event]) -> None:
    assert compiled.COMPILED is not None
    made = compiled.COMPILED.log_columns(log)
    if made is not None:
        expected = columns(log)
        assert made == expected
        assert list(made) == list(expected), "the keys in the same order: the JSON is the same"


game_times = st.one_of(st.just(0.0), st.floats(1e-9, 1e5))
"""Seconds since a game's start, and durations: a clock's readings, never subnormal."""
game_events = st.builds(
    Event,
    t=game_times,
    kind=st.sampled_from(["send", "recv", "late", "fault", "note"]),
    seat=st.one_of(st.none(), st.integers(0, 5)),
    text=st.text(max_size=20),
    elapsed=st.one_of(st.none(), game_times),
    cpu=st.one_of(st.none(), game_times),
)


@needs_extension
@settings(max_examples=300, deadline=None)
@given(log=st.lists(game_events, max_size=40))
def test_the_compiled_columns_make_every_log_of_a_game(log: list[Event]) -> None:
    """Times a game records (seconds since its start, durations) are always its to make."""
    assert compiled.COMPILED is not None
    made = compiled.COMPILED.log_columns(log)
    assert made is not None
    assert (made, list(made)) == (columns(log), list(columns(log)))


@needs_extension
def test_the_compiled_columns_count_steps_beyond_62_bits() -> None:
    assert compiled.COMPILED is not None
    log = [Event(0.0001, "recv", 0, "a", 0.0001, 0.0001), Event(3600.5, "recv", 0, "b", 2.5, 1e-7)]
    made = compiled.COMPILED.log_columns(log)
    assert made == columns(log)
    assert max(abs(step) for step in made["t"]) > 2**62


@needs_extension
@pytest.mark.parametrize(
    "odd",
    [
        Event(1e300, "note", None, "steps beyond a double's range, at 0.1's step"),
        Event(0.5, "recv", 0, "a subnormal duration", 5e-324),
        Event(2, "recv", 0, "whole seconds as an int", 1),  # type: ignore[arg-type]
        Event(0.5, "recv", 0, "an infinite duration", math.inf),
    ],
)
def test_what_the_compiled_columns_leave_to_the_python(odd: Event) -> None:
    assert compiled.COMPILED is not None
    log = [Event(0.1, "send", 0, "usual"), odd]
    assert compiled.COMPILED.log_columns(log) is None
    assert compiled.COMPILED.log_columns([*log[:1], ("not", "an", "event")]) is None


def test_a_log_packs_the_same_with_or_without_the_extension(monkeypatch) -> None:
    log = [
        Event(0.000126, "send", 0, '{"Color":1}'),
        Event(0.0004, "recv", 0, '{"Type":1}', 0.00021, 0.0002),
        Event(0.0009, "send", 1, "é", None, None),
    ]
    packed = pack(log)
    monkeypatch.setattr(compiled, "COMPILED", None)
    assert pack(log) == packed
    assert unpack(packed) == log
