"""The compiled codecs (``arena_kernel.codecs._fast``) against the Python they stand in
for: what they decode is what the codec's decoder makes of the same read, what they encode
is the codec's bytes (or the codec's error), and whatever they do not handle they leave to
the Python untouched. The compiled channel is tested in tests/system/referee, whose
conftest runs those tests both ways."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena_kernel.codecs import compiled as compiled_codecs
from arena_kernel.codecs.jsonl import JsonlCodec
from arena_kernel.codecs.line import LineCodec
from arena_kernel.codecs.sexpr import SexprCodec

compiled = compiled_codecs.COMPILED
pytestmark = pytest.mark.skipif(compiled is None, reason="the extension is not built here")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
fragments = st.sampled_from(
    [b"\n", b"\r", b"\r\n", b" ", b"[", b"{", b"}", b"]", b'"', b"\xff", b"\xc3", b"1", b"a"]
)
json_tokens = st.sampled_from(
    [
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        " ",
        "\t",
        "\r",
        '"',
        "\\",
        "\\u00e9",
        "\\n",
        "0",
        "-",
        "01",
        "-0",
        "7",
        "1.5",
        "1e3",
        "2E-1",
        "123456789012345678",
        "1234567890123456789",
        "true",
        "false",
        "null",
        "nul",
        "NaN",
        "-Infinity",
        '"a"',
        '"é"',
        "\x01",
        "\ufeff",
    ]
)
reads = (
    st.lists(st.binary(max_size=6) | fragments, max_size=12).map(b"".join)
    | st.lists(json_tokens, max_size=14).map(lambda t: "".join(t).encode() + b"\n")
    | json_values.map(lambda v: json.dumps(v).encode() + b"\n")
    | json_values.map(lambda v: json.dumps(v, separators=(",", ":")).encode() + b"\n")
    | json_values.map(lambda v: json.dumps(v, ensure_ascii=False).encode() + b"\r\n")
    | st.text().map(lambda t: t.encode("utf-8", "surrogatepass") + b"\n")
)
codecs = st.sampled_from([LineCodec(), JsonlCodec(), LineCodec(12), JsonlCodec(12)])


def python_decoded(codec, data: bytes) -> list:
    return codec.decoder().feed(data)


@given(codecs, reads)
def test_a_read_decoded_compiled_is_the_one_message_the_decoder_makes_of_it(codec, data):
    decoder = codec.decoder()
    found = compiled.decode_whole(decoder, data)
    items = python_decoded(codec, data)
    if found is not None:
        assert items == [(found[0], data)]
        assert type(found[0]) is type(items[0][0])
    # The decoder was only looked at: it decodes the read as if nothing had happened.
    assert decoder.feed(data) == items


@given(codecs, reads, st.binary(min_size=1, max_size=8))
def test_a_decoder_holding_part_of_a_line_is_left_to_python(codec, data, before):
    decoder = codec.decoder()
    decoder.feed(before)
    if decoder._buf or decoder._skipping:
        assert compiled.decode_whole(decoder, data) is None


def test_the_usual_reads_are_decoded_compiled() -> None:
    assert compiled.decode_whole(LineCodec().decoder(), b"hello\r\n") == ("hello",)
    message = {"Board": [[0, 1], [2, -3]], "ok": True}
    line = json.dumps(message).encode() + b"\n"
    assert compiled.decode_whole(JsonlCodec().decoder(), line) == (message,)
    for depth in (99, 100, 101, 150):
        for opening, closing in (("[", "]"), ('{"a":', "}")):
            nested = (opening * depth + "1" + closing * depth).encode() + b"\n"
            found = compiled.decode_whole(JsonlCodec().decoder(), nested)
            items = python_decoded(JsonlCodec(), nested)
            if depth <= 100:
                assert found is not None and items == [(found[0], nested)]
            else:  # too deep: the Python names the fault
                assert found is None and items[0][0].kind == "malformed"
    assert compiled.decode_whole(SexprCodec().decoder(), b"(a b)\n") is None


def outcome(encode, codec, message):
    try:
        return encode(codec, message)
    except Exception as exc:
        return type(exc), str(exc)


@given(st.text() | st.integers() | st.text().map(lambda t: t + "\n"))
def test_a_line_encoded_compiled_is_the_codecs(message) -> None:
    codec = LineCodec()
    assert outcome(compiled.encode, codec, message) == outcome(LineCodec.encode, codec, message)


any_text = st.text(st.characters(codec=None, exclude_categories=()))
odd_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**63 - 2, max_value=2**64)
    | st.integers(max_value=-(2**63) + 1, min_value=-(2**64))
    | st.floats()
    | any_text,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(any_text | st.integers() | st.booleans() | st.none(), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values | odd_values | st.tuples(json_values) | st.sets(st.integers(), min_size=1))
def test_a_json_value_encoded_compiled_is_the_codecs(message) -> None:
    codec = JsonlCodec()
    assert outcome(compiled.encode, codec, message) == outcome(JsonlCodec.encode, codec, message)


def test_encoding_what_the_codec_refuses_raises_its_error() -> None:
    cycle: list = []
    cycle.append(cycle)
    deep: list = []
    for _ in range(100):
        deep = [{"a": deep}]
    for codec, message in [
        (JsonlCodec(), cycle),
        (JsonlCodec(), {"a": cycle}),
        (JsonlCodec(), deep),
        (JsonlCodec(), float("nan")),
        (LineCodec(), "a\rb"),
        (LineCodec(), "\ud800"),
        (SexprCodec(), ["a", ["b"]]),
    ]:
        expected = outcome(type(codec).encode, codec, message)
        assert outcome(compiled.encode, codec, message) == expected


@given(codecs, reads)
def test_feed_is_the_decoders(codec, data) -> None:
    assert compiled_codecs.feed(codec.decoder(), data) == python_decoded(codec, data)


@given(json_values)
def test_encode_is_the_codecs(message) -> None:
    codec = JsonlCodec()
    assert outcome(compiled_codecs.encode, codec, message) == outcome(
        JsonlCodec.encode, codec, message
    )


@pytest.mark.parametrize("codec", [JsonlCodec(), LineCodec(), SexprCodec()], ids=type)
def test_the_test_kits_round_trip_gives_back_what_the_codec_would(codec) -> None:
    from arena_kernel.testkit import wire_round_trip

    message = {"move": [1, 2], "ok": True} if isinstance(codec, JsonlCodec) else "move a b"
    if isinstance(codec, SexprCodec):
        message = codec.decoder().feed(b"(move a b)\n")[0][0]
    expected = codec.decoder().feed(codec.encode(message))
    assert wire_round_trip(codec, codec.decoder(), message) == expected
    assert [value for value, _ in expected] == [message]
