"""The ``jsonl`` codec: JSON values on top of the line framing."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena_kernel.codecs import jsonl
from arena_kernel.codecs.base import MAX_DEPTH
from arena_kernel.codecs.faults import TOO_DEEP
from arena_kernel.codecs.jsonl import JsonlCodec
from arena_kernel.model import Fault, FaultKind

MIB = 1 << 20
CHUNK = 64 << 10

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=10,
)


def test_encode_is_compact_and_one_line() -> None:
    encoded = JsonlCodec().encode({"verb": "say", "args": ["a\nb", 1, None]})
    assert encoded == b'{"verb":"say","args":["a\\nb",1,null]}\n'


def test_encode_refuses_what_json_cannot_say() -> None:
    with pytest.raises(ValueError):
        JsonlCodec().encode(math.nan)
    with pytest.raises(ValueError, match="Out of range float"):
        JsonlCodec().encode({"a": [1, math.inf]})
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        JsonlCodec().encode([{1}])


@given(json_values | st.tuples(json_values, json_values))
def test_encode_is_compact_json_dumps(value) -> None:
    compact = json.dumps(value, separators=(",", ":"), allow_nan=False)
    assert JsonlCodec().encode(value) == (compact + "\n").encode()


@given(json_values)
def test_encode_without_the_c_accelerator_is_the_same(value) -> None:
    fast = JsonlCodec().encode(value)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsonl, "_C_ENCODE", None)
        assert JsonlCodec().encode(value) == fast


def test_encode_tells_a_cycle_from_a_message_nested_too_deeply() -> None:
    cycle: list = []
    cycle.append([cycle])
    with pytest.raises(ValueError, match="Circular reference detected"):
        JsonlCodec().encode({"a": cycle})
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RecursionError):
        JsonlCodec().encode(deep)
    # Neither leaves anything behind that spoils the next message.
    assert JsonlCodec().encode([[1], {"b": [2]}]) == b'[[1],{"b":[2]}]\n'


@given(st.lists(json_values, max_size=5), st.lists(st.integers(0, 500)))
def test_any_chunking_decodes_the_same_values(feed, values: list, cuts: list[int]) -> None:
    codec = JsonlCodec()
    stream = b"".join(codec.encode(v) for v in values)
    out = feed(codec.decoder(), stream, cuts)
    assert [m for m, _ in out] == values
    assert b"".join(raw for _, raw in out) == stream


@given(st.binary(max_size=300), st.lists(st.integers(0, 300)))
def test_arbitrary_bytes_never_raise_and_ignore_chunking(feed, data: bytes, cuts: list[int]):
    whole = feed(JsonlCodec(max_message=20).decoder(), data)
    pieces = feed(JsonlCodec(max_message=20).decoder(), data, cuts)
    assert [m for m, _ in pieces] == [m for m, _ in whole]
    assert all(len(raw) <= 200 for m, raw in pieces if isinstance(m, Fault))


@given(json_values, st.sampled_from(["", " ", "\t", " \t "]), st.sampled_from(["", " ", "\t"]))
def test_white_space_around_a_value_is_allowed(feed, value, before: str, after: str) -> None:
    line = (before + json.dumps(value) + after + "\n").encode()
    [(decoded, raw)] = feed(JsonlCodec().decoder(), line)
    assert decoded == value and raw == line


@pytest.mark.parametrize(
    ("line", "detail"),
    [
        (b"1 2", "invalid JSON: Extra data at column 3: '1 2'"),
        (b'{"a":1}x', "invalid JSON: Extra data at column 8: '{\"a\":1}x'"),
        (b" [1,", "invalid JSON: Expecting value at column 5: ' [1,'"),
        ("\ufeff1".encode(), "invalid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig) at"),
    ],
)
def test_what_follows_or_precedes_a_value_is_judged_as_json_loads_does(
    feed, line: bytes, detail: str
) -> None:
    [(fault, _raw)] = feed(JsonlCodec().decoder(), line + b"\n")
    assert fault.kind == FaultKind.MALFORMED
    assert fault.detail.startswith(detail)


def test_blank_lines_are_skipped_silently(feed) -> None:
    out = feed(JsonlCodec().decoder(), b'\n  \r\n1\n\t\n{"a":2}\r\n')
    assert out == [(1, b"1\n"), ({"a": 2}, b'{"a":2}\r\n')]


def test_close_delivers_an_unterminated_value() -> None:
    decoder = JsonlCodec().decoder()
    assert decoder.feed(b"3") == []
    assert decoder.close() == [(3, b"3")]


def test_invalid_json_names_the_error_and_quotes_the_line(feed) -> None:
    (fault, raw), ok = feed(JsonlCodec().decoder(), b"hello\n[1]\n")
    assert fault == Fault(FaultKind.MALFORMED, "invalid JSON: Expecting value at column 1: 'hello'")
    assert raw == b"hello\n"
    assert ok == ([1], b"[1]\n")


def test_invalid_json_on_a_long_line_quotes_around_the_error(feed) -> None:
    line = "[" + "1," * 100 + "}]"
    [(fault, _raw)] = feed(JsonlCodec().decoder(), line.encode() + b"\n")
    assert fault.detail.startswith("invalid JSON: Expecting value at column 202: '...")
    assert "1,1,}]'" in fault.detail
    assert len(fault.detail) < 120


@pytest.mark.parametrize(
    ("line", "detail"),
    [
        (b"[" * 100_000, f"invalid JSON: {TOO_DEEP}"),
        (b"1" * 5000, "invalid JSON: Exceeds the limit (4300 digits) for integer string"),
        (b'"\xc3("', "invalid UTF-8 at byte 1 (0xc3: invalid continuation byte)"),
    ],
)
def test_hostile_lines_are_faults(feed, line: bytes, detail: str) -> None:
    [(fault, _raw)] = feed(JsonlCodec().decoder(), line + b"\n")
    assert fault.kind == FaultKind.MALFORMED
    assert fault.detail.startswith(detail)


def nested(opening: str, depth: int) -> str:
    """A value ``depth`` arrays (``[``) or objects (``{"a":``) deep."""
    closing = "]" if opening == "[" else "}"
    return opening * depth + "0" + closing * depth


@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_a_value_max_depth_deep_decodes_and_one_level_more_is_a_fault(feed, opening) -> None:
    text = nested(opening, MAX_DEPTH)
    [(deepest, _raw)] = feed(JsonlCodec().decoder(), text.encode() + b"\n")
    assert json.dumps(deepest, separators=(",", ":")) == text
    assert repr(deepest).count(opening[0]) == MAX_DEPTH
    out = feed(JsonlCodec().decoder(), nested(opening, MAX_DEPTH + 1).encode() + b"\n1\n")
    assert [m for m, _ in out] == [Fault(FaultKind.MALFORMED, f"invalid JSON: {TOO_DEEP}"), 1]


@pytest.mark.parametrize(("depth", "ok"), [(MAX_DEPTH, True), (MAX_DEPTH + 1, False)])
def test_depth_is_found_past_many_shallow_brackets(feed, depth: int, ok: bool) -> None:
    """More brackets than levels, the deepest value last among its siblings."""
    text = '[{"a":[0]},' + "[0]," * MAX_DEPTH + nested("[", depth - 1) + "]"
    [(message, _raw)] = feed(JsonlCodec().decoder(), text.encode() + b"\n")
    assert message == (
        json.loads(text) if ok else Fault(FaultKind.MALFORMED, f"invalid JSON: {TOO_DEEP}")
    )


def test_oversize_line_is_skipped_without_being_kept(feed, peak) -> None:
    decoder = JsonlCodec(max_message=MIB).decoder()
    chunk = b"[" + b"0," * (CHUNK // 2 - 1) + b"0"
    out = decoder.feed(b"1\n")

    def flood() -> None:
        for _ in range(10 * MIB // CHUNK):
            out.extend(decoder.feed(chunk))

    assert peak(flood) < MIB * 3 // 2
    out += decoder.feed(b"]\n" + json.dumps({"next": True}).encode() + b"\n")
    assert [m for m, _ in out] == [
        1,
        Fault(FaultKind.OVERSIZE, f"message longer than {MIB} bytes"),
        {"next": True},
    ]
