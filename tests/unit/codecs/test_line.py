"""The ``line`` codec, and the line framing that ``jsonl`` shares."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena_kernel.codecs.line import LineCodec
from arena_kernel.model import Fault, FaultKind

MIB = 1 << 20
CHUNK = 64 << 10

lines = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"))


def test_encode_appends_a_newline() -> None:
    assert LineCodec().encode("move 3 é") == "move 3 é\n".encode()


@pytest.mark.parametrize("bad", ["a\nb", "a\r", "\r\n"])
def test_encode_refuses_line_breaks(bad: str) -> None:
    with pytest.raises(ValueError, match="line break"):
        LineCodec().encode(bad)


def test_encode_refuses_non_text() -> None:
    with pytest.raises(TypeError, match="int"):
        LineCodec().encode(3)


@given(st.lists(lines), st.lists(st.integers(0, 400)))
def test_any_chunking_decodes_the_same_messages(feed, messages: list[str], cuts: list[int]):
    codec = LineCodec()
    stream = b"".join(codec.encode(m) for m in messages)
    out = feed(codec.decoder(), stream, cuts)
    assert [m for m, _ in out] == messages
    assert b"".join(raw for _, raw in out) == stream


@given(st.binary(max_size=300), st.lists(st.integers(0, 300)))
def test_arbitrary_bytes_never_raise_and_ignore_chunking(feed, data: bytes, cuts: list[int]):
    whole = feed(LineCodec(max_message=20).decoder(), data)
    pieces = feed(LineCodec(max_message=20).decoder(), data, cuts)
    assert [m for m, _ in pieces] == [m for m, _ in whole]
    for message, raw in pieces:
        assert isinstance(message, str | Fault)
        assert len(raw) <= 200


def test_crlf_and_lf_both_end_a_line(feed) -> None:
    out = feed(LineCodec().decoder(), b"a\r\nb\nc\r\r\n")
    assert out == [("a", b"a\r\n"), ("b", b"b\n"), ("c\r", b"c\r\r\n")]


def test_empty_lines_are_messages(feed) -> None:
    assert [m for m, _ in feed(LineCodec().decoder(), b"\n\r\nx\n")] == ["", "", "x"]


def test_close_delivers_an_unterminated_last_line() -> None:
    decoder = LineCodec().decoder()
    assert decoder.feed(b"1\n3") == [("1", b"1\n")]
    assert decoder.close() == [("3", b"3")]
    assert decoder.close() == []


def test_invalid_utf8_is_a_fault_and_decoding_goes_on(feed) -> None:
    (fault, raw), ok = feed(LineCodec().decoder(), b"ab\xffc\nok\n")
    assert fault == Fault(FaultKind.MALFORMED, "invalid UTF-8 at byte 2 (0xff: invalid start byte)")
    assert raw == b"ab\xffc\n"
    assert ok == ("ok", b"ok\n")


def test_limit_is_on_the_content_not_the_terminator(feed) -> None:
    codec = LineCodec(max_message=4)
    out = feed(codec.decoder(), b"abcd\r\nabcde\nok\n", [2, 5, 8])
    assert [m for m, _ in out] == [
        "abcd",
        Fault(FaultKind.OVERSIZE, "message longer than 4 bytes"),
        "ok",
    ]


def test_endless_line_is_one_fault_and_is_not_kept(feed, peak) -> None:
    decoder = LineCodec(max_message=MIB).decoder()
    chunk = b"x" * CHUNK
    out = []

    def flood() -> None:
        for _ in range(10 * MIB // CHUNK):
            out.extend(decoder.feed(chunk))

    # The partial line is bounded by the limit (plus bytearray slack), not by the 10 MiB sent.
    assert peak(flood) < MIB * 3 // 2
    out += decoder.feed(b"xx\nnext\n")
    [(fault, raw), following] = out
    assert fault == Fault(FaultKind.OVERSIZE, f"message longer than {MIB} bytes")
    assert raw == b"x" * 200
    assert following == ("next", b"next\n")


def test_long_line_in_one_read_is_one_fault(feed) -> None:
    out = feed(LineCodec(max_message=MIB).decoder(), b"y" * (3 * MIB) + b"\nok\n")
    assert [m for m, _ in out] == [
        Fault(FaultKind.OVERSIZE, f"message longer than {MIB} bytes"),
        "ok",
    ]
    assert len(out[0][1]) == 200


@pytest.mark.parametrize(
    "line",
    [b"a\n", b"\n", b"\r\n", b"move 3\r\n", "é\n".encode(), b"\xff\xfe\n", b"x" * 64 + b"\n"],
    ids=["text", "empty", "crlf only", "crlf", "utf-8", "not utf-8", "over the limit"],
)
@pytest.mark.parametrize("codec", ["line", "jsonl"])
def test_one_whole_line_reads_as_in_pieces(line: bytes, codec: str) -> None:
    """A read of exactly one line takes a shorter way (nearly every reply): it gives what
    the same bytes give a byte at a time, faults included (an oversize line's excerpt is
    what the stream held when it went over: not compared)."""
    from arena_kernel.codecs.jsonl import JsonlCodec

    made = LineCodec(max_message=32) if codec == "line" else JsonlCodec(max_message=32)
    whole = made.decoder().feed(line)
    pieces = made.decoder()
    apart = [item for byte in range(len(line)) for item in pieces.feed(line[byte:][:1])]
    assert [message for message, _raw in whole] == [message for message, _raw in apart]
    if len(line) <= 32:
        assert whole == apart
    assert whole or (codec == "jsonl" and not line.strip()), "blank lines only are dropped"
