"""Reading each key of a match file by its declaration, with what it depends on: paths
from the file's folder, names of installed plugins, the game's defaults (its clocks, its
codec and transport, its seat counts, its built-in bots and options). The checks that
involve several keys are :mod:`arena_kernel.match.cross_checks`'.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena_kernel.errors import OptionError, did_you_mean
from arena_kernel.games.base import Game
from arena_kernel.match.file_lines import KeyPath, show_path
from arena_kernel.match.key_checker import KeyChecker
from arena_kernel.match.schema import Declared, declared
from arena_kernel.match.spec import (
    CLOCK_KEYS,
    KNOCKOUT_KEYS,
    LEAGUE_KEYS,
    LIMIT_KEYS,
    SPRT_KEYS,
    MatchSpec,
)
from arena_kernel.options import Configurable, Option, check_options
from arena_kernel.registries.registry import Registries, Registry
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.sandbox.settings import SANDBOX_KEYS, SandboxSettings


class KeyReader(KeyChecker):
    """The keys of one parsed match file, each read by its declaration."""

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

    def relative_path(self, where: KeyPath, written: str | Path, base: Path | None = None) -> Path:
        """A path as written in the file, from the file's folder (or ``base``), ``~``
        expanded."""
        try:
            return (base or self.folder) / Path(written).expanduser()
        except RuntimeError:  # ~name of a user this machine does not have
            self.fail(where, f'{show_path(where)}: no home folder for "{written}"')

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
                f'{show_path(where[:-1])}: built-in bot "{name}" cannot run in-process; '
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
        label = show_path(where)
        try:
            path.stat()
        except (FileNotFoundError, NotADirectoryError):
            self.fail(where, f"{label}: {path} does not exist (a sandbox binds only what exists)")
        except OSError as exc:
            self.fail(where, f"{label}: cannot reach {path}: {exc.strerror or exc}")
        return path

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

    def sprt_table(self) -> dict[str, Any]:
        """``[sprt]`` with its defaults, or ``{}`` when not written."""
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
        return {
            key: value if value is not None else SPRT_KEYS[key].default
            for key, value in values.items()
        }

    def knockout_table(self, table: dict[str, Any]) -> dict[str, Any]:
        """``[knockout]`` (``table``) with its defaults: even numbers, as seats alternate."""
        values = self.defaulted("knockout", table, KNOCKOUT_KEYS)
        for key, value in values.items():
            if value % 2:
                self.fail(("knockout", key), f"[knockout] {key} must be even (seats alternate)")
        return values

    def league_table(self, table: dict[str, Any]) -> dict[str, Any]:
        """``[league]`` (``table``) with its defaults."""
        return self.defaulted("league", table, LEAGUE_KEYS)

    def defaulted(
        self, name: str, table: dict[str, Any], keys: Mapping[str, Option]
    ) -> dict[str, Any]:
        """The table key ``name`` (``table``) checked against ``keys``, every key at its
        default where not written."""
        self.known_keys(table, (name,), tuple(keys))
        values = {}
        for key, option in keys.items():
            value = self.checked(table, (name, key), option)
            values[key] = option.default if value is None else value
        return values
