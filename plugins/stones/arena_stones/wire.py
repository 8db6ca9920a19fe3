"""The JSON messages of the Game of Stones protocol, both ways.

The contest engine sent every enum value (colours, move types) as a JSON string although
its document says integers, and its bots read either; arena sends integers by default and
strings behind the ``enums = "strings"`` option, and accepts both from bots. Coordinates
are integers (a numeric string is accepted too: it is unambiguous).
"""

from __future__ import annotations

from typing import Any

from arena_stones.engine import ANY_MOVE

Location = tuple[int, int] | None


class WireError(ValueError):
    """A reply that is not a move at all; the message says what is wrong with it."""


class Encoder:
    """Builds the engine's messages with enums as integers or as strings."""

    def __init__(self, strings: bool = False) -> None:
        self.strings = strings

    def enum(self, value: int) -> int | str:
        return str(value) if self.strings else value

    def color(self, color: int) -> dict[str, Any]:
        return {"Color": self.enum(color)}

    def request(self, matrix: list[list[int]], allowed: tuple[int, ...]) -> dict[str, Any]:
        return {"Board": {"state": matrix}, "AllowedMoves": [self.enum(t) for t in allowed]}

    def move(self, move_type: int, frm: Location, to: Location) -> dict[str, Any]:
        return {"Type": self.enum(move_type), "From": location(frm), "To": location(to)}

    def processed(
        self, player: int, move_type: int, frm: Location, to: Location, winner: int
    ) -> dict[str, Any]:
        return {
            "Player": self.enum(player),
            "Move": self.move(move_type, frm, to),
            "Winner": self.enum(winner),
        }


def location(xy: Location) -> dict[str, int] | None:
    return None if xy is None else {"X": xy[0], "Y": xy[1]}


def _integer(value: Any, what: str) -> int:
    if isinstance(value, bool):
        raise WireError(f"{what} must be an integer, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value)  # "-2", " 3 " (str.isdigit would also pass "--1" or "²")
        except ValueError:
            pass
    raise WireError(f"{what} must be an integer, not {value!r}")


def _location(message: dict[str, Any], key: str) -> Location:
    if key not in message:
        raise WireError(f"{key} is missing")
    value = message[key]
    if value is None:
        return None
    if not isinstance(value, dict) or "X" not in value or "Y" not in value:
        raise WireError(f'{key} must be null or {{"X": x, "Y": y}}, not {value!r}')
    return _integer(value["X"], f"{key}.X"), _integer(value["Y"], f"{key}.Y")


def parse_move(message: Any) -> tuple[int, Location, Location]:
    """``(type, from, to)`` of a move reply; raises :class:`WireError` for anything else.

    Only the shape is checked here; whether the move is legal is the engine's judgement.
    """
    if not isinstance(message, dict):
        raise WireError(f"a move must be a JSON object, not {message!r}")
    if "Type" not in message:
        raise WireError("Type is missing")
    move_type = _integer(message["Type"], "Type")
    if move_type not in ANY_MOVE:
        raise WireError(f"Type {move_type} is not a move type (0 Pass, 1 Attack, 2 Strengthen)")
    return move_type, _location(message, "From"), _location(message, "To")
