"""``arena check-bot GAME -- CMD...``: a short check of one bot before a tournament.

It plays a couple of games of GAME between the bot that CMD starts and the game's built-in
bots, through the real runner (the same clocks, limits and sandbox as ``arena run``), in a
temporary folder, then prints the bot's side of each game message by message and every
fault of its seat (see :mod:`arena_kernel.cli.check_report`). Exit status 0 when the bot
made no fault, 1 when it made any (or a game could not be played), 2 on a user error.

Like every command, it imports the runner and the plugins only when it runs.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena_kernel.cli.options import plugin_option
from arena_kernel.referee.clocks import MODES

if TYPE_CHECKING:
    from arena_kernel.cli.check_report import CheckedGame, CheckReport
    from arena_kernel.games.base import Game
    from arena_kernel.model import RunInfo, ScheduledGame
    from arena_kernel.registries.registry import Registries

BOT = "candidate"
"""The name of the bot under test in the check's match (another if a built-in has it)."""

MATCH_FILE = "check-bot.toml"


@click.command(
    "check-bot",
    epilog="Examples: arena check-bot stones -- python3 my_bot.py; "
    "arena check-bot liarsdice --games 4 -- node bot.js --port {port}",
)
@click.argument("game")
@click.argument("cmd", nargs=-1, metavar="-- CMD...")
@plugin_option
@click.option(
    "--games",
    "-n",
    type=click.IntRange(min=1),
    metavar="N",
    help="Games to play (default: one per seat, so that the bot plays each seat once).",
)
@click.option(
    "--seats",
    type=click.IntRange(min=1),
    metavar="N",
    help="Players per game (default: the game's smallest count).",
)
@click.option(
    "--opponent",
    "opponents",
    multiple=True,
    metavar="BUILTIN",
    help="A built-in bot to play against (repeatable; default: all, in the game's order).",
)
@click.option(
    "--cwd",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="The folder the bot runs in (default: the current one).",
)
@click.option(
    "--reply",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="The per-reply time limit (default: the game's).",
)
@click.option(
    "--startup",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="The start-up time limit (default: the game's).",
)
@click.option(
    "--clock",
    "mode",
    type=click.Choice(MODES),
    default="wall",
    show_default=True,
    help='What the limits measure, as [clock] mode: "cpu" charges the bot its CPU time.',
)
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A game option, as in [game_options] (a TOML value, or else a string; repeatable).",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    metavar="PORT",
    help="A fixed TCP port for the bots, for a bot that cannot be told its port "
    "([transport_options.tcp] port).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The match seed.")
@click.option(
    "--keep",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    help="Keep the database and logs in DIR (new or empty) for arena replay and arena report.",
)
@click.option("--verbose", "-v", is_flag=True, help="Every message, in full.")
@click.option("--quiet", "-q", is_flag=True, help="No line on stderr as each game starts.")
def check_bot(
    game: str,
    cmd: tuple[str, ...],
    plugins: tuple[str, ...],
    games: int | None,
    seats: int | None,
    opponents: tuple[str, ...],
    cwd: Path | None,
    reply: float | None,
    startup: float | None,
    mode: str,
    options: tuple[str, ...],
    port: int | None,
    seed: int,
    keep: Path | None,
    verbose: bool,
    quiet: bool,
) -> None:
    """Play a short match of GAME between the bot that CMD starts and the game's built-in
    bots, and report what the bot got wrong, message by message.

    Write the bot's command after --, as in a match file's cmd (with {identifier}, {host}
    and {port} for a TCP bot). It plays every seat in turn against the game's built-in bots,
    on the game's clocks and limits, sandboxed as in arena run. For each game: every request
    the bot got, its reply and the time it took of its limit, and every fault of its seat;
    then the first problem.

    Exits 0 (PASS) when the bot made no fault in any game, 1 (FAIL, with its faults by
    kind) when it made any or a game could not be played, 2 on a user error (an unknown
    game, no command, a command that does not exist).
    """
    from arena_kernel.cli.commands import registries_with, user_errors
    from arena_kernel.errors import ArenaError

    with user_errors():
        if not cmd:
            raise ArenaError(
                "no bot command: write it after --, e.g. arena check-bot GAME -- ./bot"
            )
        _pm, registries = registries_with(plugins)
        game_cls: type[Game[Any]] = registries.games.cls(game)
        count = seats if seats is not None else min(game_cls.seats)
        if count not in game_cls.seats:
            supported = ", ".join(str(n) for n in sorted(game_cls.seats))
            raise ArenaError(f"{game} is played by {supported} players, not {count}")
        folder = Path(cwd if cwd is not None else Path.cwd()).resolve()
        with _workspace(keep) as where:
            match = _match(
                game_cls,
                list(cmd),
                folder,
                where,
                count,
                games or count,
                list(opponents),
                _clock(reply, startup, mode),
                _game_options(options),
                port,
                seed,
            )
            path = where / MATCH_FILE
            path.write_text(_toml(match), encoding="utf-8")
            checked, report = _play(path, match, game_cls, plugins, registries, verbose, quiet)
    for line in _heading(game, match, checked, registries):
        click.echo(line)
    for line in report.lines:
        click.echo(line)
    if keep is not None:
        database = keep / "check-bot.sqlite"
        click.echo(f"kept: {database} (arena replay {database} GAME_ID; arena report)")
    sys.exit(0 if report.passed else 1)


def _play(
    path: Path,
    match: dict[str, Any],
    game_cls: type[Game[Any]],
    plugins: tuple[str, ...],
    registries: Registries,
    verbose: bool,
    quiet: bool,
) -> tuple[list[CheckedGame], CheckReport]:
    """Run the check's match file, then read its games and make the report (before the
    temporary folder goes)."""
    from arena_kernel.cli.check_report import CheckedGame, ClockLimits, check_report
    from arena_kernel.cli.interrupts import interrupted
    from arena_kernel.errors import ArenaError
    from arena_kernel.runner.api import prepare, run_prepared
    from arena_kernel.store.sqlite import Store
    from arena_kernel.transports.stderr_log import stderr_end

    try:
        prepared = prepare(path, plugins)
        observer = _progress(match["games"], match["challenger"], quiet)
        try:
            summary = run_prepared(prepared, [observer])
        except KeyboardInterrupt:
            raise interrupted() from None
    except ArenaError as exc:
        # The match file is the command's own: name the command, not a temporary file.
        message = re.sub(re.escape(str(path)) + r"(, line \d+)?", "check-bot", str(exc))
        raise ArenaError(message) from None
    for error in summary.errors:
        click.echo(f"arena: {error}", err=True)
    bot = match["challenger"]
    with Store(summary.run.database) as store:
        checked = []
        for detail in store.games(summary.run.run_id):
            seat = detail.seating.index(bot)
            log = detail.stderr_logs.get(seat)
            stderr = stderr_end(log) if log is not None else ""
            checked.append(CheckedGame(detail, store.events(detail.game_id), stderr))
    clocks = game_cls.clocks.merged(dict(prepared.spec.clock))
    limits = ClockLimits(clocks.startup, clocks.reply)
    report = check_report(
        checked,
        bot,
        limits,
        session=game_cls.lifetime == "session",
        verbose=verbose,
        planned=match["games"],
        port_given="transport_options" in match,
    )
    return checked, report


def _heading(
    game: str, match: dict[str, Any], checked: Sequence[CheckedGame], registries: Registries
) -> list[str]:
    bot = next(b for b in match["bots"] if b["name"] == match["challenger"])
    met = {name for g in checked for name in g.detail.seating if name != bot["name"]}
    opponents = [b["name"] for b in match["bots"] if b["name"] in met]
    clocks = registries.games.cls(game).clocks.merged(match.get("clock", {}))
    sandboxes = sorted({g.detail.sandbox or "unknown" for g in checked if g.events})
    options = match.get("game_options", {})
    lines = [
        f"check-bot: {game}, {match['games']} game{'' if match['games'] == 1 else 's'} of "
        f"{match['seats']} players against the built-in bots "
        f"{', '.join(opponents) or '(none played)'} (seed {match['seed']})",
        f"{bot['name']}: {' '.join(bot['cmd'])}  (in {bot['cwd']})",
        f"clocks: start-up {clocks.startup:g} s, reply {clocks.reply:g} s, grace "
        f"{clocks.grace:g} s"
        + (f", game {clocks.game:g} s" if clocks.game else "")
        + (f" of CPU time (wall cap {clocks.wall_cap:g} times)" if clocks.mode == "cpu" else ""),
    ]
    if options:
        lines.append(
            f"game options: {', '.join(f'{k} = {json.dumps(v)}' for k, v in options.items())}"
        )
    if sandboxes:
        lines.append(f"sandbox: {', '.join(sandboxes)}")
    return lines


def _match(
    game_cls: type[Game[Any]],
    cmd: list[str],
    cwd: Path,
    where: Path,
    seats: int,
    games: int,
    opponents: list[str],
    clock: dict[str, float | str],
    options: dict[str, Any],
    port: int | None,
    seed: int,
) -> dict[str, Any]:
    """The check's match: the bot first (so that its rotations start in seat 0), then the
    built-in opponents, each run as a program as in a tournament; a gauntlet of ``games``
    games over the groups that include the bot, each played to its end even when the bot
    fails to come up in it."""
    from arena_kernel.errors import ArenaError, did_you_mean

    builtins = list(game_cls.bots)
    if not builtins:
        raise ArenaError(f"{game_cls.name} has no built-in bots to play against")
    for name in opponents:
        if name not in builtins:
            raise ArenaError(
                f'{game_cls.name} has no built-in bot "{name}"{did_you_mean(name, builtins)}; '
                f"its bots: {', '.join(builtins)}"
            )
    chosen = opponents or builtins
    bot = BOT
    while bot in builtins:
        bot += "-bot"
    taken = {bot}
    bots: list[dict[str, Any]] = [{"name": bot, "cmd": cmd, "cwd": str(cwd)}]
    for n in range(max(len(chosen), seats - 1)):
        builtin = chosen[n % len(chosen)]
        name, k = builtin, 1
        while name in taken:
            k += 1
            name = f"{builtin}-{k}"
        taken.add(name)
        bots.append({"name": name, "builtin": builtin})
    match: dict[str, Any] = {
        "game": game_cls.name,
        "name": "check-bot",
        "seed": seed,
        "seats": seats,
        "format": "gauntlet",
        "challenger": bot,
        "seatings": "rotations",
        "games": games,
        "concurrency": 1,
        "database": str(where / "check-bot.sqlite"),
        "logs": str(where / "logs"),
        "scorers": ["wins"],
        "startup_failures": "forfeit",  # a bot that cannot start is what the check shows
    }
    if clock:
        match["clock"] = clock
    if options:
        match["game_options"] = options
    if port is not None:
        match["transport_options"] = {"tcp": {"port": port}}
    match["bots"] = bots
    return match


def _clock(reply: float | None, startup: float | None, mode: str) -> dict[str, float | str]:
    given = {"reply": reply, "startup": startup}
    clock: dict[str, float | str] = {k: v for k, v in given.items() if v is not None}
    if mode != "wall":
        clock["mode"] = mode
    return clock


def _game_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs: the value as TOML (``3``, ``true``, ``"x"``), or else a string."""
    import tomllib

    from arena_kernel.errors import ArenaError

    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise ArenaError(f"--option {pair}: write KEY=VALUE, e.g. --option pile=30")
        try:
            value = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            value = text
        options[key.strip()] = value
    return options


def _toml(match: dict[str, Any]) -> str:
    import tomli_w

    return tomli_w.dumps(match)


@contextlib.contextmanager
def _workspace(keep: Path | None) -> Iterator[Path]:
    """The folder of the check's match file, database and logs: ``keep`` (made if missing,
    and refused unless empty), or a temporary one removed at the end."""
    import shutil
    import tempfile

    from arena_kernel.errors import ArenaError

    if keep is None:
        folder = Path(tempfile.mkdtemp(prefix="arena-check-bot-"))
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return
    if keep.exists() and (not keep.is_dir() or any(keep.iterdir())):
        raise ArenaError(f"--keep {keep}: give a new or empty folder")
    try:
        keep.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ArenaError(f"--keep {keep}: cannot create it: {exc.strerror or exc}") from None
    yield keep.resolve()


def _progress(games: int, bot: str, quiet: bool) -> object:
    """An observer of the run: one line on stderr as each game starts (none with
    ``quiet``), and the run's warning about its sandbox. Made here, as pluggy is imported
    only when a command runs."""
    from arena_kernel.markers import hookimpl

    class Progress:
        started = 0

        @hookimpl
        def arena_run_start(self, run: RunInfo) -> None:
            if run.sandbox_note is not None:
                click.echo(f"arena: {run.sandbox_note}", err=True)

        @hookimpl
        def arena_game_start(self, run: RunInfo, game: ScheduledGame) -> None:
            self.started += 1
            if quiet:
                return
            seat = game.seating.index(bot)
            others = ", ".join(name for name in game.seating if name != bot)
            click.echo(
                f"check-bot: game {self.started} of {games}: seat {seat} against {others}",
                err=True,
            )

    return Progress()
