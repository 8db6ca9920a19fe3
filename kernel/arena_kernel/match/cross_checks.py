"""The checks of a match file that involve several keys: a bot needs one of ``cmd``,
``builtin`` or ``connect``; ``rounds`` or ``games``; a connect bot's ``port`` of its own;
a bot's ``[bots.sandbox] writable`` paths inside its ``cwd``; what each ``format`` goes
with. Each reports through the :class:`~arena_kernel.match.key_checker.KeyChecker` it is
given, so that its message names the file, line and key like any other.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena_kernel.errors import did_you_mean
from arena_kernel.match.file_lines import KeyPath, show_path
from arena_kernel.match.key_checker import KeyChecker
from arena_kernel.match.key_reader import KeyReader
from arena_kernel.match.spec import DYNAMIC_FORMATS, BotSpec


def rounds_or_games(check: KeyChecker, given: dict[str, Any]) -> None:
    if "rounds" in given and "games" in given:
        check.fail(("games",), "give rounds or games, not both")


def name_unused(check: KeyChecker, i: int, bot: BotSpec, before: Sequence[BotSpec]) -> None:
    """The ``i``-th bot's name is none of the bots' ``before`` it."""
    if any(other.name == bot.name for other in before):
        check.fail(("bots", i, "name"), f'bots[{i + 1}]: bot name "{bot.name}" is used twice')


def enough_bots(check: KeyChecker, seats: tuple[int, ...], bots: int) -> None:
    """The largest group needs a bot per seat; smaller groups then have enough too."""
    needed = max(seats)
    if bots < needed:
        largest = "" if len(seats) == 1 else f" (the largest count in seats = {list(seats)})"
        check.fail(
            ("bots",),
            f"{needed} seats{largest} need at least {needed} bots, but there are {bots}",
        )


def distinct_ports(check: KeyChecker, raw: dict[str, Any], bots: Sequence[BotSpec]) -> None:
    """A bot's own port is its own: no other bot's, and not the shared one."""
    options = raw.get("transport_options")
    tcp = options.get("tcp") if isinstance(options, dict) else None
    shared = tcp.get("port") if isinstance(tcp, dict) else None
    owners: dict[int, str] = {}
    for i, bot in enumerate(bots):
        if bot.port is None:
            continue
        where = ("bots", i, "port")
        if bot.port == shared:
            check.fail(
                where,
                f"bots[{i + 1}].port = {bot.port} is the shared port of "
                "[transport_options.tcp]; give the bot a port of its own",
            )
        if bot.port in owners:
            check.fail(
                where,
                f'bots[{i + 1}].port = {bot.port} is already the port of bot "{owners[bot.port]}"',
            )
        owners[bot.port] = bot.name


def one_way_to_run(check: KeyChecker, where: KeyPath, name: str, given: dict[str, Any]) -> None:
    """Exactly one of a bot's ``cmd``, ``builtin`` and ``connect``."""
    label = show_path(where)
    how = [key for key in ("cmd", "builtin", "connect") if given.get(key)]
    if not how:
        check.fail(
            where,
            f'{label} ("{name}"): say how to run it: cmd = ["program", "arg"...], '
            'builtin = "..." or connect = true',
        )
    if len(how) > 1:
        check.fail(where, f'{label} ("{name}"): give only one of {" and ".join(how)}')


def args_of_a_builtin(check: KeyChecker, where: KeyPath, given: dict[str, Any]) -> None:
    """``args`` only for a built-in bot run as a program."""
    if "args" in given and (given.get("builtin") is None or given.get("inproc", False)):
        check.fail(
            (*where, "args"),
            f"{show_path(where)}.args only applies to a built-in bot run as a program "
            "(put a command's arguments in its cmd)",
        )


def inproc_of_a_builtin(check: KeyChecker, where: KeyPath) -> None:
    """``inproc`` written for a bot that is not built in."""
    check.fail((*where, "inproc"), f"{show_path(where)}.inproc only applies to builtin bots")


def nothing_started(
    check: KeyChecker, table: dict[str, Any], where: KeyPath, given: dict[str, Any]
) -> None:
    """Nothing is started for a connect bot, and an in-process bot has no transport either:
    a key that would be silently ignored is a mistake worth reporting."""
    connect, inproc = given.get("connect", False), given.get("inproc", False)
    started = "connect = true" if connect else "inproc = true" if inproc else None
    started_only = ("env", "cwd", "sandbox")
    ignored = started_only if connect else (*started_only, "transport") if inproc else ()
    unused = [key for key in ignored if key in table]
    if unused:
        check.fail(
            (*where, unused[0]),
            f"{show_path(where)}.{unused[0]} has no effect with {started} "
            "(arena starts no process)",
        )


def binding(
    check: KeyChecker, table: dict[str, Any], where: KeyPath, connect: bool, used: str
) -> None:
    """``port`` and ``peer``: only for a ``connect`` bot over the tcp transport."""
    label = show_path(where)
    given = [key for key in ("port", "peer") if key in table]
    if not given:
        return
    if not connect:
        check.fail(
            (*where, given[0]),
            f"{label}.{given[0]} only applies to a connect = true bot "
            "(a bot the arena starts gets a port of its own)",
        )
    if used != "tcp":
        check.fail(
            (*where, given[0]),
            f'{label}.{given[0]} only applies to the tcp transport, not "{used}"',
        )
    peer = table.get("peer")
    if peer is not None:
        try:
            ipaddress.ip_address(peer)
        except ValueError:
            check.fail(
                (*where, "peer"),
                f'{label}.peer must be an IP address such as "127.0.0.1", not "{peer}"',
            )


def writable(read: KeyReader, where: KeyPath, name: str, folder: str | None, written: str) -> Path:
    """A ``writable`` path of a bot's ``[bots.sandbox]``, from the bot's folder, which it
    must not leave."""
    label = show_path(where)
    if folder is None:
        read.fail(where, f'{label}: bot "{name}" has no folder of its own; give it a cwd')
    path = read.relative_path(where, written, Path(folder))
    if not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder)):
        read.fail(
            where,
            f'{label}: "{written}" is outside the folder of bot "{name}" ({folder}); '
            "a bot may write only inside its cwd",
        )
    return read.bindable(where, path)


def challenger(
    check: KeyChecker, name: str | None, fmt: str, bots: tuple[BotSpec, ...]
) -> str | None:
    """The gauntlet's challenger: one of the bots, the first when not named; only for
    ``format = "gauntlet"``."""
    if fmt != "gauntlet":
        if name is not None:
            check.fail(("challenger",), 'challenger is only used with format = "gauntlet"')
        return None
    if len(bots) < 2:
        check.fail(("bots",), "a gauntlet needs at least 2 bots")
    names = [bot.name for bot in bots]
    if name is None:
        return names[0]
    if name not in names:
        check.fail(
            ("challenger",),
            f'challenger "{name}" is not one of the bots{did_you_mean(name, names)}; '
            f"bots: {', '.join(names)}",
        )
    return str(name)


def ranking(check: KeyChecker, name: str | None, scorers: tuple[str, ...]) -> str | None:
    """The scorer that ranks the standings: one of ``scorers``, the first when not named."""
    if name is None:
        return scorers[0] if scorers else None
    if name not in scorers:
        check.fail(
            ("ranking",),
            f'ranking "{name}" is not one of the scorers{did_you_mean(name, scorers)}; '
            f"scorers: {', '.join(scorers) or 'none'}",
        )
    return name


def sprt_fits(
    check: KeyChecker,
    bots: tuple[BotSpec, ...],
    seats: tuple[int, ...],
    fmt: str,
    given: dict[str, Any],
) -> None:
    """A test of the first bot against the second needs exactly those two, two seats, and
    both colours of each pair."""
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
        check.fail(("sprt",), f"[sprt] tests the first bot against the second: it needs {problem}")


def knockout_fits(
    check: KeyChecker,
    table: dict[str, Any],
    bots: tuple[BotSpec, ...],
    seats: tuple[int, ...],
    fmt: str,
    given: dict[str, Any],
) -> bool:
    """Whether ``[knockout]`` (``table``) is read: only for a knockout. ``swiss`` and
    ``knockout`` checked against the keys they cannot go with."""
    if fmt not in DYNAMIC_FORMATS:
        if table:
            check.fail(("knockout",), '[knockout] is only used with format = "knockout"')
        return False
    if "games" in given:
        check.fail(("games",), f'format = "{fmt}" plays its own number of games: no games')
    if fmt == "swiss" and len(bots) < max(seats):
        check.fail(("bots",), f"a Swiss of {max(seats)} seats needs at least that many bots")
    if fmt == "swiss" and len(seats) > 1:
        check.fail(("seats",), 'format = "swiss" plays one seat count')
    if fmt == "swiss":
        if table:
            check.fail(("knockout",), '[knockout] is only used with format = "knockout"')
        return False
    if seats != (2,):
        check.fail(("seats",), 'format = "knockout" plays two-player ties: seats = 2')
    if "rounds" in given:
        check.fail(("rounds",), 'format = "knockout" plays until one bot is left: no rounds')
    return True


def league_fits(
    check: KeyChecker,
    table: dict[str, Any],
    bots: tuple[BotSpec, ...],
    seats: tuple[int, ...],
    fmt: str,
    given: dict[str, Any],
) -> bool:
    """Whether ``[league]`` (``table``) is read: only for a league, which plays until told
    to stop (no rounds, no games), one seat count, seats of its own choosing, among at
    least a table's worth of bots that are not retired."""
    if fmt != "league":
        if table:
            check.fail(("league",), '[league] is only used with format = "league"')
        retired = next((i for i, bot in enumerate(bots) if bot.retired), None)
        if retired is not None:
            check.fail(
                ("bots", retired, "retired"),
                f'bots[{retired + 1}].retired only applies to format = "league"',
            )
        return False
    for key, why in (
        ("rounds", "it plays until told to stop (arena run --games N or --until TIME)"),
        ("games", "it plays until told to stop (arena run --games N or --until TIME)"),
        ("seatings", "it seats each game's bots to keep their seats even"),
    ):
        if key in given:
            check.fail((key,), f'format = "league" takes no {key}: {why}')
    if len(seats) > 1:
        check.fail(("seats",), 'format = "league" plays one seat count')
    playing = sum(not bot.retired for bot in bots)
    needed = max(seats[0], 2)
    if playing < needed:
        check.fail(
            ("bots",),
            f"a league of {seats[0]} seats needs at least {needed} bots that are not retired, "
            f"but there are {playing}",
        )
    return True
