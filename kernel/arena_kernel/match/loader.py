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

This module runs one pass over the file in the order that puts the most basic problem
first: each key is read by :mod:`~arena_kernel.match.key_reader`, the checks across keys
are :mod:`~arena_kernel.match.cross_checks`, and where a key is written
:mod:`~arena_kernel.match.file_lines`.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from arena_kernel.errors import MatchFileError, PluginError
from arena_kernel.games.base import Game
from arena_kernel.match import cross_checks
from arena_kernel.match.file_lines import KeyPath, show_path, toml_error
from arena_kernel.match.key_checker import KeyChecker
from arena_kernel.match.key_reader import KeyReader
from arena_kernel.match.schema import declared, file_keys
from arena_kernel.match.spec import BotSpec, MatchSpec
from arena_kernel.options import described
from arena_kernel.registries.registry import Registries
from arena_kernel.sandbox.settings import BOT_SANDBOX_KEYS


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
        raise KeyChecker(path, text).error(("plugins",) if plugins else (), str(exc)) from None
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
        raise MatchFileError(toml_error(path, text, str(exc))) from None


def read_plugins(raw: dict[str, Any], path: Path, text: str) -> tuple[str, ...]:
    """The ``plugins`` list, checked before any registry exists to check the rest."""
    (entry,) = (entry for entry in declared(MatchSpec) if entry.field == "plugins")
    return tuple(KeyChecker(path, text).checked(raw, ("plugins",), entry.key.option) or ())


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


class _Validator(KeyReader):
    """One validation pass: the order of checks puts the most basic problem first.

    Every declared key is read by its declaration (:meth:`~KeyReader.read`) except those
    with a reader of their own (:attr:`OWN_READERS`), whose values depend on other keys.
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
            "league",
            "plugins",
        )
    )

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
        cross_checks.rounds_or_games(self, given)
        # Stored resolved (the game's when the file names none), as run keys always held them.
        for kind in ("codec", "transport"):
            if kind not in given:
                given[kind] = self.game_default(game_cls, kind)
        bots = self.bots(game_cls, seats, given["transport"])
        fmt = given.get("format", self.entries["format"].default)
        sprt = self.sprt(bots, seats, fmt, given)
        knockout = self.knockout(bots, seats, fmt, given)
        league = self.league(bots, seats, fmt, given)
        return self.schema(
            path=self.path,
            game=game_cls.name,
            seats=seats,
            bots=bots,
            challenger=cross_checks.challenger(
                self,
                self.checked(self.raw, ("challenger",), self.entries["challenger"].key.option),
                fmt,
                bots,
            ),
            clock=self.clock(game_cls),
            limits=self.limits(),
            sandbox=self.sandbox(),
            transport_options=self.transport_options(),
            executor_options=self.executor_options(),
            sprt=sprt,
            knockout=knockout,
            league=league,
            game_options=self.game_options(game_cls),
            plugins=plugins,
            **{
                **given,
                "name": given.get("name", self.path.stem),
                "concurrency": given.get("concurrency", os.cpu_count() or 1),
                "scorers": (scorers := self.scorers(given.get("scorers"), seats)),
                "ranking": cross_checks.ranking(self, given.get("ranking"), scorers),
            },
        )

    def scorers(self, names: tuple[str, ...] | None, seats: tuple[int, ...]) -> tuple[str, ...]:
        if names is None:
            return default_scorers(seats, self.registries)
        if len(set(names)) < len(names):
            self.fail(("scorers",), "scorers lists a scorer twice")
        return names

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
            cross_checks.name_unused(self, i, bot, bots)
            bots.append(bot)
        cross_checks.enough_bots(self, seats, len(bots))
        cross_checks.distinct_ports(self, self.raw, bots)
        return tuple(bots)

    def bot(
        self, table: dict[str, Any], where: KeyPath, game_cls: type[Game[Any]], transport: str
    ) -> BotSpec:
        label = show_path(where)
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
        cross_checks.one_way_to_run(self, where, name, given)
        cross_checks.args_of_a_builtin(self, where, given)
        builtin, inproc = given.get("builtin"), given.get("inproc", False)
        if builtin is not None:
            self.builtin(builtin, inproc, (*where, "builtin"), game_cls)
        elif inproc:
            cross_checks.inproc_of_a_builtin(self, where)
        self.env(given.get("env", {}), (*where, "env"))
        cross_checks.nothing_started(self, table, where, given)
        connect = given.get("connect", False)
        cross_checks.binding(self, table, where, connect, given.get("transport", transport))
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
                cross_checks.writable(self, key, name, folder, written)
                for written in values["writable"]
            )
        return values

    def sprt(
        self, bots: tuple[BotSpec, ...], seats: tuple[int, ...], fmt: str, given: dict[str, Any]
    ) -> dict[str, Any]:
        """``[sprt]``, which the bots, seats and format must fit (``{}`` when not written)."""
        values = self.sprt_table()
        if values:
            cross_checks.sprt_fits(self, bots, seats, fmt, given)
        return values

    def knockout(
        self, bots: tuple[BotSpec, ...], seats: tuple[int, ...], fmt: str, given: dict[str, Any]
    ) -> dict[str, Any]:
        """``[knockout]`` for a knockout (``{}`` for another format)."""
        table = self.table("knockout")
        if not cross_checks.knockout_fits(self, table, bots, seats, fmt, given):
            return {}
        return self.knockout_table(table)

    def league(
        self, bots: tuple[BotSpec, ...], seats: tuple[int, ...], fmt: str, given: dict[str, Any]
    ) -> dict[str, Any]:
        """``[league]`` for a league, with its defaults (``{}`` for another format)."""
        table = self.table("league")
        if not cross_checks.league_fits(self, table, bots, seats, fmt, given):
            return {}
        return self.league_table(table)
