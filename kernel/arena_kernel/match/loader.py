"""Reading a TOML match file into a validated :class:`~arena_kernel.match.spec.MatchSpec`.

A match file says which game to play, between which bots, how often and under which
limits. Only ``game`` and the ``[[bots]]`` (at least one per seat) are required::

    game = "nim"
    rounds = 10

    [[bots]]
    name = "random"
    builtin = "random"

    [[bots]]
    name = "mine"
    cmd = ["python3", "my_bot.py"]

The keys, their types, defaults and meaning are declared once, as the fields of
:class:`~arena_kernel.match.spec.MatchSpec` and :class:`~arena_kernel.match.spec.BotSpec`
(:mod:`arena_kernel.match.schema`); the README's key table is printed from them by
``python -m arena_kernel.match.schema --markdown``, and ``arena init GAME`` writes them
all into a starter file. This module reads every declared key by its declaration (type,
accepted values, ``registry``, paths relative to the file) and adds what no declaration
says: defaults taken from the game, the file or the machine, and the checks that involve
several keys (a bot needs one of ``cmd``, ``builtin`` or ``connect``; ``rounds`` or
``games``; a connect bot's ``port`` of its own; a bot's ``[bots.sandbox] writable`` paths
inside its ``cwd``). The paths of ``[sandbox]`` tables must exist when the file is read:
a sandbox cannot bind a missing path.

The game's options and a transport's options live in ``[game_options]`` and
``[transport_options.NAME]`` rather than ``[game]`` and ``[transport.NAME]`` because TOML
cannot have both ``game = "nim"`` and a ``[game]`` table in one file.

Every problem is reported as one :class:`~arena_kernel.errors.MatchFileError` naming the file,
the line when it can be found, the key and what is wrong; unknown keys are errors
everywhere (with a "did you mean"). Messages count bots from 1: ``bots[2]`` is the second.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from arena_kernel.errors import MatchFileError, OptionError, PluginError, did_you_mean
from arena_kernel.games.base import Game
from arena_kernel.match.schema import Declared, declared, file_keys
from arena_kernel.match.spec import (
    CLOCK_KEYS,
    DYNAMIC_FORMATS,
    KNOCKOUT_KEYS,
    LIMIT_KEYS,
    SPRT_KEYS,
    BotSpec,
    MatchSpec,
)
from arena_kernel.options import Configurable, Option, check_options, described
from arena_kernel.registries.registry import Registries, Registry
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.sandbox.settings import BOT_SANDBOX_KEYS, SANDBOX_KEYS, SandboxSettings

KeyPath = tuple[str | int, ...]
"""Where a value sits in the file: ``("bots", 1, "cmd")`` is the second bot's ``cmd``."""


def load_match(
    path: Path,
    registries_for: Callable[[tuple[str, ...]], Registries],
    schema: type[MatchSpec] = MatchSpec,
) -> MatchSpec:
    """Read and validate a match file into a ``schema`` (:class:`MatchSpec`, or a subclass
    that declares more keys).

    The file's own ``plugins`` are read first and handed to ``registries_for``, because
    they may provide the very game, codec or transport the rest of the file names.
    """
    raw, text = read_toml(path)
    plugins = read_plugins(raw, path, text)
    try:
        registries = registries_for(plugins)
    except PluginError as exc:
        raise _Checker(path, text).error(("plugins",) if plugins else (), str(exc)) from None
    return validate(raw, path, text, registries, schema)


def read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """The parsed file and its text (kept to point error messages at lines)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MatchFileError(f"{path}: no such match file") from None
    except IsADirectoryError:
        raise MatchFileError(f"{path}: is a folder, not a match file") from None
    except UnicodeDecodeError:
        raise MatchFileError(f"{path}: not a text file (it is not valid UTF-8)") from None
    except OSError as exc:
        raise MatchFileError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        raise MatchFileError(_toml_error(path, text, str(exc))) from None


_TABLE_HINTS = {
    "game": "the game's options go in [game_options]",
    "transport": "a transport's options go in [transport_options.NAME]",
}
"""Tables people will write next to ``game = ...``/``transport = ...``, which TOML forbids."""


def _toml_error(path: Path, text: str, message: str) -> str:
    """Put tomllib's "(at line L, column C)" in front, where all our messages say where."""
    found = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message, re.DOTALL)
    if found:
        what, line, column = found.groups()
        lines = text.splitlines()
        header = _HEADER.match(lines[int(line) - 1]) if int(line) <= len(lines) else None
        table = _header_parts(header.group(1)) if header else ()
        hint = _TABLE_HINTS.get(table[0]) if table else None
        hint = f" ({hint})" if hint else ""
        return f"{path}, line {line}, column {column}: invalid TOML: {what}{hint}"
    found = re.fullmatch(r"(.*) \(at end of document\)", message, re.DOTALL)
    if found:
        return f"{path}, at the end: invalid TOML: {found.group(1)}"
    return f"{path}: invalid TOML: {message}"


def read_plugins(raw: dict[str, Any], path: Path, text: str) -> tuple[str, ...]:
    """The ``plugins`` list, checked before any registry exists to check the rest."""
    (entry,) = (entry for entry in declared(MatchSpec) if entry.field == "plugins")
    return tuple(_Checker(path, text).checked(raw, ("plugins",), entry.key.option) or ())


def validate(
    raw: dict[str, Any],
    path: Path,
    text: str,
    registries: Registries,
    schema: type[MatchSpec] = MatchSpec,
) -> MatchSpec:
    """Check every key of a parsed match file and fill in the defaults."""
    return _Validator(raw, path, text, registries, schema).spec()


def default_scorers(seats: Sequence[int], registries: Registries) -> tuple[str, ...]:
    """Wins plus the rating that fits the seat counts: the standings most runs want.

    Elo is pairwise, so it only fits when every game has two seats; as soon as any game
    has three or more, Plackett-Luce (``openskill``) rates them all instead. One-seat games
    have no opponent to be rated against. Limited to the installed scorers, so that files
    naming none still load where a rating plugin is missing.
    """
    rating = ("openskill",) if max(seats) >= 3 else ("elo",) if min(seats) == 2 else ()
    wanted = ("wins", *rating)
    return tuple(name for name in wanted if name in registries.scorers)


def find_line(text: str, path: KeyPath) -> int | None:
    """The 1-based line where ``path`` is written, or None (best effort, for messages).

    Walks the path through the file's ``[table]`` / ``[[array]]`` headers and ``key =``
    lines; when a deeper part cannot be found (an inline table), the line of the deepest
    part found is the answer.
    """
    lines = text.splitlines()
    headers = [
        (number, _header_parts(found.group(1)))
        for number, line in enumerate(lines)
        if (found := _HEADER.match(line))
    ]
    name: tuple[str, ...] = ()
    start = -1  # the current table's header line; -1 is the root table
    direct = True  # False for a table only written as part of longer headers ([a.b] for a)
    end = len(lines)  # where the current array element's sub-tables end
    found_line: int | None = None
    i = 0
    while i < len(path) and isinstance(key := path[i], str):
        following = path[i + 1] if i + 1 < len(path) else None
        index = following if isinstance(following, int) else None
        if direct:
            direct_end = next((n for n, _ in headers if n > start), len(lines))
            key_line = _key_line(lines, start + 1, direct_end, key)
            if key_line is not None:
                return key_line + 1
        full = (*name, key)
        tables = [n for n, parts in headers if start < n < end and parts == full]
        if index is not None and index < len(tables):
            start, direct = tables[index], True
            end = next(
                (
                    n
                    for n, parts in headers
                    if n > start and (parts[: len(full)] != full or parts == full)
                ),
                len(lines),
            )
        elif index is None and tables:
            start, direct = tables[0], True
        elif index is None and any(
            start < n < end and parts[: len(full)] == full for n, parts in headers
        ):
            direct = False
        else:
            break
        if direct:
            found_line = start + 1
        name = full
        i += 1 if index is None else 2
    return found_line


_HEADER = re.compile(r"\s*\[\[?([^\[\]]+)\]\]?\s*(?:#.*)?$")


def _header_parts(header: str) -> tuple[str, ...]:
    parts = re.findall(r'\s*("[^"]*"|\'[^\']*\'|[^.]+)\s*(?:\.|$)', header)
    return tuple(part.strip().strip("\"'") for part in parts)


def _key_line(lines: Sequence[str], start: int, end: int, key: str) -> int | None:
    escaped = re.escape(key)
    pattern = re.compile(rf"\s*(?:{escaped}|\"{escaped}\"|'{escaped}')\s*[=.]")
    return next((n for n in range(start, end) if pattern.match(lines[n])), None)


def _show_path(path: KeyPath) -> str:
    """``("bots", 1, "cmd")`` -> ``bots[2].cmd``: bots are counted from 1, as people do."""
    out = ""
    for part in path:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


class _Checker:
    """Typed access to the raw tables; every failure names the file, line and key."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text

    def error(self, where: KeyPath, message: str) -> MatchFileError:
        line = find_line(self.text, where) if where else None
        place = f"{self.path}, line {line}" if line else f"{self.path}"
        return MatchFileError(f"{place}: {message}")

    def fail(self, where: KeyPath, message: str) -> NoReturn:
        raise self.error(where, message)

    def wrong_type(self, where: KeyPath, expected: str, value: Any) -> NoReturn:
        self.fail(where, f"{_show_path(where)} must be {expected}, not {described(value)}")

    def known_keys(self, table: dict[str, Any], where: KeyPath, allowed: Sequence[str]) -> None:
        for key in table:
            if key not in allowed:
                inside = f"{_show_path(where)}: unknown key" if where else "unknown top-level key"
                self.fail(
                    (*where, key),
                    f'{inside} "{key}"{did_you_mean(key, allowed)}; allowed: {", ".join(allowed)}',
                )

    def checked(self, table: dict[str, Any], where: KeyPath, option: Option) -> Any:
        """The value at ``where`` as its declaration accepts it, or None when not written.

        A match file's strings and arrays must not be empty (a blank name, no command),
        unless empty is the declared default (no extra ``plugins``).
        """
        value = table.get(str(where[-1]))
        if value is None:
            return None
        label = _show_path(where)
        try:
            value = option.check(label, value)
        except OptionError as exc:
            self.fail(where, str(exc))
        if isinstance(value, str) and not value.strip():
            self.fail(where, f"{label} must not be empty")
        if isinstance(value, list):
            if not value and option.default not in ((), []):
                self.fail(where, f"{label} must not be empty")
            for i, item in enumerate(value):
                if item == "":
                    self.fail(where, f"{label}: item {i + 1} must not be empty")
        return value

    def installed(self, where: KeyPath, name: str, registry: Registry) -> None:
        if name not in registry:
            known = ", ".join(sorted(registry)) or "none"
            self.fail(
                where,
                f'{registry.kind} "{name}" is not installed{did_you_mean(name, registry)}; '
                f"installed: {known}{registry.left_out_note(name)}",
            )


class _Validator(_Checker):
    """One validation pass: the order of checks puts the most basic problem first.

    Every declared key is read by its declaration (:meth:`read`) except those with a
    method of their own below (:attr:`OWN_READERS`), whose values depend on other keys.
    """

    OWN_READERS = frozenset(
        (
            "game",
            "seats",
            "bots",
            "challenger",
            "clock",
            "limits",
            "sandbox",
            "game_options",
            "transport_options",
            "executor_options",
            "sprt",
            "knockout",
            "plugins",
        )
    )

    def __init__(
        self,
        raw: dict[str, Any],
        path: Path,
        text: str,
        registries: Registries,
        schema: type[MatchSpec],
    ) -> None:
        super().__init__(path, text)
        self.raw = raw
        self.registries = registries
        self.schema = schema
        self.entries = {entry.field: entry for entry in declared(schema)}
        self.folder = path.absolute().parent

    def spec(self) -> MatchSpec:
        raw = self.raw
        self.known_keys(raw, (), file_keys(self.schema))
        plugins = read_plugins(raw, self.path, self.text)
        game_cls = self.game_class()
        seats = self.seats(game_cls)
        if isinstance(raw.get("transport"), dict):
            self.fail(
                ("transport",),
                "transport must be a transport's name (a string); "
                "transport options go in [transport_options.NAME] tables",
            )
        read = {
            field: self.read(raw, (entry.name,), entry)
            for field, entry in self.entries.items()
            if field not in self.OWN_READERS
        }
        given = {field: value for field, value in read.items() if value is not None}
        if "rounds" in given and "games" in given:
            self.fail(("games",), "give rounds or games, not both")
        # Stored resolved (the game's when the file names none), as run keys always held them.
        for kind in ("codec", "transport"):
            if kind not in given:
                given[kind] = self.game_default(game_cls, kind)
        bots = self.bots(game_cls, seats, given["transport"])
        fmt = given.get("format", self.entries["format"].default)
        sprt = self.sprt(bots, seats, fmt, given)
        knockout = self.knockout(bots, seats, fmt, given)
        return self.schema(
            path=self.path,
            game=game_cls.name,
            seats=seats,
            bots=bots,
            challenger=self.challenger(fmt, bots),
            clock=self.clock(game_cls),
            limits=self.limits(),
            sandbox=self.sandbox(),
            transport_options=self.transport_options(),
            executor_options=self.executor_options(),
            sprt=sprt,
            knockout=knockout,
            game_options=self.game_options(game_cls),
            plugins=plugins,
            **{
                **given,
                "name": given.get("name", self.path.stem),
                "concurrency": given.get("concurrency", os.cpu_count() or 1),
                "scorers": (scorers := self.scorers(given.get("scorers"), seats)),
                "ranking": self.ranking(given.get("ranking"), scorers),
            },
        )

    def relative_path(self, where: KeyPath, written: str | Path, base: Path | None = None) -> Path:
        """A path as written in the file, from the file's folder (or ``base``), ``~``
        expanded."""
        try:
            return (base or self.folder) / Path(written).expanduser()
        except RuntimeError:  # ~name of a user this machine does not have
            self.fail(where, f'{_show_path(where)}: no home folder for "{written}"')

    def read(self, table: dict[str, Any], where: KeyPath, entry: Declared) -> Any:
        """A key read by its declaration, None when not written: a path relative to the
        match file's folder (its default too), installed plugins' names, arrays as tuples,
        the written value times the key's unit."""
        key = entry.key
        value = self.checked(table, where, key.option)
        if key.option.value_type is Path:
            return self.relative_path(where, value if value is not None else entry.default)
        if value is None:
            return None
        if key.registry is not None:
            registry = self.registries.by_kind()[key.registry]
            for name in value if isinstance(value, list) else [value]:
                self.installed(where, name, registry)
        if isinstance(value, list):
            return tuple(value)
        return value * key.unit if key.unit != 1 else value

    def game_class(self) -> type[Game[Any]]:
        games = self.registries.games
        if "game" not in self.raw:
            known = ", ".join(sorted(games)) or "none"
            self.fail((), f'missing key "game" (the game to play); installed games: {known}')
        if isinstance(self.raw["game"], dict):
            self.fail(
                ("game",),
                "game must be the game's name (a string); its options go in [game_options]",
            )
        name: str = self.read(self.raw, ("game",), self.entries["game"])
        return games[name].cls

    def game_default(self, game_cls: type[Game[Any]], kind: str) -> str:
        """The game's own codec or transport, which must be installed too."""
        name: str = getattr(game_cls, kind)
        if name not in self.registries.by_kind()[kind]:
            self.fail(
                ("game",),
                f'game "{game_cls.name}" uses {kind} "{name}", which is not installed; '
                f"install the plugin that provides it or set {kind} = ...",
            )
        return name

    def seats(self, game_cls: type[Game[Any]]) -> tuple[int, ...]:
        """The seat counts, ascending: the order in which a round plays the group sizes.
        Each count once, as a repeat would replay the same groups."""
        supported = sorted(game_cls.seats)
        value = self.checked(self.raw, ("seats",), self.entries["seats"].key.option)
        if value is None:
            return (supported[0],)
        counts: list[int] = value if isinstance(value, list) else [value]
        repeated = next((count for i, count in enumerate(counts) if count in counts[:i]), None)
        if repeated is not None:
            self.fail(("seats",), f"seats lists {repeated} twice")
        for count in counts:
            if count not in supported:
                self.fail(
                    ("seats",),
                    f'seats = {count} is not supported by game "{game_cls.name}"; '
                    f"it supports {', '.join(map(str, supported))}",
                )
        return tuple(sorted(counts))

    def challenger(self, fmt: str, bots: tuple[BotSpec, ...]) -> str | None:
        name = self.checked(self.raw, ("challenger",), self.entries["challenger"].key.option)
        if fmt != "gauntlet":
            if name is not None:
                self.fail(("challenger",), 'challenger is only used with format = "gauntlet"')
            return None
        if len(bots) < 2:
            self.fail(("bots",), "a gauntlet needs at least 2 bots")
        names = [bot.name for bot in bots]
        if name is None:
            return names[0]
        if name not in names:
            self.fail(
                ("challenger",),
                f'challenger "{name}" is not one of the bots{did_you_mean(name, names)}; '
                f"bots: {', '.join(names)}",
            )
        return str(name)

    def scorers(self, names: tuple[str, ...] | None, seats: tuple[int, ...]) -> tuple[str, ...]:
        if names is None:
            return default_scorers(seats, self.registries)
        if len(set(names)) < len(names):
            self.fail(("scorers",), "scorers lists a scorer twice")
        return names

    def ranking(self, name: str | None, scorers: tuple[str, ...]) -> str | None:
        if name is None:
            return scorers[0] if scorers else None
        if name not in scorers:
            self.fail(
                ("ranking",),
                f'ranking "{name}" is not one of the scorers{did_you_mean(name, scorers)}; '
                f"scorers: {', '.join(scorers) or 'none'}",
            )
        return name

    def bots(
        self, game_cls: type[Game[Any]], seats: tuple[int, ...], transport: str
    ) -> tuple[BotSpec, ...]:
        value = self.raw.get("bots")
        if value is None:
            self.fail(
                (),
                f"no bots: add at least {max(*seats, 2)} [[bots]] tables, each with a name "
                'and cmd = ["program", "arg"...], builtin = "..." or connect = true',
            )
        if not isinstance(value, list):
            self.fail(
                ("bots",), f"bots must be an array of tables ([[bots]]), not {described(value)}"
            )
        bots: list[BotSpec] = []
        for i, table in enumerate(value):
            if not isinstance(table, dict):
                self.wrong_type(("bots", i), "a table", table)
            bot = self.bot(table, ("bots", i), game_cls, transport)
            if any(other.name == bot.name for other in bots):
                self.fail(
                    ("bots", i, "name"), f'bots[{i + 1}]: bot name "{bot.name}" is used twice'
                )
            bots.append(bot)
        self.enough_bots(seats, len(bots))
        self.distinct_ports(bots)
        return tuple(bots)

    def distinct_ports(self, bots: list[BotSpec]) -> None:
        """A bot's own port is its own: no other bot's, and not the shared one."""
        options = self.raw.get("transport_options")
        tcp = options.get("tcp") if isinstance(options, dict) else None
        shared = tcp.get("port") if isinstance(tcp, dict) else None
        owners: dict[int, str] = {}
        for i, bot in enumerate(bots):
            if bot.port is None:
                continue
            where = ("bots", i, "port")
            if bot.port == shared:
                self.fail(
                    where,
                    f"bots[{i + 1}].port = {bot.port} is the shared port of "
                    "[transport_options.tcp]; give the bot a port of its own",
                )
            if bot.port in owners:
                self.fail(
                    where,
                    f"bots[{i + 1}].port = {bot.port} is already the port of bot "
                    f'"{owners[bot.port]}"',
                )
            owners[bot.port] = bot.name

    def enough_bots(self, seats: tuple[int, ...], bots: int) -> None:
        """The largest group needs a bot per seat; smaller groups then have enough too."""
        needed = max(seats)
        if bots < needed:
            largest = "" if len(seats) == 1 else f" (the largest count in seats = {list(seats)})"
            self.fail(
                ("bots",),
                f"{needed} seats{largest} need at least {needed} bots, but there are {bots}",
            )

    def bot(
        self, table: dict[str, Any], where: KeyPath, game_cls: type[Game[Any]], transport: str
    ) -> BotSpec:
        label = _show_path(where)
        self.known_keys(table, where, file_keys(BotSpec))
        if isinstance(table.get("cmd"), str):
            self.fail(
                (*where, "cmd"),
                f'{label}.cmd must be a list of strings (argv), e.g. ["python3", "bot.py"]',
            )
        read = {e.field: self.read(table, (*where, e.name), e) for e in declared(BotSpec)}
        given = {field: value for field, value in read.items() if value is not None}
        name = given.get("name")
        if name is None:
            self.fail(where, f'{label}: missing key "name"')
        how = [key for key in ("cmd", "builtin", "connect") if given.get(key)]
        if not how:
            self.fail(
                where,
                f'{label} ("{name}"): say how to run it: cmd = ["program", "arg"...], '
                'builtin = "..." or connect = true',
            )
        if len(how) > 1:
            self.fail(where, f'{label} ("{name}"): give only one of {" and ".join(how)}')
        builtin, inproc = given.get("builtin"), given.get("inproc", False)
        if "args" in given and (builtin is None or inproc):
            self.fail(
                (*where, "args"),
                f"{label}.args only applies to a built-in bot run as a program "
                "(put a command's arguments in its cmd)",
            )
        if builtin is not None:
            self.builtin(builtin, inproc, (*where, "builtin"), game_cls)
        elif inproc:
            self.fail((*where, "inproc"), f"{label}.inproc only applies to builtin bots")
        self.env(given.get("env", {}), (*where, "env"))
        # Nothing is started for these bots, and an in-process bot has no transport either:
        # a key that would be silently ignored is a mistake worth reporting.
        connect = given.get("connect", False)
        started = "connect = true" if connect else "inproc = true" if inproc else None
        started_only = ("env", "cwd", "sandbox")
        ignored = started_only if connect else (*started_only, "transport") if inproc else ()
        unused = [key for key in ignored if key in table]
        if unused:
            self.fail(
                (*where, unused[0]),
                f"{label}.{unused[0]} has no effect with {started} (arena starts no process)",
            )
        self.binding(table, where, connect, given.get("transport", transport))
        if "cwd" in given or "cmd" in given:
            # Relative paths in a bot's command mean what they say: from the file's folder.
            given["cwd"] = str(self.relative_path((*where, "cwd"), given.get("cwd", "")))
        if "sandbox" in given:
            given["sandbox"] = self.bot_sandbox(given["sandbox"], where, name, given.get("cwd"))
        return BotSpec(**given)

    def bot_sandbox(
        self, table: dict[str, Any], where: KeyPath, name: str, folder: str | None
    ) -> dict[str, Any]:
        """A bot's ``[bots.sandbox]`` as :meth:`SandboxSettings.for_bot` takes it: its
        ``writable`` paths from the bot's folder, which they must not leave."""
        where = (*where, "sandbox")
        values = self.sandbox_table(table, where, BOT_SANDBOX_KEYS)
        if "writable" in values:
            key = (*where, "writable")
            values["writable"] = tuple(
                self.writable(key, name, folder, written) for written in values["writable"]
            )
        return values

    def writable(self, where: KeyPath, name: str, folder: str | None, written: str) -> Path:
        label = _show_path(where)
        if folder is None:
            self.fail(where, f'{label}: bot "{name}" has no folder of its own; give it a cwd')
        path = self.relative_path(where, written, Path(folder))
        if not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder)):
            self.fail(
                where,
                f'{label}: "{written}" is outside the folder of bot "{name}" ({folder}); '
                "a bot may write only inside its cwd",
            )
        return self.bindable(where, path)

    def binding(self, table: dict[str, Any], where: KeyPath, connect: bool, used: str) -> None:
        """``port`` and ``peer``: only for a ``connect`` bot over the tcp transport."""
        label = _show_path(where)
        given = [key for key in ("port", "peer") if key in table]
        if not given:
            return
        if not connect:
            self.fail(
                (*where, given[0]),
                f"{label}.{given[0]} only applies to a connect = true bot "
                "(a bot the arena starts gets a port of its own)",
            )
        if used != "tcp":
            self.fail(
                (*where, given[0]),
                f'{label}.{given[0]} only applies to the tcp transport, not "{used}"',
            )
        peer = table.get("peer")
        if peer is not None:
            try:
                ipaddress.ip_address(peer)
            except ValueError:
                self.fail(
                    (*where, "peer"),
                    f'{label}.peer must be an IP address such as "127.0.0.1", not "{peer}"',
                )

    def builtin(self, name: str, inproc: bool, where: KeyPath, game_cls: type[Game[Any]]) -> None:
        available = game_cls.bots
        if name not in available:
            known = ", ".join(available) or "none"
            self.fail(
                where,
                f'game "{game_cls.name}" has no built-in bot "{name}"'
                f"{did_you_mean(name, available)}; built-in bots: {known}",
            )
        if inproc and available[name].inproc is None:
            self.fail(
                (*where[:-1], "inproc"),
                f'{_show_path(where[:-1])}: built-in bot "{name}" cannot run in-process; '
                "remove inproc = true",
            )

    def env(self, env: dict[str, Any], where: KeyPath) -> None:
        for key, value in env.items():
            if not isinstance(value, str):
                self.wrong_type((*where, key), "a string", value)

    def table(self, field: str) -> dict[str, Any]:
        """A table-valued key (``{}`` when not written)."""
        return self.checked(self.raw, (field,), self.entries[field].key.option) or {}

    def clock(self, game_cls: type[Game[Any]]) -> dict[str, float | str | None]:
        """The game's clocks with the file's on top (``game = 0``: no budget)."""
        table = self.table("clock")
        self.known_keys(table, ("clock",), tuple(CLOCK_KEYS))
        overrides: dict[str, float | str | None] = {}
        for key, option in CLOCK_KEYS.items():
            value = self.checked(table, ("clock", key), option)
            if value is not None:
                overrides[key] = (value or None) if key == "game" else value
        return dataclasses.asdict(game_cls.clocks.merged(overrides))

    def limits(self) -> ResourceLimits:
        """The kernel's limits with the file's on top (0: no limit)."""
        table = self.table("limits")
        self.known_keys(table, ("limits",), tuple(LIMIT_KEYS))
        values: dict[str, Any] = {}
        for key, option in LIMIT_KEYS.items():
            value = self.checked(table, ("limits", key), option)
            if value is not None:
                values[key] = value or None
        return ResourceLimits(**values)

    def sandbox(self) -> SandboxSettings:
        """``[sandbox]``: the file's keys on the settings' defaults."""
        return SandboxSettings(
            **self.sandbox_table(self.table("sandbox"), ("sandbox",), SANDBOX_KEYS)
        )

    def sandbox_table(
        self, table: dict[str, Any], where: KeyPath, keys: Mapping[str, Option]
    ) -> dict[str, Any]:
        """The keys written in a ``[sandbox]`` table, checked; ``read_only`` and
        ``read_write`` paths from the match file's folder, existing, as tuples."""
        self.known_keys(table, where, tuple(keys))
        values: dict[str, Any] = {}
        for key, option in keys.items():
            value = self.checked(table, (*where, key), option)
            if value is not None:
                values[key] = value
        for key in ("read_only", "read_write"):
            if key in values:
                at = (*where, key)
                values[key] = tuple(
                    self.bindable(at, self.relative_path(at, written)) for written in values[key]
                )
        return values

    def bindable(self, where: KeyPath, path: Path) -> Path:
        """``path``, which a sandbox will bind: bubblewrap cannot bind a missing path."""
        label = _show_path(where)
        try:
            path.stat()
        except (FileNotFoundError, NotADirectoryError):
            self.fail(where, f"{label}: {path} does not exist (a sandbox binds only what exists)")
        except OSError as exc:
            self.fail(where, f"{label}: cannot reach {path}: {exc.strerror or exc}")
        return path

    def sprt(
        self, bots: tuple[BotSpec, ...], seats: tuple[int, ...], fmt: str, given: dict[str, Any]
    ) -> dict[str, Any]:
        """``[sprt]`` with its defaults, or ``{}``: a test of the first bot against the
        second needs exactly those two, two seats, and both colours of each pair."""
        table = self.table("sprt")
        if not table:
            return {}
        where = ("sprt",)
        self.known_keys(table, where, tuple(SPRT_KEYS))
        values = {key: self.checked(table, (*where, key), o) for key, o in SPRT_KEYS.items()}
        for bound in ("elo0", "elo1"):
            if values[bound] is None:
                self.fail((*where, bound), f"[sprt] needs {bound}, the Elo bound of H{bound[-1]}")
        if values["elo0"] >= values["elo1"]:
            self.fail((*where, "elo1"), "[sprt] elo1 must be above elo0")
        problem = None
        if len(bots) != 2:
            problem = f"two bots (this file has {len(bots)})"
        elif seats != (2,):
            problem = "seats = 2"
        elif fmt != "round-robin" or given.get("seatings", "rotations") != "rotations":
            problem = 'format = "round-robin" and seatings = "rotations" (each pair: both colours)'
        elif given.get("games") is not None and given["games"] % 2:
            problem = "an even number of games (the games are played in pairs)"
        if problem is not None:
            self.fail(where, f"[sprt] tests the first bot against the second: it needs {problem}")
        return {
            key: value if value is not None else SPRT_KEYS[key].default
            for key, value in values.items()
        }

    def knockout(
        self, bots: tuple[BotSpec, ...], seats: tuple[int, ...], fmt: str, given: dict[str, Any]
    ) -> dict[str, Any]:
        """``[knockout]`` with its defaults for a knockout (``{}`` for another format);
        ``swiss`` and ``knockout`` checked against the keys they cannot go with."""
        table = self.table("knockout")
        if fmt not in DYNAMIC_FORMATS:
            if table:
                self.fail(("knockout",), '[knockout] is only used with format = "knockout"')
            return {}
        if "games" in given:
            self.fail(("games",), f'format = "{fmt}" plays its own number of games: no games')
        if fmt == "swiss" and len(bots) < max(seats):
            self.fail(("bots",), f"a Swiss of {max(seats)} seats needs at least that many bots")
        if fmt == "swiss" and len(seats) > 1:
            self.fail(("seats",), 'format = "swiss" plays one seat count')
        if fmt == "swiss":
            if table:
                self.fail(("knockout",), '[knockout] is only used with format = "knockout"')
            return {}
        if seats != (2,):
            self.fail(("seats",), 'format = "knockout" plays two-player ties: seats = 2')
        if "rounds" in given:
            self.fail(("rounds",), 'format = "knockout" plays until one bot is left: no rounds')
        self.known_keys(table, ("knockout",), tuple(KNOCKOUT_KEYS))
        values = {}
        for key, option in KNOCKOUT_KEYS.items():
            value = self.checked(table, ("knockout", key), option)
            values[key] = option.default if value is None else value
            if values[key] % 2:
                self.fail(("knockout", key), f"[knockout] {key} must be even (seats alternate)")
        return values

    def transport_options(self) -> dict[str, dict[str, Any]]:
        return self.plugin_options("transport_options", self.registries.transports)

    def executor_options(self) -> dict[str, dict[str, Any]]:
        return self.plugin_options("executor_options", self.registries.executors)

    def plugin_options(self, key: str, registry: Registry) -> dict[str, dict[str, Any]]:
        """The ``[key.NAME]`` tables: each names an installed plugin of ``registry`` and
        sets only options it declares. The values are kept as written: the run key has
        always held a transport's so."""
        table = self.table(key)
        for name, options in table.items():
            where = (key, name)
            self.installed(where, name, registry)
            if not isinstance(options, dict):
                self.wrong_type(where, "a table", options)
            configurable: type[Configurable] = registry[name].cls
            owner = f'{registry.kind} "{name}"'
            try:
                check_options(configurable.declared_options(), options, owner)
            except OptionError as exc:
                self.fail((*where, exc.key), f"[{key}.{name}]: {exc}")
        return table

    def game_options(self, game_cls: type[Game[Any]]) -> dict[str, Any]:
        table = self.table("game_options")
        try:
            return game_cls.validate_options(dict(table))
        except OptionError as exc:
            # The game's message usually names the key already; do not say it twice.
            key = "" if exc.key in str(exc) else f" {exc.key}"
            self.fail(("game_options", exc.key), f"[game_options]{key}: {exc}")
