"""The ``sexpr`` codec: data framed by their structure, whatever the layout."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena_kernel.codecs.base import MAX_DEPTH
from arena_kernel.codecs.faults import TOO_DEEP
from arena_kernel.codecs.sexpr import SexprCodec, Symbol
from arena_kernel.model import Fault, FaultKind

MIB = 1 << 20
CHUNK = 64 << 10

symbols = st.from_regex(r"[a-zA-Z*!<>=/_?][a-zA-Z0-9*!<>=/_?.+-]*", fullmatch=True).map(Symbol)
atoms = (
    symbols
    # Strings full of what the framer must not take for structure.
    | st.text(
        st.sampled_from('a "\\();\n') | st.characters(blacklist_categories=("Cs",)), max_size=8
    )
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
)
data = st.recursive(atoms, lambda inner: st.lists(inner, max_size=4), max_leaves=12)
gaps = st.sampled_from([" ", "  ", "\n", "\t", " ; a comment (with a paren\n", "\r\n  "])


def typed(value: Any) -> Any:
    """A value with its types made visible: ``Symbol("a")`` and ``"a"`` compare equal."""
    if isinstance(value, list):
        return [typed(item) for item in value]
    return type(value).__name__, value


def laid_out(draw: st.DrawFn, value: Any) -> str:
    """``value`` as a bot might print it: any whitespace and comments between tokens."""
    if not isinstance(value, list):
        return SexprCodec().encode(value).decode().rstrip("\n")
    parts = [draw(gaps) + laid_out(draw, item) for item in value]
    return "(" + "".join(parts) + draw(gaps) + ")"


@st.composite
def streams(draw: st.DrawFn) -> tuple[list[Any], str]:
    values = draw(st.lists(data, max_size=5))
    return values, "".join(draw(gaps) + laid_out(draw, v) + draw(gaps) for v in values)


def decode(data: bytes, max_message: int = MIB) -> list[Any]:
    decoder = SexprCodec(max_message).decoder()
    return [m for m, _ in decoder.feed(data) + decoder.close()]


def test_encode_writes_one_datum_per_line() -> None:
    message = [Symbol("move"), 3, -4, 1.5, 'say "hi" \\o/', [Symbol("Up"), []]]
    assert SexprCodec().encode(message) == b'(move 3 -4 1.5 "say \\"hi\\" \\\\o/" (Up ()))\n'


def test_symbols_and_strings_encode_and_decode_differently() -> None:
    codec = SexprCodec()
    assert codec.encode(Symbol("abc")) == b"abc\n"
    assert codec.encode("abc") == b'"abc"\n'
    [[symbol, string]] = decode(b'(abc "abc")\n')
    assert type(symbol) is Symbol
    assert type(string) is str
    assert symbol == string == "abc"


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (Symbol("two words"), ValueError),
        (Symbol("12"), ValueError),
        (Symbol("-1.5"), ValueError),
        (Symbol(""), ValueError),
        (math.inf, ValueError),
        (True, TypeError),
        ({"a": 1}, TypeError),
    ],
)
def test_encode_refuses_what_would_not_come_back(value: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        SexprCodec().encode([value])


@given(streams(), st.lists(st.integers(0, 2000)))
def test_any_layout_and_chunking_decodes_the_same_data(feed, stream, cuts: list[int]) -> None:
    values, text = stream
    out = feed(SexprCodec().decoder(), text.encode(), cuts)
    assert [typed(m) for m, _ in out] == [typed(v) for v in values]


@given(st.lists(data, max_size=5), st.lists(st.integers(0, 2000)))
def test_encoded_data_round_trip(feed, values: list[Any], cuts: list[int]) -> None:
    codec = SexprCodec()
    stream = b"".join(codec.encode(v) for v in values)
    out = feed(codec.decoder(), stream, cuts)
    assert [typed(m) for m, _ in out] == [typed(v) for v in values]
    assert [raw + b"\n" for _, raw in out] == [codec.encode(v) for v in values]


@given(st.binary(max_size=300), st.lists(st.integers(0, 300)))
def test_arbitrary_bytes_never_raise_and_ignore_chunking(feed, data: bytes, cuts: list[int]):
    whole = feed(SexprCodec().decoder(), data)
    pieces = feed(SexprCodec().decoder(), data, cuts)
    assert [typed(m) for m, _ in pieces] == [typed(m) for m, _ in whole]


@given(st.binary(max_size=300), st.lists(st.integers(0, 300)))
def test_arbitrary_bytes_never_raise_with_a_small_limit(feed, data: bytes, cuts: list[int]):
    for message, raw in feed(SexprCodec(max_message=10).decoder(), data, cuts):
        if isinstance(message, Fault):
            assert len(raw) <= 200
        else:
            assert len(raw) <= 10


def test_datum_spanning_lines_and_data_sharing_a_line() -> None:
    assert decode(b"(move\n  3\n  4)  (pass) (a)(b)\n") == [
        [Symbol("move"), 3, 4],
        [Symbol("pass")],
        [Symbol("a")],
        [Symbol("b")],
    ]


def test_atoms_numbers_and_case() -> None:
    [value] = decode(b"(Move -3 +4 -1.5 2. .5 1e3 -2.5E-1 - 1+ .x)")
    numbers = [-3, 4, -1.5, 2.0, 0.5, 1000.0, -0.25]
    assert typed(value) == typed(
        [Symbol("Move"), *numbers, Symbol("-"), Symbol("1+"), Symbol(".x")]
    )


def test_comments_are_ignored_even_with_parens() -> None:
    stream = b'; greeting ) (\n(a ; inner ) "\n b "; c" d;)\n) e; tail'
    assert decode(stream) == [[Symbol("a"), Symbol("b"), "; c", Symbol("d")], Symbol("e")]


def test_raw_bytes_are_the_datum_without_surrounding_space() -> None:
    decoder = SexprCodec().decoder()
    assert decoder.feed(b'  (a\n "b")  c ') == [
        ([Symbol("a"), "b"], b'(a\n "b")'),
        (Symbol("c"), b"c"),
    ]


def test_top_level_atom_waits_for_a_delimiter_or_the_end() -> None:
    decoder = SexprCodec().decoder()
    assert decoder.feed(b"4") == []
    assert decoder.feed(b"2") == []
    assert decoder.feed(b"(") == [(42, b"42")]
    assert decoder.feed(b")x") == [([], b"()")]
    assert decoder.close() == [(Symbol("x"), b"x")]


def test_escape_split_between_reads() -> None:
    # The read ends inside the escape \\: the next backslash is escaped, not escaping.
    decoder = SexprCodec().decoder()
    assert decoder.feed(b'("a\\') == []
    assert decoder.feed(b'\\" (b))') == [(["a\\", [Symbol("b")]], b'("a\\\\" (b))')]


def test_stray_close_paren_is_skipped() -> None:
    assert decode(b") (a))") == [
        Fault(FaultKind.MALFORMED, "unexpected ')' outside any list"),
        [Symbol("a")],
        Fault(FaultKind.MALFORMED, "unexpected ')' outside any list"),
    ]


@pytest.mark.parametrize("tail", [b"(a (b", b'(a "b)', b'"abc', b"(a ; x"])
def test_stream_ending_inside_a_datum_is_a_fault(tail: bytes) -> None:
    decoder = SexprCodec().decoder()
    assert decoder.feed(b"ok " + tail) == [(Symbol("ok"), b"ok")]
    assert decoder.close() == [
        (Fault(FaultKind.MALFORMED, "stream ended inside a datum"), tail),
    ]


def test_invalid_utf8_faults_its_datum_and_decoding_resumes_after_it() -> None:
    out = SexprCodec().decoder().feed(b'(a "\xff (" (b)) (ok)\n')
    assert out == [
        (
            Fault(FaultKind.MALFORMED, "invalid UTF-8 at byte 4 (0xff: invalid start byte)"),
            b'(a "\xff (" (b))',
        ),
        ([Symbol("ok")], b"(ok)"),
    ]


def test_unknown_escape_is_a_fault() -> None:
    [fault, ok] = decode(b'"a\\nb" ok ')
    assert fault == Fault(
        FaultKind.MALFORMED, 'invalid escape "\\n" in string: only \\" and \\\\ exist'
    )
    assert ok == Symbol("ok")


def test_huge_integer_is_a_fault() -> None:
    [fault] = decode(b"(" + b"9" * 5000 + b")")
    assert fault.kind == FaultKind.MALFORMED
    assert fault.detail.startswith("bad number: Exceeds the limit (4300 digits)")


def nested(depth: int) -> bytes:
    return b"(" * depth + b"a" + b")" * depth


def test_a_datum_max_depth_deep_decodes_and_prints() -> None:
    [value] = decode(nested(MAX_DEPTH))
    for _ in range(MAX_DEPTH):
        [value] = value
    assert value == Symbol("a")
    [deepest] = decode(nested(MAX_DEPTH))
    assert repr(deepest).count("[") == str(deepest).count("[") == MAX_DEPTH
    assert SexprCodec().encode(deepest) == nested(MAX_DEPTH) + b"\n"


@given(st.lists(st.integers(0, 2 * MAX_DEPTH + 30)))
def test_one_level_deeper_is_a_fault_and_decoding_resumes_after_it(feed, cuts) -> None:
    stream = b"(before) " + nested(MAX_DEPTH + 1) + b" (after)"
    out = feed(SexprCodec().decoder(), stream, cuts)
    assert [m for m, _ in out] == [
        [Symbol("before")],
        Fault(FaultKind.MALFORMED, TOO_DEEP),
        [Symbol("after")],
    ]
    assert out[1][1].startswith(b"(" * (MAX_DEPTH + 1)), "what was read of it, from its start"


def test_a_deep_datum_is_one_fault_and_is_not_kept(peak) -> None:
    """A hostile bot's datum 50,000 lists deep: the framer follows it to its end without
    keeping its bytes, and never builds its value."""
    decoder = SexprCodec().decoder()
    out: list = []

    def nest(byte: bytes) -> None:
        for _ in range(10):
            out.extend(decoder.feed(byte * 5_000))

    assert peak(lambda: nest(b"(")) < 25_000
    nest(b")")
    out += decoder.feed(b"(after)") + decoder.close()
    assert [m for m, _ in out] == [Fault(FaultKind.MALFORMED, TOO_DEEP), [Symbol("after")]]


def test_oversize_datum_in_one_read_is_one_fault() -> None:
    assert decode(b"(a " + b"x" * 200 + b") (ok)", max_message=100) == [
        Fault(FaultKind.OVERSIZE, "message longer than 100 bytes"),
        [Symbol("ok")],
    ]


@pytest.mark.parametrize(
    ("head", "body", "tail"),
    [
        # Skipping follows nesting, strings and comments: counting the parens inside the
        # string or the comment would leave the datum open forever and lose "(after)".
        (b"(a ", b"(" + b"x" * 2000 + b' "\\"((" ; ((\n) ', b")"),
        (b'"', b'x\\"y', b'"'),
        (b"", b"z", b" "),
    ],
    ids=["list", "string", "atom"],
)
def test_endless_datum_is_one_fault_and_is_not_kept(peak, head, body, tail) -> None:
    decoder = SexprCodec(max_message=MIB).decoder()
    chunk = body * (CHUNK // len(body))
    out = decoder.feed(b"(before) " + head)

    def flood() -> None:
        for _ in range(10 * MIB // len(chunk)):
            out.extend(decoder.feed(chunk))

    assert peak(flood) < MIB * 3 // 2
    out += decoder.feed(tail + b"(after)")
    out += decoder.close()
    assert [m for m, _ in out] == [
        [Symbol("before")],
        Fault(FaultKind.OVERSIZE, f"message longer than {MIB} bytes"),
        [Symbol("after")],
    ]
    assert len(out[1][1]) == 200
