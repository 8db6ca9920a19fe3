"""The JSON messages of the Game of Stones protocol, both ways.

The protocol document says enums (colours, move types) are integers and a pass carries
``"From": null, "To": null``; arena speaks that by default. The contest engine differed in
two ways its bots were built against, and ``Encoder(contest=True)`` (the ``enums =
"strings"`` option) speaks like it: every enum value a JSON string, and a pass echoed as
``{"Type": "0"}`` with no ``From``/``To`` keys. From bots both forms are accepted, and a
pass may leave ``From`` and ``To`` out: the contest's Java bots wrote their replies with
Gson, which omits null fields. Coordinates are integers (a numeric string is accepted
too: it is unambiguous).
"""

from __future__ import annotations

from typing import Any

from arena_stones.rules import ANY_MOVE, MOVE_NAMES, PASS

Location = tuple[int, int] | None


class WireError(ValueError):
    """A reply that is not a move at all; the message says what is wrong with it."""


class Encoder:
    """Builds the engine's messages as the protocol document has them, or, with
    ``contest``, as the contest engine sent them (see the module's docstring)."""

    def __init__(self, contest: bool = False) -> None:
        self.contest = contest

    def enum(self, value: int) -> int | str:
        return str(value) if self.contest else value

    def color(self, color: int) -> dict[str, Any]:
        return {"Color": self.enum(color)}

    def request(self, matrix: list[list[int]], allowed: tuple[int, ...]) -> dict[str, Any]:
        moves = [str(t) for t in allowed] if self.contest else list(allowed)
        return {"Board": {"state": matrix}, "AllowedMoves": moves}

    def move(self, move_type: int, frm: Location, to: Location) -> dict[str, Any]:
        if self.contest:
            if move_type == PASS:
                return {"Type": str(move_type)}
            return {"Type": str(move_type), "From": location(frm), "To": location(to)}
        return {
            "Type": move_type,
            "From": None if frm is None else {"X": frm[0], "Y": frm[1]},
            "To": None if to is None else {"X": to[0], "Y": to[1]},
        }

    def processed(
        self, player: int, move_type: int, frm: Location, to: Location, winner: int
    ) -> dict[str, Any]:
        if self.contest:
            return {
                "Player": str(player),
                "Move": self.move(move_type, frm, to),
                "Winner": str(winner),
            }
        return {"Player": player, "Move": self.move(move_type, frm, to), "Winner": winner}


def location(xy: Location) -> dict[str, int] | None:
    return None if xy is None else {"X": xy[0], "Y": xy[1]}


def _integer(value: Any, what: str, part: str = "") -> int:
    """``value`` as an int; ``what + part`` names it in the error, joined only then (every
    reply and every echo is parsed, and nearly all are plain ints)."""
    if type(value) is int or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, str):
        try:
            return int(value)  # "-2", " 3 " (str.isdigit would also pass "--1" or "²")
        except ValueError:
            pass
    raise WireError(f"{what}{part} must be an integer, not {value!r}")


def _location(message: dict[str, Any], key: str, move_type: int) -> Location:
    """The location under ``key``; a pass may leave the key out (Gson's null)."""
    if key not in message:
        if move_type == PASS:
            return None
        raise WireError(f"{MOVE_NAMES[move_type]} without {key}: only a pass may leave it out")
    value = message[key]
    if value is None:
        return None
    if not isinstance(value, dict) or "X" not in value or "Y" not in value:
        raise WireError(f'{key} must be null or {{"X": x, "Y": y}}, not {value!r}')
    return _integer(value["X"], key, ".X"), _integer(value["Y"], key, ".Y")


_ODD: Any = object()
"""A location :func:`_plain_location` leaves to :func:`_location`."""


def _plain_location(value: Any) -> Any:
    """A null location, or ``{"X": int, "Y": int}`` as ``(x, y)``; :data:`_ODD` for anything
    else (a missing key, a string coordinate, another shape)."""
    if value is None:
        return None
    if type(value) is dict and len(value) == 2:
        x, y = value.get("X"), value.get("Y")
        if type(x) is int and type(y) is int:
            return x, y
    return _ODD


def parse_move(message: Any) -> tuple[int, Location, Location]:
    """``(type, from, to)`` of a move reply; raises :class:`WireError` for anything else.

    Only the shape is checked here; whether the move is legal is the engine's judgement
    (a pass that names a location, or an attack with a null one, is a move it rejects).
    """
    if type(message) is dict and len(message) == 3:
        # The usual reply, an int Type and null or {"X": int, "Y": int} locations, read at
        # once; anything else is read (and rejected, or not) step by step below.
        move_type = message.get("Type")
        frm = _plain_location(message.get("From", message))
        to = _plain_location(message.get("To", message))
        if type(move_type) is int and move_type in ANY_MOVE and frm is not _ODD and to is not _ODD:
            return move_type, frm, to
    if not isinstance(message, dict):
        raise WireError(f"a move must be a JSON object, not {message!r}")
    if "Type" not in message:
        raise WireError("Type is missing")
    move_type = _integer(message["Type"], "Type")
    if move_type not in ANY_MOVE:
        raise WireError(f"Type {move_type} is not a move type (0 Pass, 1 Attack, 2 Strengthen)")
    return move_type, _location(message, "From", move_type), _location(message, "To", move_type)
