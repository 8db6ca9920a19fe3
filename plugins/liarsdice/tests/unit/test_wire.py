"""Reading a move response: numbers as the contest's JavaScript server read them, and a
reason that says what was wrong."""

from __future__ import annotations

import json

import pytest

from arena_liarsdice import wire
from arena_liarsdice.wire import WireError


def read(text: str) -> object:
    return wire.read_move(json.loads(text), "g1r1m1p1")


@pytest.mark.parametrize(
    "move", ["[3.0, 4]", "[3, 4.0]", "[3.0, 4.0]", "[3, 4]", "[30e-1, 4]", "[3, 0.4e1]"]
)
def test_whole_numbers_are_read_as_ints_however_written(move: str) -> None:
    bid = read(f'{{"message_id": "g1r1m1p1", "move": {move}}}')
    assert bid == (3, 4)
    assert all(type(n) is int for n in bid)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("[3.5, 4]", "bid [3.5, 4]: 3.5 is not a whole number"),
        ("[3, 4.25]", "bid [3, 4.25]: 4.25 is not a whole number"),
        ("[true, 4]", "bid [true, 4]: true is not a whole number"),
        ('["3", 4]', 'bid ["3", 4]: "3" is not a whole number'),
        ("[3, null]", "bid [3, null]: null is not a whole number"),
        ("[3, 1e400]", "bid [3, Infinity]: Infinity is not a whole number"),
        ("[3, 4, 5]", "move [3, 4, 5] is not pass, challenge or a bid [face, count]"),
        ('"raise"', "move 'raise' is not one of pass, challenge or a bid"),
    ],
)
def test_other_numbers_are_refused_with_the_reason(move: str, reason: str) -> None:
    with pytest.raises(WireError) as error:
        read(f'{{"message_id": "g1r1m1p1", "move": {move}}}')
    assert str(error.value) == reason


def test_a_set_name_is_no_move_response() -> None:
    assert wire.is_set_name({"name": "alice"})
    assert not wire.is_set_name({"name": "alice", "message_id": "g1r1m1p1"})
    assert wire.as_sent({"name": "alice"}) == '{"name": "alice"}'
    assert wire.as_sent({"name": "x" * 100}, limit=20) == '{"name": "' + 10 * "x" + "..."
