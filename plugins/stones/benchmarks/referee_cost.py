"""What a stones game costs through arena's referee, against the engine alone.

    python plugins/stones/benchmarks/referee_cost.py [--games 100] [--trials 5]
        [--enums integers|strings] [--profile] [--compare DIR]

Every figure is CPU time (``time.process_time``): the machine is shared, and wall-clock
time measures the neighbours as much as arena. Each trial measures, in rotating order:

- **engine**: ``--games`` random-vs-random games from the fixed start, the two random
  strategies calling the engine directly (``winner``, ``legal_moves``, a random choice,
  ``apply``): the work no referee can save;
- **stones**: as many games between the built-in random bots by
  :func:`~arena_stones.simulate.duel`, which plays the referee's part as ``game.py`` does
  (requests, judging, echoes), without the kernel and without a codec;
- **codec**: every message of those games (each echo once per bot, as the referee sends
  it) encoded and decoded once by the ``jsonl`` codec, as each is in a run (compiled,
  where the kernel has the extension, through the test kit's ``wire_round_trip``);
- **referee**: as many games by ``run_match`` (``arena_kernel.runner.api.run_match``, as
  the test kit exports it) on a real match file, two ``inproc = true`` random bots, one
  game at a time, **store included**: every game and its transcript go to a fresh SQLite
  file, as with ``arena run``. The whole call is timed, so it includes loading the
  plugins and reading the match file (some 10 ms a run, once the modules are imported:
  one untimed run comes first).

Random games vary in length (and the referee's are other games: its bots are not seeded),
so the figures are per move, a move being one request and its reply: medians of the
trials' CPU time per move and of their ratios to the engine's. The stones step less the
engine is what the stones referee and bots add, the codec step is the codec's, and the
referee less both is the kernel's own (referee, event log, transport, store, event loop).

Where it stands (``--games 100 --trials 11 --compare`` with the tree of commit cf8b8b0, its
own extensions built, on a quiet machine, load 0.0 to 0.7, three runs): **4.52, 4.53 and
4.54 times** the engine, 97 to 100 us of CPU per move against 22 us for the engine, where
the tree before took 5.24, 5.17 and 5.29 times in the same runs (trials 4.33 to 4.94 times,
the tree before 5.06 to 5.47). Of that, the stones referee and bots add 1.3 times the engine,
the jsonl codec 0.5 times and the kernel 1.7 times (the tree before: 1.5, 0.5 and 2.3).
What the tree before spent and this one does not: a turn of the event loop at every request
to a bot in process (the games on a loop now share a 1 ms slice of it,
``referee/turns.py``), a callback scheduled for every reply in process only to find it
handed over (one callback a turn delivers what is left), the stored log's columns and time
steps made in Python (the kernel's extension makes them, ``log_columns``, as
``store.logs.columns`` does), and the reasons looked for in every move judged (a legal
capture or strengthen given as ints is judged in a few lookups, ``Position._plainly_legal``).
Counted in instructions (callgrind, 40 games with seeded bots, the start-up subtracted) a
move runs 603,000 where the tree before ran 646,000: the CPU time saved is mostly the event
loop's system calls and their cost to the caches, which instructions do not count.

``--compare DIR`` measures the checkout in DIR too (a copy of the tree from before a
change: its ``kernel`` and ``plugins/stones`` folders are imported instead of these), one
trial of it in a child process before each of this process's own, so that both are timed
on the machine as it is at the time. A tree made by ``git archive`` holds no compiled
extension: copy the built ``_fast`` and ``_engine`` modules into it where their sources are
the same, or its codec, round trip and search run as pure Python and the comparison is
unfair to it.

``--profile`` adds one run under cProfile, its own time grouped by the part of arena that
owns the code (stdlib and built-in functions are charged to their callers, asyncio's loop
to itself), to show what the referee's cost is made of; cProfile inflates call-heavy code,
so the shares are approximate.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from statistics import median
from typing import Any, TypeVar

import arena_kernel.testkit
import arena_stones
from arena_kernel.plugin import JsonlCodec
from arena_kernel.testkit import RunSummary, Store, run_match
from arena_stones.bot import StonesBot
from arena_stones.bots import random as random_bot
from arena_stones.rules import BLACK, WHITE, Position
from arena_stones.simulate import duel

T = TypeVar("T")

MATCH = """\
game = "stones"
seed = 1
games = {games}
concurrency = 1
database = "arena.sqlite"
logs = "logs"

[game_options]
setup = "fixed"
enums = "{enums}"

[[bots]]
name = "one"
builtin = "random"
inproc = true

[[bots]]
name = "two"
builtin = "random"
inproc = true
"""


def engine_games(games: int, seed: int) -> int:
    """Play ``games`` random games on the engine alone; returns the number of moves."""
    moves = 0
    for game in range(games):
        rngs = {
            WHITE: random.Random(2 * (seed + game)),
            BLACK: random.Random(2 * (seed + game) + 1),
        }
        position = Position.initial()
        while not position.winner():
            position.apply(rngs[position.player].choice(position.legal_moves()))
            moves += 1
    return moves


class Relay:
    """A bot as :func:`duel` reaches it, writing down every message it gets and every reply
    it sends (in ``transcript``) and counting its replies: its moves."""

    def __init__(self, bot: StonesBot, transcript: list[Any]) -> None:
        self.bot = bot
        self.transcript = transcript
        self.replies = 0

    def start(self) -> list[Any]:
        return self.bot.start()

    def on_message(self, message: Any) -> list[Any]:
        replies = self.bot.on_message(message)
        self.transcript += [message, *replies]
        self.replies += len(replies)
        return replies


def stones_games(games: int, seed: int, enums: str, transcript: list[Any]) -> int:
    """Play ``games`` games between random bots without the kernel, every message written
    down in ``transcript``; returns the number of moves."""
    moves = 0
    for game in range(games):
        white = Relay(random_bot.make(2 * (seed + game)), transcript)
        black = Relay(random_bot.make(2 * (seed + game) + 1), transcript)
        duel(white, black, contest=enums == "strings")
        moves += white.replies + black.replies
    return moves


def codec_round_trips(transcript: list[Any]) -> None:
    """Encode and decode every message of ``transcript`` once, as a run does
    (``wire_round_trip``: compiled where the kernel has it; a kernel before it lacks it,
    and then the codec's own methods do the work, as in its runs)."""
    codec = JsonlCodec()
    decoder = codec.decoder()
    try:
        from arena_kernel.testkit import wire_round_trip
    except ImportError:
        for message in transcript:
            decoder.feed(codec.encode(message))
        return
    for message in transcript:
        wire_round_trip(codec, decoder, message)


def match_file(folder: Path, games: int, enums: str) -> Path:
    path = folder / "match.toml"
    path.write_text(MATCH.format(games=games, enums=enums))
    return path


def stored_moves(database: Path) -> int:
    """Moves of every game of the run in ``database`` (the referee's ``details``)."""
    with Store(database) as store:
        games = store.games()
    if any(game.faults for game in games):
        raise SystemExit("a game had a fault: the figures would not be of whole games")
    return sum(game.details["moves"] for game in games)


def referee_games(games: int, enums: str, run: Callable[[Path], RunSummary] = run_match) -> int:
    """Play ``games`` games through the referee (``run`` the match file); returns the
    number of moves."""
    with tempfile.TemporaryDirectory() as folder:
        summary = run(match_file(Path(folder), games, enums))
        if summary.played != games or summary.errors:
            raise SystemExit(f"the run went wrong: {summary.played} games, {summary.errors}")
        return stored_moves(Path(folder) / "arena.sqlite")


def cpu(work: Callable[[], T]) -> tuple[float, T]:
    """CPU seconds ``work()`` took, and what it returned."""
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


STEPS = ("engine", "stones", "codec", "referee")


def one_trial(games: int, trial: int, enums: str) -> dict[str, float]:
    """CPU seconds per move of each step, the blocks in an order rotated by ``trial``."""
    seed = trial * games
    per_move: dict[str, float] = {}
    blocks = ("engine", "stones", "referee")
    for block in blocks[trial % 3 :] + blocks[: trial % 3]:
        if block == "engine":
            seconds, moves = cpu(partial(engine_games, games, seed))
        elif block == "referee":
            seconds, moves = cpu(partial(referee_games, games, enums))
        else:
            transcript: list[Any] = []
            seconds, moves = cpu(partial(stones_games, games, seed, enums, transcript))
            round_trips, _ = cpu(partial(codec_round_trips, transcript))
            per_move["codec"] = round_trips / moves
        per_move[block] = seconds / moves
    return per_move


def trial_elsewhere(tree: str, games: int, trial: int, enums: str) -> dict[str, float]:
    """One trial run by a child process on the kernel and the stones plugin of ``tree``."""
    root = Path(tree)
    paths = [str(root / "kernel"), str(root / "plugins" / "stones")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    argv = [sys.executable, __file__, "--games", str(games), "--enums", enums]
    argv += ["--one-trial", str(trial)]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    measured: dict[str, float] = json.loads(done.stdout)
    return measured


def report(title: str, trials: list[dict[str, float]]) -> float:
    """Print the medians of ``trials``; returns the referee's median CPU seconds per move."""
    engine, stones, codec, referee = ([t[step] for t in trials] for step in STEPS)

    def line(name: str, times: list[float]) -> str:
        ratio = median(t / e for t, e in zip(times, engine, strict=True))
        return f"\n  {name:24} {median(times) * 1e6:7.1f} us  {ratio:5.2f}x"

    stones_added = [s - e for e, s in zip(engine, stones, strict=True)]
    kernel_added = [r - s - c for s, c, r in zip(stones, codec, referee, strict=True)]
    ratios = [r / e for e, r in zip(engine, referee, strict=True)]
    print(
        title
        + line("engine alone", engine)
        + line("+ stones referee, bots", stones_added)
        + line("+ jsonl codec", codec)
        + line("+ kernel", kernel_added)
        + line("= through the referee", referee)
        + f" (run_match, store included; trials {min(ratios):.2f}-{max(ratios):.2f}x)"
    )
    return median(referee)


def measure(games: int, trials: int, enums: str, compare: str | None) -> float:
    """Print the figures; returns the referee's median CPU seconds per move."""
    referee_games(2, enums)  # imports every module a run needs
    ours: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    for trial in range(trials):
        if compare:
            theirs.append(trial_elsewhere(compare, games, trial, enums))
        last = one_trial(games, trial, enums)
        ours.append(last)
        print(
            f"trial {trial + 1}: engine {last['engine'] * 1e6:5.1f} us/move;"
            + "".join(f" {step} {last[step] / last['engine']:5.2f}x" for step in STEPS[1:])
            + (
                f" (in {compare}: {theirs[-1]['referee'] / theirs[-1]['engine']:5.2f}x)"
                if compare
                else ""
            )
        )
    heading = (
        f"{games} random-vs-random games per trial, enums = {enums}, {trials} trials;"
        f" medians of CPU time per move, and of the ratio to the engine's"
    )
    if compare:
        report(f"\n{heading}, the tree in {compare}:", theirs)
    return report(f"\n{heading}{', this tree' if compare else ''}:", ours)


STONES = Path(arena_stones.__file__).parent
KERNEL = Path(arena_kernel.testkit.__file__).parent
OWNERS: tuple[tuple[str, Path], ...] = (
    ("stones engine (rules.py, board.py)", STONES / "rules.py"),
    ("stones engine (rules.py, board.py)", STONES / "board.py"),
    ("stones referee (game.py, wire.py)", STONES / "game.py"),
    ("stones referee (game.py, wire.py)", STONES / "wire.py"),
    ("stones bots", STONES / "bot.py"),
    ("stones bots", STONES / "players.py"),
    ("stones bots", STONES / "search.py"),
    ("stones bots", STONES / "bots"),
    ("codec (kernel/arena_kernel/codecs, json)", KERNEL / "codecs"),
    ("referee (kernel/arena_kernel/referee)", KERNEL / "referee"),
    ("transports (kernel/arena_kernel/transports)", KERNEL / "transports"),
    ("processes (kernel/arena_kernel/processes)", KERNEL / "processes"),
    ("store (kernel/arena_kernel/store, sqlite3)", KERNEL / "store"),
    ("runner (kernel/arena_kernel/runner)", KERNEL / "runner"),
    ("kernel, other", KERNEL),
)
"""Who owns the code a function is in, first match wins (the kernel's catch-all last)."""

Function = tuple[str, int, str]


def owner(function: Function) -> str | None:
    """The part of arena ``function`` belongs to; None for stdlib and built-in functions,
    whose time goes to their callers (json's to the codec, sqlite3's to the store)."""
    filename = function[0]
    if "/asyncio/" in filename:
        return "asyncio event loop"
    path = Path(filename)
    for name, root in OWNERS:
        if path == root or root in path.parents:
            return name
    return None


def grouped(stats: pstats.Stats) -> dict[str, float]:
    """Own time per owner; an unowned function's is split among its callers in proportion
    to the time each caller's calls took."""
    table = stats.stats  # type: ignore[attr-defined]
    shares: dict[Function, dict[str, float]] = {}

    def share(function: Function, visiting: frozenset[Function]) -> dict[str, float]:
        if function in shares:
            return shares[function]
        name = owner(function)
        callers = table[function][4] if function in table else {}
        if name is not None or not callers or function in visiting:
            result = {name or "other": 1.0}
        else:
            total = sum(times[2] for times in callers.values()) or 1.0
            result = defaultdict(float)
            for caller, times in callers.items():
                for group, part in share(caller, visiting | {function}).items():
                    result[group] += part * times[2] / total
        shares[function] = result
        return result

    totals: dict[str, float] = defaultdict(float)
    for function, (_cc, _nc, own, _cum, _callers) in table.items():
        for group, part in share(function, frozenset()).items():
            totals[group] += own * part
    return totals


def profile(games: int, enums: str, per_move: float) -> None:
    """One referee run under cProfile, its own time grouped by owner."""
    profiler = cProfile.Profile()
    moves = referee_games(games, enums, lambda path: profiler.runcall(run_match, path))
    totals = grouped(pstats.Stats(profiler))
    whole = sum(totals.values())
    print(
        f"\nwhere the referee's time goes (cProfile, own time; the last column scales the"
        f" shares to the unprofiled {per_move * 1e6:.1f} us per move)"
    )
    for group, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(
            f"  {group:36} {seconds / whole:6.1%}  {seconds / moves * 1e6:7.1f} us/move profiled"
            f"  ~{seconds / whole * per_move * 1e6:6.1f} us/move"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per trial (100)")
    parser.add_argument("--trials", type=int, default=5, help="interleaved trials (5)")
    parser.add_argument("--enums", choices=("integers", "strings"), default="integers")
    parser.add_argument("--profile", action="store_true", help="then break the cost down")
    parser.add_argument("--compare", metavar="DIR", help="also measure the tree in DIR")
    parser.add_argument("--one-trial", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_trial is not None:
        referee_games(2, args.enums)
        print(json.dumps(one_trial(args.games, args.one_trial, args.enums)))
        return
    per_move = measure(args.games, args.trials, args.enums, args.compare)
    if args.profile:
        profile(args.games, args.enums, per_move)


if __name__ == "__main__":
    main()
