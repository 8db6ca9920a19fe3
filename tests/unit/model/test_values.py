"""The model's records (:mod:`arena_kernel.model.values`) behave as the dataclasses of the
same fields would: made by position and by keyword with the same defaults, equal, hashed
(the frozen ones), shown, refused a change (the frozen ones), copied and pickled."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from arena_kernel.model import Estimate, RunInfo, Standings


@dataclasses.dataclass(frozen=True)
class EstimateFields:
    value: float
    low: float | None = None
    high: float | None = None


@dataclasses.dataclass
class StandingsFields:
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    notes: list[str] = dataclasses.field(default_factory=list)
    estimate: str = ""
    estimates: dict[str, Estimate] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class RunInfoFields:
    run_id: int
    key: str
    name: str
    game: str
    total_games: int
    done_games: int
    database: str
    sandbox: str | None = dataclasses.field(default=None, kw_only=True)
    sandbox_note: str | None = dataclasses.field(default=None, kw_only=True)
    clock_note: str | None = dataclasses.field(default=None, kw_only=True)
    executor_note: str | None = dataclasses.field(default=None, kw_only=True)


RUN = (7, "k", "nim", "nim", 10, 3, "db.sqlite")

MADE = [
    (Estimate(1.5), EstimateFields(1.5)),
    (Estimate(1.5, low=1.0, high=2.0), EstimateFields(1.5, low=1.0, high=2.0)),
    (Standings("Wins", ("bot",), [("a",)]), StandingsFields("Wins", ("bot",), [("a",)])),
    (
        Standings("Elo", ("bot",), [], ["a note"], "Elo", {"a": Estimate(1.0)}),
        StandingsFields("Elo", ("bot",), [], ["a note"], "Elo", {"a": Estimate(1.0)}),
    ),
    (RunInfo(*RUN), RunInfoFields(*RUN)),
    (
        RunInfo(*RUN, sandbox="bwrap", clock_note="c"),
        RunInfoFields(*RUN, sandbox="bwrap", clock_note="c"),
    ),
]


def as_dataclass_shows(fields: Any, record: Any) -> str:
    """``repr(fields)``, the dataclass's, with its class's name as the record's."""
    return repr(fields).replace(type(fields).__name__, type(record).__name__, 1)


@pytest.mark.parametrize(("record", "fields"), MADE, ids=lambda made: type(made).__name__)
def test_a_record_is_its_dataclass_field_for_field(record: Any, fields: Any) -> None:
    names = [field.name for field in dataclasses.fields(fields)]
    assert list(record.__slots__) == names
    assert record.field_values() == tuple(getattr(fields, name) for name in names)
    assert repr(record) == as_dataclass_shows(fields, record)
    assert not hasattr(record, "__dict__")


@pytest.mark.parametrize(("record", "fields"), MADE, ids=lambda made: type(made).__name__)
def test_a_record_equals_one_of_its_class_with_the_same_fields(record: Any, fields: Any) -> None:
    same = copy.copy(record)
    assert same == record and same is not record
    assert pickle.loads(pickle.dumps(record)) == record
    assert copy.deepcopy(record) == record
    assert record != fields, "a record of another class is never equal"
    other = copy.copy(record)
    if isinstance(record, Standings):
        other.title = "other"
    else:
        other = other.replace(**{record.__slots__[0]: 99})
    assert other != record


def test_a_frozen_record_is_hashed_by_its_fields_and_refuses_a_change() -> None:
    run = RunInfo(*RUN, sandbox="none")
    assert hash(run) == hash(RunInfo(*RUN, sandbox="none"))
    assert hash(Estimate(1.0, 0.5)) == hash(Estimate(1.0, 0.5))
    with pytest.raises(AttributeError, match="cannot assign to field 'done_games'"):
        run.done_games = 4  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot delete field 'low'"):
        del Estimate(1.0).low  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(Standings("Wins", (), []))


def test_replace_changes_only_the_fields_named() -> None:
    run = RunInfo(*RUN, sandbox="bwrap")
    later = run.replace(done_games=5, clock_note="busy")
    assert later == RunInfo(*RUN[:5], 5, RUN[6], sandbox="bwrap", clock_note="busy")
    assert run.done_games == 3, "the record replaced is as it was"
    with pytest.raises(TypeError):
        run.replace(games=5)


def test_a_table_made_without_notes_has_its_own_list() -> None:
    first, second = Standings("Wins", (), []), Standings("Wins", (), [])
    first.notes.append("one void game not counted")
    assert second.notes == [] and second.estimates == {}
