"""``arena run --until TIME``: a duration, a time of day (the next to come) or a date and
time, in the machine's time zone unless it says its own; anything else, or a time past,
is a clear error."""

from __future__ import annotations

import datetime

import pytest

from arena_kernel.cli.league import parse_until
from arena_kernel.errors import ArenaError

ZONE = datetime.timezone(datetime.timedelta(hours=2))
NOW = datetime.datetime(2025, 6, 1, 18, 30, tzinfo=ZONE)


@pytest.mark.parametrize(
    ("text", "then"),
    [
        ("90m", NOW + datetime.timedelta(minutes=90)),
        ("2h", NOW + datetime.timedelta(hours=2)),
        ("1d 12h", NOW + datetime.timedelta(days=1, hours=12)),
        ("45s", NOW + datetime.timedelta(seconds=45)),
        ("19:00", NOW.replace(hour=19, minute=0)),
        ("18:00", NOW.replace(hour=18, minute=0) + datetime.timedelta(days=1)),
        ("2025-06-02 08:15", datetime.datetime(2025, 6, 2, 8, 15, tzinfo=ZONE)),
        ("2025-06-02T08:15+00:00", datetime.datetime(2025, 6, 2, 8, 15, tzinfo=datetime.UTC)),
    ],
)
def test_times_that_are_understood(text: str, then: datetime.datetime) -> None:
    assert parse_until(text, NOW) == then.timestamp()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("soon", "--until soon: not a time: give a duration (90m, 2h, 1d)"),
        ("2h30", "not a time"),
        ("", "not a time"),
        ("2025-06-01 12:00", "--until 2025-06-01 12:00: that time has passed"),
    ],
)
def test_anything_else_is_an_error(text: str, message: str) -> None:
    with pytest.raises(ArenaError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_until(text, NOW)
