"""The event log records bytes and stamps as messages pass, and makes the events (as the
store keeps them) when they are read."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena_kernel.codecs import compiled
from arena_kernel.codecs.line import LineCodec
from arena_kernel.model import Event, make_event
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import MAX_LOGGED_TEXT, Entry, EventLog, wire_text
from arena_kernel.referee.table import Table
from arena_kernel.transports.base import Connection, OnClosed, OnData


class Echo(Connection):
    """A bot that answers every line with the same line, inside the write."""

    def start(self, on_data: OnData, on_closed: OnClosed) -> None:
        self.feed = on_data

    def write(self, data: bytes) -> None:
        self.feed(data)

    async def close(self) -> None:
        pass


def test_events_are_made_from_what_was_recorded() -> None:
    log = EventLog()
    log.record((log.t0 + 0.25, "send", 0, b"move e2e4\n", None, None))
    log.record((log.t0 + 0.75, "recv", 0, "bad \xff".encode("latin-1") + b"\r\n", 0.5, 0.125))
    log.note("over")
    events = log.events
    assert [(e.kind, e.seat, e.text, e.elapsed, e.cpu) for e in events] == [
        ("send", 0, "move e2e4", None, None),
        ("recv", 0, "bad \ufffd\r", 0.5, 0.125),
        ("note", None, "over", None, None),
    ]
    assert [e.t for e in events[:2]] == pytest.approx([0.25, 0.75])
    assert 0 <= events[2].t < 5


def test_reading_the_events_again_gives_them_again_with_what_came_since() -> None:
    log = EventLog()
    log.add("note", None, "one")
    first = log.events
    log.add("note", None, "two")
    assert [e.text for e in log.events] == ["one", "two"]
    assert log.events[0] is first[0], "each event is made once"
    first.clear()
    assert len(log.events) == 2, "the list handed out is the reader's own"


def test_a_long_message_is_cut_as_it_is_recorded() -> None:
    """The log never holds more of a big message than its event will show."""

    async def scenario() -> EventLog:
        table = Table([Channel("echo", "echo", Echo(), LineCodec())], Clocks(), EventLog())
        assert (await table.ask(0, "x" * (10 * MAX_LOGGED_TEXT))).ok
        return table.log

    log = asyncio.run(scenario())
    kept = [entry[3] for entry in log._entries]
    assert all(isinstance(text, str) and len(text) < MAX_LOGGED_TEXT + 50 for text in kept)
    expected = wire_text(b"x" * (10 * MAX_LOGGED_TEXT) + b"\n")
    assert [(e.kind, e.text) for e in log.events] == [("send", expected), ("recv", expected)]


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_a_message_about_the_longest_kept_whole_reads_as_wire_text_says(extra: int) -> None:
    """Up to MAX_LOGGED_TEXT bytes the log keeps a message's bytes and reads them whole;
    one byte more and it keeps the cut text: either way its event is wire_text's."""

    async def scenario() -> EventLog:
        table = Table([Channel("echo", "echo", Echo(), LineCodec())], Clocks(), EventLog())
        line = "\u00e9" * ((MAX_LOGGED_TEXT + extra - 1) // 2) + "x" * (
            (MAX_LOGGED_TEXT + extra - 1) % 2
        )
        assert (await table.ask(0, line)).ok
        return table.log

    log = asyncio.run(scenario())
    raw = log._entries[0][3]
    assert isinstance(raw, bytes) == (extra <= 0)
    wire = ("\u00e9" * ((MAX_LOGGED_TEXT + extra - 1) // 2)).encode()
    wire += b"x" * ((MAX_LOGGED_TEXT + extra - 1) % 2) + b"\n"
    assert len(wire) == MAX_LOGGED_TEXT + extra
    assert [e.text for e in log.events] == [wire_text(wire)] * 2


def test_a_replys_time_is_the_time_between_its_requests_event_and_its_own() -> None:
    """Events carry the stamps the clocks use: a request's at its write, its reply's at
    its read."""

    async def scenario() -> tuple[list[Event], float]:
        table = Table([Channel("echo", "echo", Echo(), LineCodec())], Clocks(), EventLog())
        reply = await table.ask(0, "ping")
        return table.log.events, reply.elapsed

    (sent, received), elapsed = asyncio.run(scenario())
    assert (sent.kind, received.kind) == ("send", "recv")
    assert received.elapsed == elapsed
    assert received.t - sent.t == pytest.approx(elapsed, abs=1e-9)


@pytest.mark.parametrize(
    "values",
    [(0.5, "send", 0, "move 3"), (1.25, "recv", 1, "ok", 0.01, 0.002), (2.0, "note", None, "x")],
)
def test_an_event_made_for_less_is_the_event_its_init_makes(values: tuple) -> None:
    made, init = make_event(*values), Event(*values)
    assert made == init and hash(made) == hash(init) and repr(made) == repr(init)
    assert [getattr(made, f.name) for f in dataclasses.fields(Event)] == [
        getattr(init, f.name) for f in dataclasses.fields(Event)
    ], "a field added to Event is set there too"
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.text = "changed"  # type: ignore[misc]


texts = st.one_of(
    st.binary(max_size=60).map(lambda raw: raw + b"\n" * (len(raw) % 3)),
    st.sampled_from([b"", b"\n", b"\n\n", b"\r\n", b"\xe2\x82\n", b"a\xff\n\n", b"\xf0\x9f"]),
    st.text(max_size=20),
)
entries = st.tuples(
    st.floats(-1e6, 1e6),
    st.sampled_from(["send", "recv", "late", "fault", "note"]),
    st.one_of(st.none(), st.integers(0, 3)),
    texts,
    st.one_of(st.none(), st.floats(0, 10)),
    st.one_of(st.none(), st.floats(0, 10)),
)


@pytest.mark.skipif(compiled.COMPILED is None, reason="the extension is not built here")
@settings(max_examples=300, deadline=None)
@given(recorded=st.lists(entries, max_size=12))
def test_the_compiled_events_are_the_pythons(recorded: list[Entry]) -> None:
    """Field for field, type for type: stamps, kinds, seats, texts (bad UTF-8, trailing
    newlines), durations."""
    log = EventLog()
    for entry in recorded:
        log.record(entry)
    reference = log._made()
    made = compiled.COMPILED.events(log._entries, log.t0, MAX_LOGGED_TEXT)
    assert made == reference
    assert [tuple(map(type, dataclasses.astuple(e))) for e in made] == [
        tuple(map(type, dataclasses.astuple(e))) for e in reference
    ]
    assert log.events == reference


@pytest.mark.skipif(compiled.COMPILED is None, reason="the extension is not built here")
def test_entries_the_compiled_events_do_not_make_are_left_to_the_python() -> None:
    """A stamp that is no float, bytes longer than the log keeps, an entry that is no
    6-tuple: the extension makes none of the log's events, the Python makes them all."""
    log = EventLog()
    usual = (log.t0 + 1.0, "send", 0, b"x\n", None, None)
    for odd in [
        (int(log.t0) + 2, "send", 0, b"y\n", None, None),
        (log.t0 + 2.0, "send", 0, b"y" * (MAX_LOGGED_TEXT + 1), None, None),
        [log.t0 + 2.0, "send", 0, b"y\n", None, None],
    ]:
        entries = [usual, odd]
        assert compiled.COMPILED.events(entries, log.t0, MAX_LOGGED_TEXT) is None
    log.record(usual)
    log.record((log.t0 + 2.0, "send", 0, b"y" * (MAX_LOGGED_TEXT + 1), None, None))
    assert [e.text for e in log.events] == ["x", "y" * (MAX_LOGGED_TEXT + 1)]


def test_without_the_extension_the_python_makes_the_events(monkeypatch) -> None:
    monkeypatch.setattr(compiled, "COMPILED", None)
    log = EventLog()
    log.record((log.t0 + 0.5, "recv", 1, b"a\xff\n", 0.25, None))
    assert log.events == [Event(0.5, "recv", 1, "a\ufffd", 0.25, None)]
