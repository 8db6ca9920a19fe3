"""The messages both ways: which replies are moves at all (a pass the way Gson writes it
included), and how the referee echoes a pass in each ``enums`` setting."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena_stones.rules import ANY_MOVE, ATTACK, ATTACK_ONLY, PASS, STRENGTHEN, WHITE, Position
from arena_stones.wire import Encoder, WireError, parse_move


@pytest.mark.parametrize(
    "reply",
    [
        '{"Type":"0"}',
        '{"Type":0}',
        '{"Type":" 0 "}',
        '{"Type":0,"From":null,"To":null}',
        '{"Type":"0","From":null,"To":null}',
        '{"Type":0,"From":null}',
        '{"Type":0,"To":null}',
    ],
)
def test_a_pass_may_leave_from_and_to_out_or_null(reply):
    assert parse_move(json.loads(reply)) == (PASS, None, None)


def test_a_pass_with_a_location_is_read_as_sent_and_judged_illegal():
    reply = '{"Type":"0","From":{"X":0,"Y":0}}'
    move = parse_move(json.loads(reply))
    assert move == (PASS, (0, 0), None)
    position = Position.from_matrix(_board(), WHITE, ANY_MOVE)
    assert position.judge(*move) == "Pass needs From and To to be null"


def test_a_keyless_pass_at_an_attack_only_request_is_illegal_not_malformed():
    move = parse_move({"Type": "0"})
    position = Position.from_matrix(_board(), WHITE, ATTACK_ONLY)
    assert position.judge(*move) == "Type not in AllowedMoves: pass at an attack-only request"


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ('{"Type":1,"To":{"X":0,"Y":0}}', "attack without From: only a pass may leave it out"),
        ('{"Type":"1","From":{"X":0,"Y":0}}', "attack without To: only a pass may leave it out"),
        ('{"Type":2}', "strengthen without From: only a pass may leave it out"),
        ('{"From":null,"To":null}', "Type is missing"),
    ],
)
def test_only_a_pass_may_leave_out_from_and_to(reply, message):
    with pytest.raises(WireError) as error:
        parse_move(json.loads(reply))
    assert str(error.value) == message


@pytest.mark.parametrize("move_type", [ATTACK, STRENGTHEN])
def test_an_attack_or_strengthen_with_null_locations_is_a_move_for_the_judge(move_type):
    assert parse_move({"Type": move_type, "From": None, "To": None}) == (move_type, None, None)


def test_locations_are_read_with_string_or_integer_coordinates():
    reply = {"Type": "1", "From": {"X": "3", "Y": 5}, "To": {"X": 3, "Y": "4"}}
    assert parse_move(reply) == (ATTACK, (3, 5), (3, 4))


def test_the_echo_of_a_pass_follows_the_protocol_by_default():
    assert Encoder().processed(WHITE, PASS, None, None, 0) == {
        "Player": 1,
        "Move": {"Type": 0, "From": None, "To": None},
        "Winner": 0,
    }


def test_the_echo_of_a_pass_is_the_contest_engines_with_string_enums():
    echo = Encoder(contest=True).processed(-1, PASS, None, None, 0)
    assert json.dumps(echo, separators=(",", ":")) == (
        '{"Player":"-1","Move":{"Type":"0"},"Winner":"0"}'
    )


@pytest.mark.parametrize("contest", [False, True])
def test_the_echo_of_an_attack_names_both_cells_in_either_setting(contest):
    echo = Encoder(contest=contest).processed(WHITE, ATTACK, (3, 5), (3, 4), WHITE)
    enum = str if contest else int
    assert echo == {
        "Player": enum(1),
        "Move": {"Type": enum(1), "From": {"X": 3, "Y": 5}, "To": {"X": 3, "Y": 4}},
        "Winner": enum(1),
    }


def _board() -> list[list[int]]:
    return Position.initial().matrix()


class _Stepwise(dict):
    """A reply parse_move reads step by step (its usual-reply shortcut takes plain dicts)."""


_coordinates = st.integers(-2, 10) | st.booleans() | st.sampled_from(["3", " 4 ", "x", None])
_locations = (
    st.none()
    | st.fixed_dictionaries({"X": _coordinates, "Y": _coordinates})
    | st.dictionaries(st.sampled_from(["X", "Y", "Z"]), _coordinates, max_size=3)
    | st.integers()
)
_replies = st.dictionaries(
    st.sampled_from(["Type", "From", "To", "Other"]),
    st.integers(-1, 3) | st.sampled_from(["0", "1", True, None]) | _locations,
    max_size=4,
) | st.fixed_dictionaries(
    {
        "Type": st.integers(-1, 3) | st.sampled_from(["2", False]),
        "From": _locations,
        "To": _locations,
    }
)


def _parsed(message):
    try:
        return parse_move(message)
    except WireError as exc:
        return str(exc)


@given(_replies)
def test_the_usual_reply_is_read_as_step_by_step(reply):
    assert _parsed(reply) == _parsed(_Stepwise(reply))


@given(st.sampled_from([WHITE, -WHITE]), st.sampled_from(ANY_MOVE), _locations, _locations)
def test_the_echo_is_the_protocols_in_both_dialects(player, move_type, frm, to):
    frm = (1, 2) if frm is not None else None
    to = (3, 4) if to is not None else None
    for contest in (False, True):
        wire = Encoder(contest=contest)
        enum = str if contest else int
        move = (
            {"Type": enum(move_type)}
            if contest and move_type == PASS
            else {
                "Type": enum(move_type),
                "From": None if frm is None else {"X": frm[0], "Y": frm[1]},
                "To": None if to is None else {"X": to[0], "Y": to[1]},
            }
        )
        assert wire.processed(player, move_type, frm, to, 0) == {
            "Player": enum(player),
            "Move": move,
            "Winner": enum(0),
        }
        assert wire.request([[0]], ANY_MOVE)["AllowedMoves"] == [enum(t) for t in ANY_MOVE]
