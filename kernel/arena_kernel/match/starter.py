"""The commented starter match file that ``arena init GAME`` writes.

It is the documentation people actually read: every declared key of the match file
(:mod:`arena_kernel.match.schema`) appears with its help text and its default, or the
game's value where the game decides it, then the game's options with their help, and the
game's built-in bots ready to play, so that a freshly written file runs as it is.
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import tomli_w

from arena_kernel.games.base import Game
from arena_kernel.match.loader import default_scorers
from arena_kernel.match.schema import Declared, declared, written_default
from arena_kernel.match.spec import MatchSpec
from arena_kernel.options import Option
from arena_kernel.registries.registry import Registries, Registry

MAX_LISTED_BOTS = 4
"""Up to this many built-in bots are all written out; beyond, the rest are only named."""

WIDTH = 88
"""Comment lines are wrapped to this width."""


@dataclass(frozen=True)
class _ForThisGame:
    """What the starter says about a key for this game: a note, and the value to write
    when it is the game's rather than the schema's (commented out: an override)."""

    note: str = ""
    value: Any = None
    commented: bool = False


def starter_file(
    game_name: str,
    registries: Registries,
    plugins: Sequence[str] = (),
    schema: type[MatchSpec] = MatchSpec,
) -> str:
    """A valid, commented match file for ``game_name``, every key of ``schema`` in it.

    ``plugins`` are the plugin modules loaded by hand (``arena init -p MODULE``); they are
    written into the file so that it runs as it is. An unknown game raises
    :class:`~arena_kernel.errors.PluginError` naming the installed ones.
    """
    game_cls: type[Game[Any]] = registries.games.cls(game_name)
    seats = min(game_cls.seats)
    here = _for_this_game(game_cls, seats, registries, plugins)
    entries = declared(schema)
    # TOML wants the plain keys before the first table, whatever the declaration order.
    plain = [e for e in entries if e.key.items is None and e.key.option.value_type is not dict]
    tables = [e for e in entries if e.key.items is None and e.key.option.value_type is dict]
    arrays = [e for e in entries if e.key.items is not None]
    parts = [_heading(game_cls, entries)]
    parts += [_plain(entry, here.get(entry.field, _ForThisGame())) for entry in plain]
    parts += [_table(entry, game_cls, registries) for entry in tables]
    parts += [_bots(entry, game_cls, seats, registries) for entry in arrays]
    return "\n\n".join(part.strip("\n") for part in parts) + "\n"


def _for_this_game(
    game_cls: type[Game[Any]], seats: int, registries: Registries, plugins: Sequence[str]
) -> dict[str, _ForThisGame]:
    name = game_cls.name
    scorers = list(default_scorers((seats,), registries))
    supported = ", ".join(str(n) for n in sorted(game_cls.seats))
    return {
        "game": _ForThisGame(f"installed games: {_names(registries.games)}", name),
        "seats": _ForThisGame(f"{name} supports {supported}", seats),
        "codec": _ForThisGame(
            f"installed codecs: {_names(registries.codecs)}", game_cls.codec, commented=True
        ),
        "transport": _ForThisGame(
            f"installed transports: {_names(registries.transports)}",
            game_cls.transport,
            commented=True,
        ),
        "scorers": _ForThisGame(
            f"installed scorers: {_names(registries.scorers)}",
            scorers or ["wins"],
            commented=not scorers,
        ),
        "plugins": _ForThisGame(value=list(plugins) or None),
    }


def _heading(game_cls: type[Game[Any]], entries: Sequence[Declared]) -> str:
    name = game_cls.name
    summary = f": {_first_line(game_cls.summary)}" if game_cls.summary else ""
    required = [_shown(e) for e in entries if e.required and e.key.default_text is None]
    return "\n".join(
        [
            f"# Match file for {name}{summary}",
            f"# Written by `arena init {name}`; play it with `arena run FILE`.",
            *_comment(
                f"Only {' and '.join(required)} are required: every other key shows its "
                "default (or the game's) and may be deleted."
            ),
        ]
    )


def _shown(entry: Declared) -> str:
    return f"the [[{entry.name}]]" if entry.key.items is not None else f"`{entry.name}`"


def _plain(entry: Declared, here: _ForThisGame) -> str:
    key = entry.key
    notes = key.option.notes()
    if key.default_text is not None:
        notes.append(f"default: {key.default_text}")
    if here.note:
        notes.append(here.note)
    lines = _comment(key.option.help)
    if notes:
        lines += _comment(f"({'; '.join(notes)})")
    value = here.value if here.value is not None else written_default(entry)
    if value is not None and value not in ([], {}):
        lines.append(("# " if here.commented else "") + _kv(entry.name, value))
    else:
        example = key.example if key.example is not None else "..."
        lines.append(f"# {_kv(entry.name, example)}")
    return "\n".join(lines)


def _table(entry: Declared, game_cls: type[Game[Any]], registries: Registries) -> str:
    """A table: the game's options, the transports' options, or keys the schema declares."""
    help_lines = _comment(entry.key.option.help)
    if entry.field == "game_options":
        return "\n".join([*help_lines, *_game_options(entry.name, game_cls)])
    if entry.field == "transport_options":
        return "\n".join([*help_lines, *_plugin_options(entry.name, registries.transports)])
    if entry.field == "executor_options":
        return "\n".join([*help_lines, *_plugin_options(entry.name, registries.executors)])
    values = dataclasses.asdict(game_cls.clocks) if entry.field == "clock" else {}
    # A table that is off unless written ([sprt]) is shown commented out, with its example.
    opt_in = entry.default == {} and isinstance(entry.key.example, dict)
    if opt_in:
        values = dict(entry.key.example)
    mark = "# " if opt_in else ""
    lines = [*help_lines, f"{mark}[{entry.name}]"]
    for name, option in (entry.key.table or {}).items():
        help_text = " ".join([option.help, *(f"({n})" for n in option.notes())])
        lines += _comment(help_text)
        value = values.get(name, option.default)
        lines.append(mark + _kv(name, 0 if value is None else value))
    return "\n".join(lines)


def _plugin_options(table: str, registry: Registry) -> list[str]:
    """Each installed transport's (executor's) declared options, commented out: overrides,
    at their defaults."""
    lines = []
    for name in sorted(registry):
        options = registry[name].cls.declared_options()
        if options:
            lines.append(f"# [{table}.{name}]")
            for key, option in options.items():
                lines += [f"# {line}".rstrip() for line in _option_help(option)]
                if option.default is None:
                    lines.append(f"# {_key(key)} = ...  (not set by default)")
                else:
                    lines.append(f"# {_kv(key, option.default)}")
    return lines or [f"# [{table}.NAME]", '# option = "value"']


def _game_options(table: str, game_cls: type[Game[Any]]) -> list[str]:
    """The game's own declarations: each option with its help, at its default."""
    if not game_cls.options:
        return [f"# The game {game_cls.name} has no options."]
    # Table-valued options are sub-tables, which TOML wants after the plain keys.
    ordered = sorted(game_cls.options.items(), key=lambda item: isinstance(item[1].default, dict))
    lines = [f"# The options of {game_cls.name}, at their defaults:", f"[{table}]"]
    for key, option in ordered:
        lines += [f"# {line}".rstrip() for line in _option_help(option)]
        if option.default is None:
            lines.append(f"# {_key(key)} = ...  (not set by default)")
        elif isinstance(option.default, dict):
            lines.append(tomli_w.dumps({table: {key: option.default}}).rstrip("\n"))
        else:
            lines.append(_kv(key, option.default))
    return lines


def _option_help(option: Option) -> list[str]:
    lines = option.help.splitlines()
    notes = option.notes()
    if notes:
        lines.append(f"({'; '.join(notes)})")
    return lines


def _bots(entry: Declared, game_cls: type[Game[Any]], seats: int, registries: Registries) -> str:
    needed = max(seats, 2)
    builtins = list(game_cls.bots)
    listed = builtins[: max(needed, MAX_LISTED_BOTS)]
    lines = _comment(entry.key.option.help)
    assert entry.key.items is not None
    lines.append(f"# The keys of a [[{entry.name}]] table:")
    for item in declared(entry.key.items):
        lines += _comment(f"{item.name}: {item.key.option.help}", indent="#   ")
        for name, option in (item.key.table or {}).items():
            lines += _comment(f"{name}: {option.help}", indent="#     ")
    if not builtins:
        lines.append(
            f"# The game {game_cls.name} has no built-in bots: point cmd at your programs."
        )
        for n in range(1, needed + 1):
            lines += ["", f"[[{entry.name}]]", _kv("name", f"bot-{n}")]
            lines.append(_kv("cmd", ["python3", f"bot{n}.py"]))
    taken: set[str] = set()
    for n in range(max(len(listed), needed) if listed else 0):
        builtin = listed[n % len(listed)]
        name = _unique(builtin, taken)
        summary = _first_line(game_cls.bots[builtin].summary)
        lines += ["", f"[[{entry.name}]]", _kv("name", name)]
        lines.append(_kv("builtin", builtin) + (f"  # {summary}" if summary else ""))
        if game_cls.bots[builtin].inproc is not None:
            lines.append("# inproc = true  # run inside the arena process: much faster")
    rest = [name for name in builtins if name not in listed]
    if rest:
        lines += ["", "# Other built-in bots:"]
        lines += [f"#   {name}: {_first_line(game_cls.bots[name].summary)}" for name in rest]
    examples = {item.name: item.key.example for item in declared(entry.key.items)}
    lines += ["", "# Your own program:", f"# [[{entry.name}]]", '# name = "mine"']
    lines += [f"# {_kv(key, examples[key])}" for key in ("cmd", "env", "cwd", "sandbox")]
    lines += ["", "# A bot started by someone else, which connects to the arena by itself:"]
    lines += [f"# [[{entry.name}]]", '# name = "remote"', "# connect = true"]
    if "tcp" in registries.transports:
        lines.append('# transport = "tcp"')
        lines.append("# Its seat takes the first connection no bot of the arena made; bind it:")
        lines += [f"# {_kv(key, examples[key])}" for key in ("port", "peer")]
    return "\n".join(lines)


def _comment(text: str, indent: str = "# ") -> list[str]:
    """``text`` as comment lines; lines after the first of an indented item go deeper."""
    follow = indent if indent == "# " else indent + "  "
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=indent,
        subsequent_indent=follow,
        break_long_words=False,
        break_on_hyphens=False,
    )


def _unique(name: str, taken: set[str]) -> str:
    """``name``, or ``name-2``, ``name-3``...: the same built-in bot may fill two seats."""
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}-{n}"
    taken.add(candidate)
    return candidate


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def _names(registry: Registry) -> str:
    return ", ".join(sorted(registry)) or "none"


def _kv(key: str, value: Any) -> str:
    """``key = value`` as valid TOML; short arrays stay on one line (tomli_w splits them)."""
    if _flat(value):
        return f"{_key(key)} = {_value(value)}"
    if isinstance(value, dict):
        return (
            f"{_key(key)} = {{ {', '.join(f'{_key(k)} = {_value(v)}' for k, v in value.items())} }}"
        )
    if value == "...":
        return f"{_key(key)} = ..."
    return tomli_w.dumps({key: value}).rstrip("\n")


def _key(key: str) -> str:
    return tomli_w.dumps({key: 0}).removesuffix(" = 0\n")


def _value(value: Any) -> str:
    if _flat(value):
        return f"[{', '.join(_value(v) for v in value)}]"
    return tomli_w.dumps({"v": value}).removeprefix("v = ").rstrip("\n")


def _flat(value: Any) -> bool:
    """An array of plain values, which stays on one line."""
    return isinstance(value, list) and not any(isinstance(v, dict | list) for v in value)
