"""Records of named fields for the model's values that the reading commands make: a
dataclass costs more to make at import (its methods are written out and compiled) than
``arena standings`` or ``arena plugins`` spend using it, so these classes have the methods
their readers use, from their ``__slots__``, written once here."""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

_Frozen = TypeVar("_Frozen", bound="FrozenValue")

_set_field = object.__setattr__


class Value:
    """A record of the fields its ``__slots__`` name, in that order: equal to a record of
    the same class with equal fields, shown as ``Class(field=value, ...)``, unhashable (it
    may change: its ``__eq__`` leaves it no ``__hash__``), as a dataclass is."""

    __slots__: tuple[str, ...] = ()

    def field_values(self) -> tuple[Any, ...]:
        """The record's fields, in the order of ``__slots__``."""
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Value)
        return self.field_values() == other.field_values()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (type(self), self.field_values())


class FrozenValue(Value):
    """A :class:`Value` whose fields cannot be set once made (``__init__`` sets them with
    :func:`set_fields`), hashable by them, as a frozen dataclass is; :meth:`replace` makes
    a copy with some of them changed."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        return hash(self.field_values())

    def replace(self: _Frozen, **changes: Any) -> _Frozen:
        """A copy with the fields ``changes`` names set to its values (``__init__`` checks
        them, as ``dataclasses.replace`` would)."""
        return type(self)(
            **{**dict(zip(self.__slots__, self.field_values(), strict=True)), **changes}
        )


def set_fields(record: Value, **values: Any) -> None:
    """Set the fields of ``record`` (a frozen one too) from its ``__init__``."""
    for name, value in values.items():
        _set_field(record, name, value)


def _rebuilt(cls: type[Value], fields: tuple[Any, ...]) -> Value:
    """The record of class ``cls`` with ``fields`` (how a record is unpickled and copied)."""
    record = object.__new__(cls)
    set_fields(record, **dict(zip(cls.__slots__, fields, strict=True)))
    return record
