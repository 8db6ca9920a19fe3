"""The ``raw`` codec: one read is one message, terminators or not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena_kernel.codecs.raw import RawCodec
from arena_kernel.model import Fault, FaultKind

texts = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1).filter(
    lambda t: t.rstrip("\r\n\0")
)


def test_encode_adds_no_terminator() -> None:
    assert RawCodec().encode("move 1 2") == b"move 1 2"


def test_encode_refuses_what_cannot_be_read() -> None:
    with pytest.raises(ValueError, match="empty"):
        RawCodec().encode("")
    with pytest.raises(TypeError):
        RawCodec().encode(b"bytes")


@given(texts.map(lambda t: t.rstrip("\r\n\0")), st.sampled_from(["", "\n", "\r\n", "\0", "\n\0"]))
def test_round_trip_whatever_terminator_the_bot_adds(text: str, terminator: str) -> None:
    data = RawCodec().encode(text) + terminator.encode()
    assert RawCodec().decoder().feed(data) == [(text, data)]


def test_one_feed_is_one_message_even_with_inner_line_breaks() -> None:
    decoder = RawCodec().decoder()
    assert decoder.feed(b"a\nb\r\n") == [("a\nb", b"a\nb\r\n")]
    assert decoder.feed(b"c") == [("c", b"c")]
    assert decoder.close() == []


def test_a_terminator_alone_is_not_a_message() -> None:
    assert RawCodec().decoder().feed(b"\r\n") == []


def test_oversize_read_is_one_fault_and_the_next_read_decodes() -> None:
    decoder = RawCodec(max_message=4).decoder()
    assert decoder.feed(b"abcd\r\n") == [("abcd", b"abcd\r\n")]
    [(fault, raw)] = decoder.feed(b"x" * 1000)
    assert fault == Fault(FaultKind.OVERSIZE, "message longer than 4 bytes")
    assert raw == b"x" * 200
    assert decoder.feed(b"ok") == [("ok", b"ok")]


def test_invalid_utf8_is_a_fault() -> None:
    [(fault, raw)] = RawCodec().decoder().feed(b"ab\xe2\x82\n")
    assert fault == Fault(
        FaultKind.MALFORMED, "invalid UTF-8 at byte 2 (0xe2 0x82: unexpected end of data)"
    )
    assert raw == b"ab\xe2\x82\n"
