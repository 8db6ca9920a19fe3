"""The match file's schema: each key is declared once, as a field of the spec it fills.

A field of :class:`~arena_kernel.match.spec.MatchSpec` (or of
:class:`~arena_kernel.match.spec.BotSpec`, for a ``[[bots]]`` table) that a match file sets
is declared with :func:`declare`: an :class:`~arena_kernel.options.Option` (type,
default, accepted values, help text) and whether the value is part of the run's identity.
Everything else reads these declarations: the loader's list of allowed keys and its checks
of plain values, the spec's defaults, the run key, ``arena init``'s starter file and the
key table of the README (``python -m arena_kernel.match.schema --markdown`` prints it).

**The run key is versioned.** A run is found again by a hash of its identity fields (see
:func:`identity`). Each field that is part of the identity says in which form of the key
it joined (``keyed_since``): the fields of form 1, the form every stored run was first
keyed by, are in it at any value, and no field may ever join them (that would change every
stored key, and no stored run would resume). A field of a later form is in the key only
when its value differs from its declared default: a file that does not set it (every file
written before it existed) keeps its key; a file that sets it gets a run of its own. A key
added to the schema joins with ``keyed_since = RUN_KEY_VERSION + 1``, and that number
becomes :data:`RUN_KEY_VERSION`; the entries of a table key (``[clock]``, ``[limits]``)
join the same way (:func:`keyed_table`). For that to hold, a later field's default must be
what a file without the key loads to, never a value the loader computes (from the game,
the machine): :func:`declare` refuses one.
"""

from __future__ import annotations

import dataclasses
import sys
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena_kernel.options import Option, either, toml_value, type_name

_KEY = "arena_match_key"
"""The dataclass-field metadata entry that holds a field's :class:`Key`."""


RUN_KEY_VERSION = 2
"""The run key's latest form: the highest ``keyed_since`` of any field or table entry."""

FIRST_FORM = 1
"""The form of the key every stored run was first keyed by: its fields count at any value."""


@dataclass(frozen=True)
class Key:
    """A match-file key: its :class:`Option` and what only match-file keys have.

    ``name`` is the key as written when it is not the field's name; the spec holds the
    written value times ``unit`` (``max_message_kb`` -> bytes). ``keyed_since`` is the form
    of the run key the field joined in (:data:`FIRST_FORM` or later), ``None`` for a field
    that is not part of the run's identity. ``default_text`` says in
    words a default the loader computes (from the game, the file, the machine).
    ``registry`` names the kind of plugin a value names (``"codec"``: an installed codec).
    ``table`` declares the keys of a table (``[clock]``); ``items`` is the spec class whose
    declared fields are the keys of each table of an array (``[[bots]]``). ``keyed_as``
    turns the value into its form in the run key, where that form is older than the
    value's type (a table's entries: :func:`keyed_table`). ``example`` is a value a starter
    file shows for a key it leaves unset.
    """

    option: Option
    keyed_since: int | None
    name: str | None = None
    unit: int = 1
    default_text: str | None = None
    registry: str | None = None
    table: Mapping[str, Option] | None = None
    items: type | None = None
    keyed_as: Callable[[Any], Any] | None = None
    example: Any = None


def declare(
    option: Option, *, keyed_since: int | None, required: bool = False, **details: Any
) -> Any:
    """A dataclass field declared as a match-file key (see :class:`Key` for ``details``).

    Its default is the option's (times ``unit``); ``required`` fields have none.
    """
    key = Key(option, keyed_since, **details)
    if keyed_since is not None and keyed_since < FIRST_FORM:
        raise TypeError(f"keyed_since is a form of the run key, {FIRST_FORM} or later")
    if _joined_later(keyed_since) and (required or key.default_text is not None):
        raise TypeError(
            "a field that joined the run key after its first form needs a fixed default: a "
            "file without the key must load to it, so that runs stored before the key "
            "existed keep their keys"
        )
    metadata = {_KEY: key}
    if required:
        return dataclasses.field(metadata=metadata)
    default = option.default * key.unit if key.unit != 1 else option.default
    if isinstance(default, dict | list):
        return dataclasses.field(default_factory=lambda: type(default)(default), metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


@dataclass(frozen=True)
class Declared:
    """One declared field of a spec class: the field's name and the key's."""

    field: str
    name: str
    key: Key
    required: bool
    default: Any
    """The field's default (``None`` for a required field)."""


def declared(spec_class: type) -> tuple[Declared, ...]:
    """The match-file keys of ``spec_class``, in declaration order (a subclass's last)."""
    out = []
    for field in dataclasses.fields(spec_class):
        key = field.metadata.get(_KEY)
        if key is None:
            continue
        required = field.default is dataclasses.MISSING and (
            field.default_factory is dataclasses.MISSING
        )
        if field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        else:
            default = None if required else field.default
        out.append(Declared(field.name, key.name or field.name, key, required, default))
    return tuple(out)


def file_keys(spec_class: type) -> tuple[str, ...]:
    """The keys a file may write for ``spec_class``, in declaration order."""
    return tuple(entry.name for entry in declared(spec_class))


def _joined_later(keyed_since: int | None) -> bool:
    return keyed_since is not None and keyed_since > FIRST_FORM


def identity(spec: Any) -> dict[str, Any]:
    """The part of ``spec`` (a declared spec object) that identifies its run, by field
    name: every field of the key's first form, every later one away from its default, the
    tables of an array (``bots``) by their own identity."""
    payload: dict[str, Any] = {}
    for entry in declared(type(spec)):
        key = entry.key
        value = getattr(spec, entry.field)
        if key.keyed_since is None or (_joined_later(key.keyed_since) and value == entry.default):
            continue
        if key.items is not None:
            value = [identity(item) for item in value]
        elif key.keyed_as is not None:
            value = key.keyed_as(value)
        payload[entry.field] = value
    return payload


def keyed_table(
    entries: Mapping[str, Any], defaults: Mapping[str, Any], since: Mapping[str, int]
) -> dict[str, Any]:
    """A table key's entries as the run key holds them: an entry of the first form at any
    value, one that joined later (``since``: entry -> form) only away from its default."""
    return {
        name: value
        for name, value in entries.items()
        if since.get(name, FIRST_FORM) == FIRST_FORM or value != defaults[name]
    }


def file_value(value: Any) -> Any:
    """A spec's default as a file writes it: paths as strings, tuples as arrays."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def written_default(entry: Declared) -> Any:
    """The default as the file would write it (``None``: no fixed default to write)."""
    if entry.required or entry.key.default_text is not None:
        return None
    return file_value(entry.key.option.default)


def value_text(option: Option, key: Key | None = None) -> str:
    """What a key accepts, in words: ``an integer, at least 1``, ``an installed codec``."""
    if key is not None and key.registry is not None:
        kind = key.registry
        text = f"the names of installed {kind}s" if _is_list(option) else f"an installed {kind}"
    elif key is not None and key.items is not None:
        text = "an array of tables"
    elif option.choices is not None:
        return either(option.choices)
    else:
        text = type_name(option.value_type)
    return ", ".join([text, *option.notes()])


def _is_list(option: Option) -> bool:
    return typing.get_origin(option.value_type) is list


# -- the README's key table ----------------------------------------------------------------


def markdown(spec_class: type) -> str:
    """The key reference as a Markdown table, in declaration order: each key, then the keys
    of its table (``[clock] startup``) or of each table of its array (``[[bots]] name``),
    and the keys of their tables (``[bots.sandbox] network``)."""
    rows = ["| key | value | default | new run if changed | meaning |", "|---|---|---|---|---|"]
    for entry in declared(spec_class):
        key = entry.key
        header = _header(entry)
        changes = "no" if key.keyed_since is None else "yes"
        rows.append(
            _row(header, value_text(key.option, key), _default_text(entry), changes, key.option)
        )
        rows += _table_rows(header, key, changes)
        for item in declared(key.items) if key.items is not None else ():
            item_changes = "no" if item.key.keyed_since is None else changes
            rows.append(
                _row(
                    f"{header} {item.name}",
                    value_text(item.key.option, item.key),
                    _default_text(item),
                    item_changes,
                    item.key.option,
                )
            )
            rows += _table_rows(f"[{entry.name}.{item.name}]", item.key, item_changes)
    return "\n".join(rows) + "\n"


def _table_rows(header: str, key: Key, changes: str) -> list[str]:
    """A row per key of ``key``'s table; a key without a default has the table's."""
    rows = []
    for name, option in (key.table or {}).items():
        written = file_value(option.default)
        if written is None:
            default = key.default_text or "none"
        else:
            default = "none" if written in ([], {}) else toml_value(written)
        rows.append(_row(f"{header} {name}", value_text(option), default, changes, option))
    return rows


def _header(entry: Declared) -> str:
    if entry.key.items is not None:
        return f"[[{entry.name}]]"
    if entry.key.option.value_type is dict:
        return f"[{entry.name}.NAME]" if entry.name == "transport_options" else f"[{entry.name}]"
    return entry.name


def _default_text(entry: Declared) -> str:
    if entry.key.default_text is not None:
        return entry.key.default_text
    if entry.required:
        return "required"
    if entry.key.table is not None:
        return "as below"
    written = written_default(entry)
    return "none" if written in (None, [], {}) else toml_value(written)


def _row(header: str, value: str, default: str, changes: str, option: Option) -> str:
    cells = [f"`{header}`", value, default, changes, " ".join(option.help.split())]
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def _main(argv: list[str]) -> int:
    """``python -m arena_kernel.match.schema --markdown``: print the README's key table."""
    # Run as a script this module is __main__, a copy of the one the spec declares with.
    from arena_kernel.match import schema
    from arena_kernel.match.spec import MatchSpec

    if argv != ["--markdown"]:
        print("usage: python -m arena_kernel.match.schema --markdown", file=sys.stderr)
        return 2
    sys.stdout.write(schema.markdown(MatchSpec))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
