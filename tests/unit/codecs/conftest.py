"""Helpers shared by the codec tests: feeding a stream in pieces, measuring memory."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Iterable

import pytest

from arena_kernel.codecs.base import Decoded, Decoder

Feed = Callable[..., list[Decoded]]
Peak = Callable[[Callable[[], object]], int]


def _feed(decoder: Decoder, data: bytes, cuts: Iterable[int] = ()) -> list[Decoded]:
    """Everything ``decoder`` yields for ``data`` split at ``cuts``, then closed."""
    out: list[Decoded] = []
    prev = 0
    for cut in [*sorted(set(cuts)), len(data)]:
        if cut > prev:
            out += decoder.feed(data[prev:cut])
            prev = cut
    return out + decoder.close()


def _peak(action: Callable[[], object]) -> int:
    """Peak bytes allocated by Python while ``action`` runs."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# Session scope: hypothesis refuses function-scoped fixtures, and these are pure functions.
@pytest.fixture(scope="session")
def feed() -> Feed:
    return _feed


@pytest.fixture(scope="session")
def peak() -> Peak:
    return _peak
