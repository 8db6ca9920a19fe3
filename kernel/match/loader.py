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

Top-level keys (they must come before the first ``[table]``):

``game``
    The game to play (a string, required): an installed game's name.
``name``
    The run's name in the database and the reports. Default: the file's name without
    ``.toml``.
``seed``
    An integer (default 0). Each game's seed is derived from it and the game's number, so
    the same file plays the same games whatever the concurrency.
``seats``
    Players per game: one of the counts the game supports (default: its smallest), or a
    list of them (``[3, 4, 5, 6]``) to play every group size in one run, smallest first.
    There must be at least as many bots as the largest count.
``format``
    ``"round-robin"`` (default): every group of ``seats`` bots plays (of each size, with a
    list). ``"gauntlet"``: only the groups that include the ``challenger``.
``challenger``
    Gauntlet only: the name of the bot under test. Default: the first bot.
``seatings``
    ``"rotations"`` (default): each group plays once per rotation of its seating, so every
    bot plays every seat equally often. ``"permutations"``: once per seat order.
``rounds``
    How many times the whole schedule is played (an integer, at least 1; default 1).
``games``
    Play exactly this many games instead (at least 1), cycling through the seatings.
    Give ``rounds`` or ``games``, not both.
``concurrency``
    Games played at the same time (sessions, for session games). Default: the number of
    CPUs.
``database``
    The SQLite results file (default ``"arena.sqlite"``). A relative path is relative to
    the match file's folder, as are ``logs`` and each bot's ``cwd``.
``logs``
    The folder for event logs and bots' stderr (default ``"arena-logs"``).
``codec``, ``transport``
    Override the game's codec or transport with another installed one (``arena plugins``).
``scorers``
    The standings to compute, a list of installed scorer names. Default: ``"wins"`` plus
    a rating: ``"elo"`` when every game has two seats, ``"openskill"`` (Plackett-Luce) when
    any has three or more; only those that are installed.
``plugins``
    Extra plugin modules to load before anything else is checked, as import paths
    (``["my_package.arena_plugin"]``): a game, codec, transport or scorer that is not
    installed as a package.
``max_message_kb``
    The largest message a bot may send, in KiB (default 1024); a longer one is a fault.

Tables:

``[clock]``
    Time limits in seconds, on top of the game's defaults: ``startup`` (starting and
    connecting a bot, up to its first reply) and ``reply`` (per reply) must be above 0;
    ``grace`` (added to every limit) and ``kill`` (between SIGTERM and SIGKILL) may be 0;
    ``game`` is a per-seat budget for a whole game, 0 for none (the default).
``[limits]``
    Per bot process: ``memory_mb``, ``cpu_seconds``, ``processes`` (integers, 0 for no
    limit; defaults 4096, none, 256) and ``stderr_kb`` (stderr kept per bot and game,
    at least 1; default 256).
``[game_options]``
    The game's own options (``arena init GAME`` writes them all, with their defaults
    and help).
``[transport_options.NAME]``
    Options for the installed transport ``NAME`` (for example ``[transport_options.tcp]``).
``[[bots]]``
    One table per bot, in the order used for the schedule and for ties:

    ``name`` (required, unique) and exactly one of ``cmd`` (the program to run, an argv
    list such as ``["python3", "bot.py"]``; ``{identifier}``, ``{host}`` and ``{port}`` are
    filled in), ``builtin`` (one of the game's built-in bots) or ``connect = true`` (a bot
    started by someone else, which connects to the arena by itself). Optional: ``args``
    (extra command-line arguments for a built-in bot, such as ``["--time", "0.5"]``),
    ``inproc = true`` (a built-in bot that supports it runs inside the arena process: much
    faster),
    ``transport`` (this bot's transport), ``env`` (a table of extra environment
    variables, strings) and ``cwd`` (the folder the bot runs in; by default a ``cmd`` bot
    runs in the match file's folder, so ``["python3", "bot.py"]`` finds a ``bot.py`` next
    to the match file). ``env`` and ``cwd`` are
    errors with ``connect`` or ``inproc`` (no process is started), as is ``transport``
    with ``inproc``.

    A ``connect = true`` bot over the tcp transport takes the first connection that no bot
    the arena started made; to make its seat its own, bind it with ``port`` (an integer:
    the arena listens on that port for this bot only) and/or ``peer`` (an IP address: only
    a connection from there). Both are left out of the run's identity: moving a remote bot
    resumes its run.

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
import json
import os
import re
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from arena_kernel.codecs.base import DEFAULT_MAX_MESSAGE
from arena_kernel.errors import MatchFileError, OptionError, PluginError, did_you_mean
from arena_kernel.games.base import Game
from arena_kernel.match.spec import BotSpec, MatchSpec
from arena_kernel.registries.registry import Registries, Registry
from arena_kernel.transports.base import Limits

KeyPath = tuple[str | int, ...]
"""Where a value sits in the file: ``("bots", 1, "cmd")`` is the second bot's ``cmd``."""

TOP_LEVEL_KEYS = (
    "game",
    "name",
    "seed",
    "seats",
    "format",
    "challenger",
    "seatings",
    "rounds",
    "games",
    "concurrency",
    "database",
    "logs",
    "codec",
    "transport",
    "scorers",
    "plugins",
    "max_message_kb",
    "clock",
    "limits",
    "game_options",
    "transport_options",
    "bots",
)
BOT_KEYS = (
    "name",
    "cmd",
    "builtin",
    "args",
    "connect",
    "inproc",
    "transport",
    "env",
    "cwd",
    "port",
    "peer",
)
CLOCK_KEYS = ("startup", "reply", "grace", "game", "kill")
LIMIT_KEYS = ("memory_mb", "cpu_seconds", "processes", "stderr_kb")
FORMATS = ("round-robin", "gauntlet")
SEATINGS = ("rotations", "permutations")


def load_match(path: Path, registries_for: Callable[[tuple[str, ...]], Registries]) -> MatchSpec:
    """Read and validate a match file.

    The file's own ``plugins`` are read first and handed to ``registries_for``, because
    they may provide the very game, codec or transport the rest of the file names.
    """
    raw, text = read_toml(path)
    plugins = read_plugins(raw, path, text)
    try:
        registries = registries_for(plugins)
    except PluginError as exc:
        raise _Checker(path, text).error(("plugins",) if plugins else (), str(exc)) from None
    return validate(raw, path, text, registries)


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
        hint = _TABLE_HINTS.get(_header_parts(header.group(1))[0]) if header else None
        hint = f" ({hint})" if hint else ""
        return f"{path}, line {line}, column {column}: invalid TOML: {what}{hint}"
    found = re.fullmatch(r"(.*) \(at end of document\)", message, re.DOTALL)
    if found:
        return f"{path}, at the end: invalid TOML: {found.group(1)}"
    return f"{path}: invalid TOML: {message}"


def read_plugins(raw: dict[str, Any], path: Path, text: str) -> tuple[str, ...]:
    """The ``plugins`` list, checked before any registry exists to check the rest."""
    return tuple(_Checker(path, text).str_list(raw, ("plugins",), allow_empty=True) or ())


def validate(raw: dict[str, Any], path: Path, text: str, registries: Registries) -> MatchSpec:
    """Check every key of a parsed match file and fill in the defaults."""
    return _Validator(raw, path, text, registries).spec()


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
        index = path[i + 1] if i + 1 < len(path) and isinstance(path[i + 1], int) else None
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


def _type_name(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string"}
    names |= {list: "an array", dict: "a table"}
    return names.get(type(value), "a date/time")


def _show_value(value: Any) -> str:
    """A scalar as it would be written in TOML, to quote it back in a message."""
    if isinstance(value, bool):
        return " (true)" if value else " (false)"
    if isinstance(value, str):
        return f" ({json.dumps(value)})"
    if isinstance(value, int | float):
        return f" ({value})"
    return ""


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
        self.fail(
            where,
            f"{_show_path(where)} must be {expected}, not {_type_name(value)}{_show_value(value)}",
        )

    def known_keys(self, table: dict[str, Any], where: KeyPath, allowed: Sequence[str]) -> None:
        for key in table:
            if key not in allowed:
                inside = f"{_show_path(where)}: unknown key" if where else "unknown top-level key"
                self.fail(
                    (*where, key),
                    f'{inside} "{key}"{did_you_mean(key, allowed)}; allowed: {", ".join(allowed)}',
                )

    def string(self, table: dict[str, Any], where: KeyPath) -> str | None:
        value = table.get(str(where[-1]))
        if value is None:
            return None
        if not isinstance(value, str):
            self.wrong_type(where, "a string", value)
        if not value.strip():
            self.fail(where, f"{_show_path(where)} must not be empty")
        return value

    def integer(self, table: dict[str, Any], where: KeyPath, minimum: int | None) -> int | None:
        value = table.get(str(where[-1]))
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.wrong_type(where, "an integer", value)
        if minimum is not None and value < minimum:
            self.fail(where, f"{_show_path(where)} must be at least {minimum}, not {value}")
        return value

    def number(self, table: dict[str, Any], where: KeyPath, positive: bool) -> float | None:
        value = table.get(str(where[-1]))
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.wrong_type(where, "a number", value)
        if value < 0 or (positive and value == 0):
            bound = "above 0" if positive else "0 or more"
            self.fail(where, f"{_show_path(where)} must be {bound}, not {value}")
        return float(value)

    def boolean(self, table: dict[str, Any], where: KeyPath) -> bool | None:
        value = table.get(str(where[-1]))
        if value is not None and not isinstance(value, bool):
            self.wrong_type(where, "true or false", value)
        return value

    def table(self, table: dict[str, Any], where: KeyPath) -> dict[str, Any] | None:
        value = table.get(str(where[-1]))
        if value is not None and not isinstance(value, dict):
            self.wrong_type(where, "a table", value)
        return value

    def str_list(
        self, table: dict[str, Any], where: KeyPath, allow_empty: bool = False
    ) -> list[str] | None:
        value = table.get(str(where[-1]))
        if value is None:
            return None
        if not isinstance(value, list):
            self.wrong_type(where, "an array of strings", value)
        if not value and not allow_empty:
            self.fail(where, f"{_show_path(where)} must not be empty")
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item:
                self.fail(
                    where,
                    f"{_show_path(where)}: item {i + 1} must be a non-empty string, "
                    f"not {_type_name(item)}{_show_value(item)}",
                )
        return value

    def choice(self, table: dict[str, Any], where: KeyPath, choices: Sequence[str]) -> str | None:
        value = self.string(table, where)
        if value is not None and value not in choices:
            allowed = " or ".join(f'"{c}"' for c in choices)
            self.fail(
                where,
                f"{_show_path(where)} must be {allowed}, not "
                f'"{value}"{did_you_mean(value, choices)}',
            )
        return value

    def registered(self, table: dict[str, Any], where: KeyPath, registry: Registry) -> str | None:
        value = self.string(table, where)
        if value is not None:
            self.installed(where, value, registry)
        return value

    def installed(self, where: KeyPath, name: str, registry: Registry) -> None:
        if name not in registry:
            known = ", ".join(sorted(registry)) or "none"
            self.fail(
                where,
                f'{registry.kind} "{name}" is not installed{did_you_mean(name, registry)}; '
                f"installed: {known}",
            )


class _Validator(_Checker):
    """One validation pass: the order of checks puts the most basic problem first."""

    def __init__(self, raw: dict[str, Any], path: Path, text: str, registries: Registries) -> None:
        super().__init__(path, text)
        self.raw = raw
        self.registries = registries
        self.folder = path.absolute().parent

    def spec(self) -> MatchSpec:
        raw = self.raw
        self.known_keys(raw, (), TOP_LEVEL_KEYS)
        plugins = read_plugins(raw, self.path, self.text)
        game_cls = self.game_class()
        seats = self.seats(game_cls)
        bots = self.bots(game_cls, seats)
        fmt = self.choice(raw, ("format",), FORMATS) or "round-robin"
        rounds = self.integer(raw, ("rounds",), 1)
        games = self.integer(raw, ("games",), 1)
        if rounds is not None and games is not None:
            self.fail(("games",), "give rounds or games, not both")
        codec = self.registered(raw, ("codec",), self.registries.codecs)
        if isinstance(raw.get("transport"), dict):
            self.fail(
                ("transport",),
                "transport must be a transport's name (a string); "
                "transport options go in [transport_options.NAME] tables",
            )
        transport = self.registered(raw, ("transport",), self.registries.transports)
        max_kb = self.integer(raw, ("max_message_kb",), 1)
        return MatchSpec(
            path=self.path,
            game=game_cls.name,
            bots=bots,
            seats=seats,
            seed=self.integer(raw, ("seed",), None) or 0,
            format=fmt,
            challenger=self.challenger(fmt, bots),
            seatings=self.choice(raw, ("seatings",), SEATINGS) or "rotations",
            rounds=rounds or 1,
            games=games,
            concurrency=self.integer(raw, ("concurrency",), 1) or os.cpu_count() or 1,
            database=self.path_value(raw, ("database",)) or self.folder / "arena.sqlite",
            logs=self.path_value(raw, ("logs",)) or self.folder / "arena-logs",
            name=self.string(raw, ("name",)) or self.path.stem,
            clock=self.clock(game_cls),
            limits=self.limits(),
            max_message=max_kb * 1024 if max_kb else DEFAULT_MAX_MESSAGE,
            codec=codec or self.game_default(game_cls, "codec", self.registries.codecs),
            transport=transport
            or self.game_default(game_cls, "transport", self.registries.transports),
            transport_options=self.transport_options(),
            scorers=self.scorers(seats),
            game_options=self.game_options(game_cls),
            plugins=plugins,
        )

    def game_class(self) -> type[Game]:
        games = self.registries.games
        if "game" not in self.raw:
            known = ", ".join(sorted(games)) or "none"
            self.fail((), f'missing key "game" (the game to play); installed games: {known}')
        value = self.raw["game"]
        if isinstance(value, dict):
            self.fail(
                ("game",),
                "game must be the game's name (a string); its options go in [game_options]",
            )
        name = self.registered(self.raw, ("game",), games)
        assert name is not None  # present, and string() rejects empty values
        return games[name].cls

    def game_default(self, game_cls: type[Game], kind: str, registry: Registry) -> str:
        """The game's own codec or transport, which must be installed too."""
        name: str = getattr(game_cls, kind)
        if name not in registry:
            self.fail(
                ("game",),
                f'game "{game_cls.name}" uses {kind} "{name}", which is not installed; '
                f"install the plugin that provides it or set {kind} = ...",
            )
        return name

    def seats(self, game_cls: type[Game]) -> tuple[int, ...]:
        """The seat counts, ascending: the order in which a round plays the group sizes."""
        supported = sorted(game_cls.seats)
        value = self.raw.get("seats")
        if value is None:
            return (supported[0],)
        counts = self.seat_list(value) if isinstance(value, list) else self.seat_count(value)
        for count in counts:
            if count not in supported:
                self.fail(
                    ("seats",),
                    f'seats = {count} is not supported by game "{game_cls.name}"; '
                    f"it supports {', '.join(map(str, supported))}",
                )
        return tuple(sorted(counts))

    def seat_count(self, value: Any) -> list[int]:
        """``seats = N``; a wrong type's message names both forms, since both are allowed."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.wrong_type(("seats",), "an integer or an array of integers", value)
        if value < 1:
            self.fail(("seats",), f"seats must be at least 1, not {value}")
        return [value]

    def seat_list(self, value: list[Any]) -> list[int]:
        """``seats = [N, ...]``: each count once, as a repeat would replay the same groups."""
        if not value:
            self.fail(("seats",), "seats must not be empty")
        for i, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, int):
                self.fail(
                    ("seats",),
                    f"seats: item {i + 1} must be an integer, "
                    f"not {_type_name(item)}{_show_value(item)}",
                )
        repeated = next((count for i, count in enumerate(value) if count in value[:i]), None)
        if repeated is not None:
            self.fail(("seats",), f"seats lists {repeated} twice")
        return value

    def path_value(self, table: dict[str, Any], where: KeyPath) -> Path | None:
        value = self.string(table, where)
        return None if value is None else self.folder / Path(value).expanduser()

    def challenger(self, fmt: str, bots: tuple[BotSpec, ...]) -> str | None:
        name = self.string(self.raw, ("challenger",))
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
        return name

    def bots(self, game_cls: type[Game], seats: tuple[int, ...]) -> tuple[BotSpec, ...]:
        value = self.raw.get("bots")
        if value is None:
            self.fail(
                (),
                f"no bots: add at least {max(*seats, 2)} [[bots]] tables, each with a name "
                'and cmd = ["program", "arg"...], builtin = "..." or connect = true',
            )
        if not isinstance(value, list):
            self.fail(
                ("bots",), f"bots must be an array of tables ([[bots]]), not {_type_name(value)}"
            )
        bots: list[BotSpec] = []
        for i, table in enumerate(value):
            if not isinstance(table, dict):
                self.wrong_type(("bots", i), "a table", table)
            bot = self.bot(table, ("bots", i), game_cls)
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

    def bot(self, table: dict[str, Any], where: KeyPath, game_cls: type[Game]) -> BotSpec:
        label = _show_path(where)
        self.known_keys(table, where, BOT_KEYS)
        name = self.string(table, (*where, "name"))
        if name is None:
            self.fail(where, f'{label}: missing key "name"')
        if isinstance(table.get("cmd"), str):
            self.fail(
                (*where, "cmd"),
                f'{label}.cmd must be a list of strings (argv), e.g. ["python3", "bot.py"]',
            )
        cmd = self.str_list(table, (*where, "cmd"))
        builtin = self.string(table, (*where, "builtin"))
        connect = bool(self.boolean(table, (*where, "connect")))
        given = [key for key, v in (("cmd", cmd), ("builtin", builtin), ("connect", connect)) if v]
        if not given:
            self.fail(
                where,
                f'{label} ("{name}"): say how to run it: cmd = ["program", "arg"...], '
                'builtin = "..." or connect = true',
            )
        if len(given) > 1:
            self.fail(where, f'{label} ("{name}"): give only one of {" and ".join(given)}')
        inproc = bool(self.boolean(table, (*where, "inproc")))
        args = self.str_list(table, (*where, "args"))
        if args is not None and (builtin is None or inproc):
            self.fail(
                (*where, "args"),
                f"{label}.args only applies to a built-in bot run as a program "
                "(put a command's arguments in its cmd)",
            )
        if builtin is not None:
            self.builtin(builtin, inproc, (*where, "builtin"), game_cls)
        elif inproc:
            self.fail((*where, "inproc"), f"{label}.inproc only applies to builtin bots")
        transport = self.registered(table, (*where, "transport"), self.registries.transports)
        env = self.env(table, (*where, "env"))
        cwd = self.path_value(table, (*where, "cwd"))
        if cwd is None and cmd:
            cwd = self.folder  # relative paths in a bot's command mean what they say
        # Nothing is started for these bots, and an in-process bot has no transport either:
        # a key that would be silently ignored is a mistake worth reporting.
        started = "connect = true" if connect else "inproc = true" if inproc else None
        ignored = ("env", "cwd") if connect else ("env", "cwd", "transport") if inproc else ()
        unused = [key for key in ignored if key in table]
        if unused:
            self.fail(
                (*where, unused[0]),
                f"{label}.{unused[0]} has no effect with {started} (arena starts no process)",
            )
        port, peer = self.binding(table, where, connect, transport, game_cls)
        return BotSpec(
            name=name,
            cmd=tuple(cmd) if cmd else None,
            builtin=builtin,
            args=tuple(args or ()),
            inproc=inproc,
            connect=connect,
            transport=transport,
            env=env,
            cwd=None if cwd is None else str(cwd),
            port=port,
            peer=peer,
        )

    def binding(
        self,
        table: dict[str, Any],
        where: KeyPath,
        connect: bool,
        transport: str | None,
        game_cls: type[Game],
    ) -> tuple[int | None, str | None]:
        """``port`` and ``peer``: only for a ``connect`` bot over the tcp transport."""
        label = _show_path(where)
        given = [key for key in ("port", "peer") if key in table]
        if not given:
            return None, None
        if not connect:
            self.fail(
                (*where, given[0]),
                f"{label}.{given[0]} only applies to a connect = true bot "
                "(a bot the arena starts gets a port of its own)",
            )
        default = self.raw.get("transport")
        used = transport or (default if isinstance(default, str) else game_cls.transport)
        if used != "tcp":
            self.fail(
                (*where, given[0]),
                f'{label}.{given[0]} only applies to the tcp transport, not "{used}"',
            )
        port = self.integer(table, (*where, "port"), 1)
        if port is not None and port > 65535:
            self.fail((*where, "port"), f"{label}.port must be at most 65535, not {port}")
        peer = self.string(table, (*where, "peer"))
        if peer is not None:
            try:
                ipaddress.ip_address(peer)
            except ValueError:
                self.fail(
                    (*where, "peer"),
                    f'{label}.peer must be an IP address such as "127.0.0.1", not "{peer}"',
                )
        return port, peer

    def builtin(self, name: str, inproc: bool, where: KeyPath, game_cls: type[Game]) -> None:
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

    def env(self, table: dict[str, Any], where: KeyPath) -> dict[str, str]:
        env = self.table(table, where) or {}
        for key, value in env.items():
            if not isinstance(value, str):
                self.wrong_type((*where, key), "a string", value)
        return env

    def clock(self, game_cls: type[Game]) -> dict[str, float | None]:
        table = self.table(self.raw, ("clock",)) or {}
        self.known_keys(table, ("clock",), CLOCK_KEYS)
        overrides: dict[str, float | None] = {}
        for key in CLOCK_KEYS:
            value = self.number(table, ("clock", key), positive=key in ("startup", "reply"))
            if value is not None:
                overrides[key] = (value or None) if key == "game" else value
        return dataclasses.asdict(game_cls.clocks.merged(overrides))

    def limits(self) -> Limits:
        table = self.table(self.raw, ("limits",)) or {}
        self.known_keys(table, ("limits",), LIMIT_KEYS)
        values: dict[str, int | None] = {}
        for key in LIMIT_KEYS:
            minimum = 1 if key == "stderr_kb" else 0
            value = self.integer(table, ("limits", key), minimum)
            if value is not None:
                values[key] = value or None
        return Limits(**values)

    def transport_options(self) -> dict[str, dict[str, Any]]:
        table = self.table(self.raw, ("transport_options",)) or {}
        for name, options in table.items():
            where = ("transport_options", name)
            self.installed(where, name, self.registries.transports)
            if not isinstance(options, dict):
                self.wrong_type(where, "a table", options)
        return table

    def scorers(self, seats: tuple[int, ...]) -> tuple[str, ...]:
        names = self.str_list(self.raw, ("scorers",))
        if names is None:
            return default_scorers(seats, self.registries)
        for name in names:
            self.installed(("scorers",), name, self.registries.scorers)
        if len(set(names)) < len(names):
            self.fail(("scorers",), "scorers lists a scorer twice")
        return tuple(names)

    def game_options(self, game_cls: type[Game]) -> dict[str, Any]:
        table = self.table(self.raw, ("game_options",)) or {}
        try:
            return game_cls.validate_options(dict(table))
        except OptionError as exc:
            # The game's message usually names the key already; do not say it twice.
            key = "" if exc.key in str(exc) else f" {exc.key}"
            self.fail(("game_options", exc.key), f"[game_options]{key}: {exc}")
