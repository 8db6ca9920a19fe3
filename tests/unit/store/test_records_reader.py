"""The records reader trusts no file: a record it refuses is one that the published JSON
Schema (docs/game-record.schema.json) refuses too, so the two say the same of the
fields a reader needs."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest
from paths import REPO

from arena_kernel.errors import ArenaError
from arena_kernel.store.records import FORMAT, read_record

RECORD: dict[str, Any] = {
    "format": FORMAT,
    "run": {"id": 1, "key": "k", "name": "nim"},
    "game": "nim",
    "options": {"pile": 9},
    "id": 3,
    "index": 0,
    "session": 0,
    "seed": 11,
    "started_at": 1.5e9,
    "duration": 0.25,
    "sandbox": None,
    "seating": ["a", "b"],
    "result": {
        "ranks": [1, 2],
        "scores": None,
        "reason": "a took the last stone",
        "void": False,
        "disqualified": [],
        "details": {},
    },
    "extra": {},
    "faults": [{"kind": "timeout", "detail": "no reply in 1 s", "seat": 1, "at": 0.2}],
    "events": [
        {"t": 0.0, "kind": "send", "seat": 0, "text": "move 9", "elapsed": None, "cpu": None},
        {"t": 0.1, "kind": "recv", "seat": 0, "text": "take 2", "elapsed": 0.1, "cpu": 0.01},
    ],
}


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads((REPO / "docs" / "game-record.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)


def changed(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """RECORD with the field at ``path`` set to ``value`` (``...``: removed)."""
    record = copy.deepcopy(RECORD)
    *parents, last = path
    holder: Any = record
    for step in parents:
        holder = holder[step]
    if value is ...:
        del holder[last]
    else:
        holder[last] = value
    return record


def test_the_example_is_a_record_both_read(validator) -> None:
    validator.validate(RECORD)
    game, events, run = read_record(RECORD)
    assert game.game_id == 3 and len(events) == 2 and run["game_options"] == {"pile": 9}


WRONG = [
    (("run", "key"), ...),
    (("run", "id"), "1"),
    (("id",), 2.5),
    (("seed",), True),
    (("started_at",), "now"),
    (("sandbox",), 0),
    (("seating",), "a b"),
    (("seating", 1), 7),
    (("result", "ranks"), ...),
    (("result", "ranks", 0), "1"),
    (("result", "scores"), 3),
    (("result", "void"), 0),
    (
        (
            "result",
            "disqualified",
        ),
        [None],
    ),
    (("result", "details"), []),
    (("extra",), None),
    (("faults", 0, "seat"), "1"),
    (("faults", 0, "kind"), "nap"),
    (("faults", 0, "at"), ...),
    (("events",), {}),
    (("events", 1, "t"), None),
    (("events", 1, "seat"), False),
    (("events", 1, "text"), 5),
    (("events", 1, "elapsed"), "0.1"),
    (("events", 0, "cpu"), ...),
    (("format",), "arena-game-record/0"),
]


@pytest.mark.parametrize(("path", "value"), WRONG, ids=[".".join(map(str, p)) for p, _ in WRONG])
def test_a_field_of_the_wrong_kind_is_refused_by_both(validator, path, value) -> None:
    record = changed(path, value)
    assert not validator.is_valid(record)
    with pytest.raises(ArenaError, match=r"not (a whole )?an? arena game record|not a whole"):
        read_record(record)


def test_seats_out_of_the_game_are_refused() -> None:
    for path, value in [
        (("result", "ranks"), [1]),
        (("result", "disqualified"), [2]),
        (("faults", 0, "seat"), 5),
        (("result", "ranks"), [0, 1]),
    ]:
        with pytest.raises(ArenaError, match="not a whole arena game record"):
            read_record(changed(path, value))
