"""A validated match file, and the declaration of every key a match file may write.

Each field below that a file sets is declared once with
:func:`~arena_kernel.match.schema.declare` (type, default, accepted values, help text,
the form of the run key it joined): :mod:`arena_kernel.match.schema` says who reads the
declarations and the rule that keeps run keys stable when a field is added.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, is_dataclass
from pathlib import Path
from typing import Any, Literal

from arena_kernel.codecs.base import DEFAULT_MAX_MESSAGE
from arena_kernel.match.schema import FIRST_FORM, declare, identity, keyed_table
from arena_kernel.options import Option
from arena_kernel.referee.clocks import MODES, Clocks
from arena_kernel.referee.startup import FIRST_GAMES
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.sandbox.settings import BOT_SANDBOX_KEYS, SANDBOX_KEYS, SandboxSettings


@dataclass(frozen=True)
class BotSpec:
    """One ``[[bots]]`` table. Exactly one of ``cmd``, ``builtin`` or ``connect`` is set."""

    name: str = declare(
        Option(None, "The bot's name, unique in the file.", type=str),
        keyed_since=FIRST_FORM,
        required=True,
    )
    cmd: tuple[str, ...] | None = declare(
        Option(
            None,
            'The program to run, as an argv list such as ["python3", "bot.py"]; '
            "{identifier}, {host} and {port} are filled in. Runs in the match file's "
            "folder unless cwd says otherwise.",
            type=list[str],
        ),
        keyed_since=FIRST_FORM,
        example=["python3", "my_bot.py"],
    )
    builtin: str | None = declare(
        Option(None, "One of the game's built-in bots (arena init GAME lists them).", type=str),
        keyed_since=FIRST_FORM,
    )
    args: tuple[str, ...] = declare(
        Option(
            (),
            "Extra command-line arguments for a built-in bot run as a program, such as "
            '["--time", "0.5"].',
            type=list[str],
        ),
        keyed_since=FIRST_FORM,
    )
    inproc: bool = declare(
        Option(
            False,
            "A built-in bot that supports it runs inside the arena process: much faster, "
            "the same bytes.",
        ),
        keyed_since=FIRST_FORM,
    )
    connect: bool = declare(
        Option(
            False,
            "A bot started by someone else, which connects to the arena by itself (tcp).",
        ),
        keyed_since=FIRST_FORM,
    )
    transport: str | None = declare(
        Option(None, "This bot's transport (not with inproc).", type=str),
        keyed_since=FIRST_FORM,
        registry="transport",
        default_text="the match's",
    )
    env: Mapping[str, str] = declare(
        Option({}, "Extra environment variables, a table of strings (not with connect or inproc)."),
        keyed_since=FIRST_FORM,
        example={"DEBUG": "1"},
    )
    cwd: str | None = declare(
        Option(
            None,
            "The folder the bot runs in, relative to the match file (not with connect or inproc).",
            type=str,
        ),
        keyed_since=FIRST_FORM,
        default_text="the match file's folder for a cmd",
        example="bots",
    )
    port: int | None = declare(
        Option(
            None,
            "A connect bot over tcp: its seat takes only connections to this port, opened "
            "for it. Where a remote bot connects from is not part of the run's identity.",
            type=int,
            minimum=1,
            maximum=65535,
        ),
        keyed_since=None,
        example=6001,
    )
    peer: str | None = declare(
        Option(
            None,
            "A connect bot over tcp: its seat takes only connections from this IP address.",
            type=str,
        ),
        keyed_since=None,
        example="127.0.0.1",
    )
    retired: bool = declare(
        Option(
            False,
            'A league\'s bot that plays no more (format = "league"): its games and ratings '
            "stay, and it keeps its place on the ladder.",
        ),
        keyed_since=None,
    )
    sandbox: Mapping[str, Any] = declare(
        Option(
            {},
            "This bot's own [sandbox] keys, in a [bots.sandbox] table after its [[bots]] "
            "(not with connect or inproc).",
        ),
        keyed_since=None,
        table=BOT_SANDBOX_KEYS,
        default_text="the run's [sandbox]",
        example={"writable": ["out"]},
    )
    """The bot's table as :meth:`SandboxSettings.for_bot` takes it: the keys written,
    paths absolute."""


_KERNEL_CLOCKS = Clocks()
CLOCK_KEYS: Mapping[str, Option] = {
    "startup": Option(
        None, "Starting a bot and connecting it, up to its first reply.", type=float, above=0
    ),
    "reply": Option(None, "Each reply.", type=float, above=0),
    "grace": Option(
        None, "Added to every limit, to absorb scheduling jitter.", type=float, minimum=0
    ),
    "game": Option(None, "A per-seat budget for a whole game; 0 for none.", type=float, minimum=0),
    "kill": Option(
        None, "Between SIGTERM and SIGKILL when a bot's game is over.", type=float, minimum=0
    ),
    "mode": Option(
        _KERNEL_CLOCKS.mode,
        'What the limits measure: "wall" (time from request to reply) or "cpu" (CPU time '
        "the bot's processes use meanwhile; see docs/clocks.md).",
        type=str,
        choices=MODES,
    ),
    "wall_cap": Option(
        _KERNEL_CLOCKS.wall_cap,
        'In "cpu" mode, the most a reply may take by the wall clock, as a multiple of its limit.',
        type=float,
        minimum=1,
    ),
}
"""The keys of ``[clock]``, in seconds but ``mode`` and ``wall_cap``; each defaults to the
game's (a game sets times only: the mode and the cap default to the kernel's)."""

CLOCK_KEYED_SINCE = {"mode": 2, "wall_cap": 2}
"""The ``[clock]`` entries that joined the run key after its first form, and the form."""


def _keyed_clock(clock: Mapping[str, Any]) -> dict[str, Any]:
    return keyed_table(clock, asdict(_KERNEL_CLOCKS), CLOCK_KEYED_SINCE)


_KERNEL_LIMITS = ResourceLimits()
LIMIT_KEYS: Mapping[str, Option] = {
    "memory_mb": Option(
        _KERNEL_LIMITS.memory_mb or 0,
        "Writable private memory in MiB, 0 for no limit: of each process (RLIMIT_DATA, not "
        "reservations) and, with a memory cgroup, of all of a bot's processes together.",
        minimum=0,
    ),
    "cpu_seconds": Option(
        _KERNEL_LIMITS.cpu_seconds or 0, "CPU seconds; 0 for no limit.", minimum=0
    ),
    "processes": Option(
        _KERNEL_LIMITS.processes or 0,
        "Processes (RLIMIT_NPROC, which Linux does not apply to root); 0 for no limit.",
        minimum=0,
    ),
    "write_mb": Option(
        _KERNEL_LIMITS.write_mb or 0,
        "The largest file a bot may write, in MiB (RLIMIT_FSIZE); 0 for no limit.",
        minimum=0,
    ),
    "stderr_kb": Option(
        _KERNEL_LIMITS.stderr_kb, "The stderr kept per bot and game, in KiB.", minimum=1
    ),
}
"""The keys of ``[limits]``, per bot process, with the kernel's defaults (0: no limit)."""

SPRT_KEYS: Mapping[str, Option] = {
    "elo0": Option(
        None, "H0: the first bot is at most this many Elo better than the second.", type=float
    ),
    "elo1": Option(
        None, "H1: the first bot is at least this many Elo better (above elo0).", type=float
    ),
    "alpha": Option(0.05, "The chance to accept H1 when H0 holds.", above=0, maximum=0.5),
    "beta": Option(0.05, "The chance to accept H0 when H1 holds.", above=0, maximum=0.5),
    "model": Option(
        "logistic",
        'How elo0 and elo1 are meant: "logistic" (ordinary Elo) or "normalized" (Elo '
        "scaled by the spread of the pair scores, which does not depend on the draw rate).",
        choices=("logistic", "normalized"),
    ),
}
"""The keys of ``[sprt]``: a sequential probability ratio test of the first bot against
the second (docs/sprt.md)."""

KNOCKOUT_KEYS: Mapping[str, Option] = {
    "games": Option(2, "Games per tie (even: each bot plays each seat equally often).", minimum=2),
    "tiebreak": Option(
        2,
        "Extra games (even) a tie plays when its games leave the two bots level; still "
        "level after them, the higher seed goes through.",
        minimum=0,
    ),
}
"""The keys of ``[knockout]`` (``format = "knockout"``)."""

LEAGUE_KEYS: Mapping[str, Option] = {
    "block": Option(
        None,
        "Games per block: after each block the league refits its ratings, records them and "
        "plans the next block from them. Unset: one game per bot that may play.",
        type=int,
        minimum=1,
    ),
    "pairing": Option(
        "adaptive",
        '"adaptive": each game goes where it settles the most of the ladder\'s uncertainty '
        '(docs/league.md). "uniform": uniformly random tables, the baseline.',
        choices=("adaptive", "uniform"),
    ),
    "least": Option(
        0.5,
        "Each bot that may play gets at least this part of its fair share of a block's games "
        "(the block's seats over its bots that may play), rounded down.",
        minimum=0,
        maximum=1,
    ),
    "most": Option(
        2.0,
        "Each bot gets at most this many times its fair share of a block's games, rounded up.",
        minimum=1,
    ),
    "final": Option(
        "round-robin",
        "The format of the final among the league's top bots (arena run --from-league); a "
        "knockout is seeded by the ladder.",
        choices=("round-robin", "knockout"),
    ),
    "final_rounds": Option(
        1, "Rounds of a round-robin final (each: every pair, in every seat order).", minimum=1
    ),
}
"""The keys of ``[league]`` (``format = "league"``): docs/league.md."""

AUTO_REFEREES_FROM = 500
"""Sessions to play from which a run without `referees` referees them in as many processes
as there are cores: fewer would not repay the processes' start."""

FORMATS = ("round-robin", "gauntlet", "swiss", "knockout", "league")
DYNAMIC_FORMATS = ("swiss", "knockout")
"""Formats whose games depend on the results so far: played a stage at a time."""
SEATINGS = ("rotations", "permutations")
STARTUP_FAILURES = ("stop", "forfeit")


LIMITS_KEYED_SINCE = {"write_mb": 2}
"""The ``[limits]`` entries that joined the run key after its first form, and the form."""


def _keyed_limits(limits: ResourceLimits) -> dict[str, Any]:
    return keyed_table(asdict(limits), asdict(_KERNEL_LIMITS), LIMITS_KEYED_SINCE)


def _keyed_seats(seats: tuple[int, ...]) -> int | list[int]:
    """One count as the key's first form holds it (a plain integer, lists came later), so
    that the stored runs of single-count files keep their keys and still resume."""
    return seats[0] if len(seats) == 1 else list(seats)


@dataclass(frozen=True, kw_only=True)
class MatchSpec:
    """The match file, validated, with defaults filled in; ``path`` is where it was read
    from (for messages).

    ``seats`` holds the seat counts to play, ascending: usually one, several when a run
    plays every group size of a contest format (three to six players, say) in one go.
    """

    path: Path
    game: str = declare(
        Option(None, "The game to play: an installed game's name.", type=str),
        keyed_since=FIRST_FORM,
        required=True,
        registry="game",
    )
    name: str = declare(
        Option("match", "The run's name in the database and the reports."),
        keyed_since=None,
        default_text="the file's name without .toml",
        example="my-match",
    )
    seed: int = declare(
        Option(
            0,
            "Each game's seed is derived from it and the game's number, so the same file "
            "plays the same games whatever the concurrency.",
        ),
        keyed_since=FIRST_FORM,
    )
    seats: tuple[int, ...] = declare(
        Option(
            None,
            "Players per game: one of the counts the game supports, or a list of them "
            "([3, 4, 5, 6]) to play every group size in one run, smallest first. There must "
            "be at least as many bots as the largest count.",
            type=int | list[int],
            minimum=1,
        ),
        keyed_since=FIRST_FORM,
        required=True,
        default_text="the game's smallest count",
        keyed_as=_keyed_seats,
    )
    format: Literal["round-robin", "gauntlet", "swiss", "knockout", "league"] = declare(
        Option(
            "round-robin",
            '"round-robin": every group of `seats` bots plays (of each size). "gauntlet": '
            'only the groups that include the challenger. "swiss": `rounds` rounds, each '
            "pairing bots (groups of `seats`) of similar score from the results so far. "
            '"knockout": a seeded bracket of two-player ties ([knockout]), the bots\' order '
            'as seeds. "league": an open-ended ladder ([league]): bots join and retire '
            "between runs, and each run plays until told to stop.",
            choices=FORMATS,
        ),
        keyed_since=FIRST_FORM,
    )
    challenger: str | None = declare(
        Option(None, "Gauntlet only: the name of the bot under test.", type=str),
        keyed_since=FIRST_FORM,
        default_text="the first bot",
        example="mine",
    )
    seatings: Literal["rotations", "permutations"] = declare(
        Option(
            "rotations",
            '"rotations": each group plays once per rotation of its seating, so every bot '
            'plays every seat equally often. "permutations": once per seat order.',
            choices=SEATINGS,
        ),
        keyed_since=FIRST_FORM,
    )
    rounds: int = declare(
        Option(1, "How many times the whole schedule is played.", minimum=1), keyed_since=FIRST_FORM
    )
    games: int | None = declare(
        Option(
            None,
            "Play exactly this many games instead of rounds, cycling through the seatings "
            "(give rounds or games, not both).",
            type=int,
            minimum=1,
        ),
        keyed_since=FIRST_FORM,
        example=100,
    )
    concurrency: int = declare(
        Option(1, "Games played at the same time (sessions, for session games).", minimum=1),
        keyed_since=None,
        default_text="the number of CPUs",
        example=4,
    )
    referees: int | None = declare(
        Option(
            None,
            "Processes that referee the games on this machine (the local executor), the "
            "run's own among them, which also stores every game; each plays its share of "
            "`concurrency`. More than one puts several cores to work where the referee is "
            "the busy part (in-process bots, many games at once); each more costs its start "
            "(some 0.3 s of CPU), and bots that connect by themselves need one.",
            type=int,
            minimum=1,
        ),
        keyed_since=None,
        default_text=f"the number of cores for a run of {AUTO_REFEREES_FROM} sessions or more "
        "whose bots are all started by the arena or run in it; else 1",
        example=2,
    )
    executor: str = declare(
        Option(
            "local",
            'Where the games are played: "local" (this machine) or "dask" (the workers of a '
            "Dask cluster), or another installed executor. The same file plays the same games "
            "whichever plays them, and a run started with one resumes with another.",
        ),
        keyed_since=None,
        registry="executor",
    )
    executor_options: Mapping[str, Mapping[str, Any]] = declare(
        Option(
            {},
            "Options of the installed executor NAME, such as [executor_options.dask] "
            'scheduler = "tcp://host:8786".',
        ),
        keyed_since=None,
        default_text="the executor's",
    )
    database: Path = declare(
        Option(
            Path("arena.sqlite"),
            "The SQLite results file. A relative path is relative to the match file's "
            "folder, as are logs and each bot's cwd.",
        ),
        keyed_since=None,
    )
    logs: Path = declare(
        Option(Path("arena-logs"), "The folder for event logs and bots' stderr."), keyed_since=None
    )
    codec: str | None = declare(
        Option(None, "The game's codec, or another installed one.", type=str),
        keyed_since=FIRST_FORM,
        registry="codec",
        default_text="the game's",
    )
    transport: str | None = declare(
        Option(None, "The game's transport, or another installed one.", type=str),
        keyed_since=FIRST_FORM,
        registry="transport",
        default_text="the game's",
    )
    scorers: tuple[str, ...] = declare(
        Option(("wins",), "The standings to compute.", type=list[str]),
        keyed_since=None,
        registry="scorer",
        default_text='"wins" plus a rating: "elo" when every game has two seats, "openskill" '
        "when any has three or more (those installed)",
    )
    ranking: str | None = declare(
        Option(
            None,
            "The scorer of `scorers` whose table ranks the bots: the one the report and "
            "the standings name as deciding when the tables disagree.",
            type=str,
        ),
        keyed_since=None,
        default_text="the first of scorers",
    )
    startup_failures: Literal["stop", "forfeit"] = declare(
        Option(
            "stop",
            '"stop": a bot that fails to come up (exits, never connects or answers nothing '
            f"in time) in each of its first {FIRST_GAMES} games of a run stops the run with "
            'one line quoting the end of its stderr, those games not stored. "forfeit": it loses '
            "them and the run plays on.",
            choices=STARTUP_FAILURES,
        ),
        keyed_since=None,
    )
    plugins: tuple[str, ...] = declare(
        Option(
            (),
            "Extra plugin modules to load before anything else is checked, as import paths: "
            "a game, codec, transport or scorer that is not installed as a package.",
            type=list[str],
        ),
        keyed_since=None,
        example=["my_package.arena_plugin"],
    )
    max_message: int = declare(
        Option(
            DEFAULT_MAX_MESSAGE // 1024,
            "The largest message a bot may send, in KiB; a longer one is a fault.",
            minimum=1,
        ),
        keyed_since=FIRST_FORM,
        name="max_message_kb",
        unit=1024,
    )
    clock: Mapping[str, float | str | None] = declare(
        Option({}, "Time limits in seconds, on top of the game's."),
        keyed_since=FIRST_FORM,
        table=CLOCK_KEYS,
        default_text="the game's",
        keyed_as=_keyed_clock,
    )
    limits: ResourceLimits = declare(
        Option(_KERNEL_LIMITS, "Limits of every bot process.", type=dict),
        keyed_since=FIRST_FORM,
        table=LIMIT_KEYS,
        keyed_as=_keyed_limits,
    )
    sandbox: SandboxSettings = declare(
        Option(
            SandboxSettings(),
            "How every bot the arena starts is confined: a bubblewrap sandbox in which it "
            "sees the system read-only, its own folder and a private /tmp, and none of the "
            "other bots, the database or the logs.",
            type=dict,
        ),
        keyed_since=None,
        table=SANDBOX_KEYS,
    )
    knockout: Mapping[str, Any] = declare(
        Option({}, 'The ties of format = "knockout".'),
        keyed_since=2,
        table=KNOCKOUT_KEYS,
        example={"games": 2, "tiebreak": 2},
    )
    sprt: Mapping[str, Any] = declare(
        Option(
            {},
            "An SPRT of the first bot against the second (two bots, two seats): the games "
            "are played in pairs, one seed for both colours, and the run stops as soon as "
            "the test accepts H0 or H1 (or when the schedule ends).",
        ),
        keyed_since=2,
        table=SPRT_KEYS,
        example={"elo0": 0, "elo1": 5},
    )
    league: Mapping[str, Any] = declare(
        Option(
            {},
            'The ladder of format = "league": its blocks, its pairing, each bot\'s share '
            "of the games and its final. Not part of the run's identity: a league goes on "
            "when they change.",
        ),
        keyed_since=None,
        table=LEAGUE_KEYS,
        example={"block": 20},
    )
    game_options: Mapping[str, Any] = declare(
        Option(
            {},
            "The game's own options (arena init GAME writes them all, with their defaults "
            "and help).",
        ),
        keyed_since=FIRST_FORM,
        default_text="the game's",
    )
    transport_options: Mapping[str, Mapping[str, Any]] = declare(
        Option({}, "Options of the installed transport NAME, such as [transport_options.tcp]."),
        keyed_since=FIRST_FORM,
        default_text="the transport's",
    )
    bots: tuple[BotSpec, ...] = declare(
        Option(
            None,
            "One table per bot, in the order used for the schedule and for ties: a name and "
            "exactly one of cmd, builtin or connect = true.",
            type=list[dict[str, Any]],
        ),
        keyed_since=FIRST_FORM,
        required=True,
        items=BotSpec,
    )

    def key(self) -> str:
        """Identifies the run in the database: same key, same games, so a re-run resumes.

        A hash of :func:`~arena_kernel.match.schema.identity`: the fields declared part of
        the run's identity. Settings that do not change which games are played or how
        (concurrency, database, log folder, scorers, the run's name) are not, so that
        changing them still resumes.

        A league is one run whatever bots it has: bots join and retire between its runs,
        so its key leaves them out (the store keeps each bot's identity instead,
        :mod:`arena_kernel.match.league`).
        """
        payload = identity(self)
        if self.format == "league":
            del payload["bots"]
        blob = json.dumps(payload, sort_keys=True, default=_json_default).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def _json_default(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, Mapping):
        return dict(value)
    return str(value)
