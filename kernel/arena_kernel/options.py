"""How a value a match file may set is declared: one type for the match file's own keys, a
game's ``[game_options]`` and a transport's ``[transport_options.NAME]``.

A declaration says the value's type, its default, the values it accepts and what it means,
so that checking a value, writing a starter file and documenting the key all read the same
facts. Messages name the value as written in TOML (``seed must be an integer, not a string
("x")``): the match file is where the value came from.
"""

from __future__ import annotations

import datetime
import json
import operator
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from arena_kernel.errors import OptionError, did_you_mean


@dataclass(frozen=True)
class Option:
    """One declared value: its default, help text and accepted values.

    The type is ``type`` when given, else the default's type: an ``int`` default accepts
    nothing but integers, a ``float`` default accepts integers too (as floats), a ``None``
    default needs ``type`` to accept anything. ``type`` may be ``list[str]`` (an array of
    strings) or a union such as ``int | None``. ``choices`` restricts the value to a set;
    ``minimum`` and ``maximum`` bound it (inclusive), ``above`` bounds it from below
    (exclusive: ``above=0`` for a positive time limit).

    ``keyed_at_default=False`` marks a game option declared after runs of its game were
    stored: a match file that leaves it at its default keeps it out of its run key (the
    match's game options hold it only when set otherwise), so those runs keep resuming.
    """

    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    type: Any = None
    above: float | None = None
    keyed_at_default: bool = True

    @property
    def value_type(self) -> Any:
        if self.type is not None:
            return self.type
        return Path if isinstance(self.default, Path) else type(self.default)

    def check(self, name: str, value: Any) -> Any:
        """``value`` as the declaration accepts it (an integer given for a float becomes a
        float); :class:`~arena_kernel.errors.OptionError` naming ``name`` otherwise."""
        given, value = value, _checked_type(name, value, self.value_type)
        if self.choices is not None and value not in self.choices:
            near = did_you_mean(value, map(str, self.choices)) if isinstance(value, str) else ""
            raise OptionError(
                name, f"{name} must be {either(self.choices)}, not {toml_value(value)}{near}"
            )
        for bound, fits, words in (
            (self.minimum, operator.ge, "at least"),
            (self.maximum, operator.le, "at most"),
            (self.above, operator.gt, "above"),
        ):
            if bound is not None and isinstance(value, int | float) and not fits(value, bound):
                raise OptionError(
                    name, f"{name} must be {words} {_number(bound)}, not {toml_value(given)}"
                )
        return value

    def notes(self) -> list[str]:
        """The accepted values in words, for starter files and the key reference."""
        notes = []
        if self.choices is not None:
            notes.append("one of " + ", ".join(toml_value(choice) for choice in self.choices))
        for bound, words in ((self.minimum, "at least"), (self.above, "above")):
            if bound is not None:
                notes.append(f"{words} {_number(bound)}")
        if self.maximum is not None:
            notes.append(f"at most {_number(self.maximum)}")
        return notes


class Configurable:
    """A plugin class the match file configures with a table of its own
    (``[transport_options.NAME]``, ``[executor_options.NAME]``): it declares its options in
    :attr:`options`, and an instance's :attr:`config` holds them checked, defaults filled in."""

    name: ClassVar[str]
    kind: ClassVar[str]
    """What the class is, in messages: ``transport "tcp" has no option ...``."""
    options: ClassVar[Mapping[str, Option | Any]] = {}
    """Option name -> :class:`Option`, as a game declares its options; the match file may
    set them. A bare value is an option with that default and no help (how transports
    declared them first)."""

    def __init__(self, **options: Any) -> None:
        owner = f'{self.kind} "{self.name}"'
        self.config = check_options(self.declared_options(), options, owner)

    @classmethod
    def declared_options(cls) -> dict[str, Option]:
        """:attr:`options` as declarations."""
        return {
            key: value if isinstance(value, Option) else Option(value, "")
            for key, value in cls.options.items()
        }


def check_options(
    declared: Mapping[str, Option], given: Mapping[str, Any], owner: str
) -> dict[str, Any]:
    """Every declared option, given or at its default; an unknown key is an error that
    names ``owner`` (``game "nim"``) with a "did you mean"."""
    for key in given:
        if key not in declared:
            raise OptionError(key, f'{owner} has no option "{key}"{did_you_mean(key, declared)}')
    return {
        key: option.check(key, given[key]) if key in given else option.default
        for key, option in declared.items()
    }


def _checked_type(name: str, value: Any, expected: Any) -> Any:
    if _is_union(expected):
        fitting = [member for member in typing.get_args(expected) if _fits(value, member)]
        expected = fitting[0] if fitting else expected
    if _accepts(expected, float) and _is_int(value):
        return float(value)
    if not _fits(value, expected):
        raise OptionError(
            name,
            f"{name} must be {type_name(expected)}, not {described(value)}",
        )
    if typing.get_origin(expected) is list:
        (item_type,) = typing.get_args(expected)
        for i, item in enumerate(value):
            if not _fits(item, item_type):
                raise OptionError(
                    name,
                    f"{name}: item {i + 1} must be {type_name(item_type)}, not {described(item)}",
                )
    return value


def _fits(value: Any, expected: Any) -> bool:
    """Whether ``value`` has the ``expected`` type (a bool is no integer here)."""
    if _is_union(expected):
        return any(_fits(value, member) for member in typing.get_args(expected))
    origin = typing.get_origin(expected) or expected
    if origin is type(None):
        return value is None
    if origin is Path:
        return isinstance(value, str | Path)
    if origin is float:
        return isinstance(value, float) or _is_int(value)
    if isinstance(value, bool) != (origin is bool):
        return False
    return isinstance(value, origin)


def _accepts(expected: Any, member: type) -> bool:
    return expected is member or (_is_union(expected) and member in typing.get_args(expected))


def _is_union(expected: Any) -> bool:
    return typing.get_origin(expected) in (typing.Union, types.UnionType)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_TYPE_NAMES: dict[Any, str] = {
    bool: "true or false",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "an array",
    tuple: "an array",
    dict: "a table",
    Path: "a path",
}


def type_name(expected: Any) -> str:
    """A declared type in words: ``int`` is "an integer", ``list[str]`` "an array of
    strings", ``int | list[int]`` "an integer or an array of integers"."""
    if _is_union(expected):
        members = [m for m in typing.get_args(expected) if m is not type(None)]
        return " or ".join(type_name(member) for member in members)
    if typing.get_origin(expected) in (list, tuple):
        item = type_name(typing.get_args(expected)[0]).removeprefix("an ").removeprefix("a ")
        return f"an array of {_plural(item)}"
    return _TYPE_NAMES.get(expected, f"a {getattr(expected, '__name__', expected)}")


def _plural(noun: str) -> str:
    return {"true or false": "booleans"}.get(noun, noun if noun.endswith("s") else noun + "s")


def toml_type_name(value: Any) -> str:
    """What a parsed TOML value is, as a person reading the file would say it."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string"}
    names |= {list: "an array", tuple: "an array", dict: "a table"}
    if type(value) in names:
        return names[type(value)]
    if isinstance(value, datetime.date | datetime.time):
        return "a date/time"
    return f"a {type(value).__name__}"


def described(value: Any) -> str:
    """A value's type and, for a scalar, the value as written in TOML: ``a string ("x")``."""
    if isinstance(value, bool | int | float | str):
        return f"{toml_type_name(value)} ({toml_value(value)})"
    return toml_type_name(value)


def toml_value(value: Any) -> str:
    """A scalar as it is written in TOML: ``"x"``, ``true``, ``3``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def either(choices: Iterable[Any]) -> str:
    """``"a" or "b"``, ``"a", "b" or "c"``."""
    shown = [toml_value(choice) for choice in choices]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _number(bound: float) -> str:
    return str(int(bound)) if float(bound).is_integer() else str(bound)
