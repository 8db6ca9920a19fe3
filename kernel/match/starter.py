"""The commented starter match file that ``arena init GAME`` writes.

It is the documentation people actually read: every key appears with its default and a
comment, the game's options with their help, and the game's built-in bots ready to play,
so that a freshly written file runs as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tomli_w

from arena_kernel.codecs.base import DEFAULT_MAX_MESSAGE
from arena_kernel.games.base import Game, Option
from arena_kernel.match.loader import default_scorers
from arena_kernel.registries.registry import Registries, Registry
from arena_kernel.transports.base import Limits

MAX_LISTED_BOTS = 4
"""Up to this many built-in bots are all written out; beyond, the rest are only named."""


def starter_file(game_name: str, registries: Registries, plugins: Sequence[str] = ()) -> str:
    """A valid, commented match file for ``game_name``, its defaults written out.

    ``plugins`` are the plugin modules loaded by hand (``arena init -p MODULE``); they are
    written into the file so that it runs as it is. An unknown game raises
    :class:`~arena_kernel.errors.PluginError` naming the installed ones.
    """
    game_cls: type[Game] = registries.games.cls(game_name)
    seats = min(game_cls.seats)
    parts = [
        _top_level(game_cls, seats, registries, plugins),
        _clock(game_cls),
        _limits(),
        _transport_options(game_cls),
        _game_options(game_cls),
        _bots(game_cls, seats, registries),
    ]
    return "\n\n".join(part.strip("\n") for part in parts) + "\n"


def _top_level(
    game_cls: type[Game], seats: int, registries: Registries, plugins: Sequence[str]
) -> str:
    name = game_cls.name
    summary = f": {_first_line(game_cls.summary)}" if game_cls.summary else ""
    supported = ", ".join(str(n) for n in sorted(game_cls.seats))
    scorers = default_scorers((seats,), registries)
    scorers_line = (
        _kv("scorers", list(scorers)) if scorers else '# scorers = ["wins"]  # none installed'
    )
    return f"""\
# Match file for {name}{summary}
# Written by `arena init {name}`; play it with `arena run FILE`. Only `game` and the
# [[bots]] are required: every other key shows its default and may be deleted.

# The game to play (installed games: {_names(registries.games)}).
{_kv("game", name)}

# The run's name in the database and in reports (default: this file's name).
# name = "my-match"

# Each game's seed is derived from this one: the same file plays the same games.
seed = 0

# Players per game ({name} supports {supported}). A list such as [3, 4] plays every
# group size in one run, smallest first (with at least as many bots as the largest).
{_kv("seats", seats)}

# "round-robin": every group of `seats` bots plays (of each size). "gauntlet": only the
# groups that include the challenger (default: the first bot).
format = "round-robin"
# challenger = "..."

# "rotations": each group plays once per rotation of its seating, so every bot plays
# every seat equally often. "permutations": once per seat order.
seatings = "rotations"

# How many times the whole schedule is played; or `games = N` for exactly N games
# (not both).
rounds = 1
# games = 100

# Games played at the same time (default: the number of CPUs).
# concurrency = 4

# The results database and the folder of event logs, relative to this file.
database = "arena.sqlite"
logs = "arena-logs"

# {name} uses codec "{game_cls.codec}" and transport "{game_cls.transport}"; override them with
# installed ones (codecs: {_names(registries.codecs)}; transports: {_names(registries.transports)}).
# codec = "{game_cls.codec}"
# transport = "{game_cls.transport}"

# The standings to compute (installed scorers: {_names(registries.scorers)}).
{scorers_line}

# Extra plugin modules to load first, as import paths.
{_kv("plugins", list(plugins)) if plugins else '# plugins = ["my_package.arena_plugin"]'}

# The largest message a bot may send, in KiB; a longer one is a fault.
max_message_kb = {DEFAULT_MAX_MESSAGE // 1024}
"""


def _clock(game_cls: type[Game]) -> str:
    clocks = game_cls.clocks
    return f"""\
# Time limits, in seconds (the defaults of {game_cls.name}).
[clock]
# Starting a bot (and connecting it) up to its first reply.
{_kv("startup", clocks.startup)}
# Each reply.
{_kv("reply", clocks.reply)}
# Added to every limit, to absorb scheduling jitter.
{_kv("grace", clocks.grace)}
# A per-seat budget for a whole game; 0 for none.
{_kv("game", clocks.game or 0)}
# Between SIGTERM and SIGKILL when a bot's game is over.
{_kv("kill", clocks.kill)}
"""


def _limits() -> str:
    limits = Limits()
    return f"""\
# Limits for every bot process; 0 for no limit.
[limits]
{_kv("memory_mb", limits.memory_mb or 0)}
{_kv("cpu_seconds", limits.cpu_seconds or 0)}
{_kv("processes", limits.processes or 0)}
# The stderr kept per bot and game, in KiB (at least 1).
{_kv("stderr_kb", limits.stderr_kb)}
"""


def _transport_options(game_cls: type[Game]) -> str:
    return f"""\
# Options of a transport, one table per transport name:
# [transport_options.{game_cls.transport}]
# option = "value"
"""


def _game_options(game_cls: type[Game]) -> str:
    if not game_cls.options:
        return f"# The game {game_cls.name} has no options."
    # Table-valued options are sub-tables, which TOML wants after the plain keys.
    ordered = sorted(game_cls.options.items(), key=lambda item: isinstance(item[1].default, dict))
    lines = [f"# The options of {game_cls.name}, at their defaults.", "[game_options]"]
    for key, option in ordered:
        lines += [f"# {line}".rstrip() for line in _option_help(option)]
        if option.default is None:
            lines.append(f"# {_key(key)} = ...  (not set by default)")
        elif isinstance(option.default, dict):
            lines.append(tomli_w.dumps({"game_options": {key: option.default}}).rstrip("\n"))
        else:
            lines.append(_kv(key, option.default))
    return "\n".join(lines)


def _option_help(option: Option) -> list[str]:
    lines = option.help.splitlines()
    notes = []
    if option.choices is not None:
        notes.append("one of " + ", ".join(_value(choice) for choice in option.choices))
    if option.minimum is not None:
        notes.append(f"at least {option.minimum}")
    if option.maximum is not None:
        notes.append(f"at most {option.maximum}")
    if notes:
        lines.append(f"({'; '.join(notes)})")
    return lines


def _bots(game_cls: type[Game], seats: int, registries: Registries) -> str:
    needed = max(seats, 2)
    builtins = list(game_cls.bots)
    listed = builtins[: max(needed, MAX_LISTED_BOTS)]
    lines = ["# The bots, in schedule order. Each needs a unique name and one of cmd, builtin or"]
    lines.append("# connect = true.")
    if not builtins:
        lines.append(
            f"# The game {game_cls.name} has no built-in bots: point cmd at your programs."
        )
        for n in range(1, needed + 1):
            lines += ["", "[[bots]]", _kv("name", f"bot-{n}")]
            lines.append(_kv("cmd", ["python3", f"bot{n}.py"]))
    taken: set[str] = set()
    for n in range(max(len(listed), needed) if listed else 0):
        builtin = listed[n % len(listed)]
        name = _unique(builtin, taken)
        summary = _first_line(game_cls.bots[builtin].summary)
        lines += ["", "[[bots]]", _kv("name", name)]
        lines.append(_kv("builtin", builtin) + (f"  # {summary}" if summary else ""))
        if game_cls.bots[builtin].inproc is not None:
            lines.append("# inproc = true  # run inside the arena process: much faster")
    rest = [name for name in builtins if name not in listed]
    if rest:
        lines += ["", "# Other built-in bots:"]
        lines += [f"#   {name}: {_first_line(game_cls.bots[name].summary)}" for name in rest]
    lines += [
        "",
        "# Your own program, as an argv list ({identifier}, {host} and {port} are filled in):",
        "# [[bots]]",
        '# name = "mine"',
        '# cmd = ["python3", "my_bot.py"]',
        '# env = { DEBUG = "1" }',
        '# cwd = "bots"',
        "",
        "# A bot started by someone else, which connects to the arena by itself:",
        "# [[bots]]",
        '# name = "remote"',
        "# connect = true",
    ]
    if "tcp" in registries.transports:
        lines.append('# transport = "tcp"')
        lines.append("# Its seat takes the first connection no bot of the arena made; bind it:")
        lines.append("# port = 6001         # only connections to this port, opened for it")
        lines.append('# peer = "127.0.0.1"  # only connections from this address')
    return "\n".join(lines)


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
    if isinstance(value, list) and not any(isinstance(v, dict | list) for v in value):
        return f"{_key(key)} = [{', '.join(_value(v) for v in value)}]"
    return tomli_w.dumps({key: value}).rstrip("\n")


def _key(key: str) -> str:
    return tomli_w.dumps({key: 0}).removesuffix(" = 0\n")


def _value(value: Any) -> str:
    return tomli_w.dumps({"v": value}).removeprefix("v = ").rstrip("\n")
