"""What :meth:`Store.results` reads each game into, made without the dataclass's
``__init__`` (:func:`stored_game`): the same value in every respect."""

from __future__ import annotations

import dataclasses

import pytest

from arena_kernel.store.outcomes import Result
from arena_kernel.store.sqlite import StoredGame, stored_game


def test_a_game_read_is_the_game_its_init_makes() -> None:
    result = Result(("a", "b"), (2, 1), (0.5, 1.0), frozenset({0}), ("timeout", None))
    read = stored_game(7, 3, result, True, "b wins", "bwrap")
    made = StoredGame(
        7,
        3,
        ("a", "b"),
        (2, 1),
        (0.5, 1.0),
        True,
        frozenset({0}),
        "b wins",
        first_faults=("timeout", None),
        sandbox="bwrap",
    )
    assert read == made and hash(read) == hash(made) and repr(read) == repr(made)
    every_field = {field.name: getattr(made, field.name) for field in dataclasses.fields(made)}
    assert vars(read) == every_field, "a field added to StoredGame is added there too"
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.void = False  # type: ignore[misc]
