"""The report of ``arena check-bot``: a bot's side of its stored games, message by message,
with what it got wrong, and the verdict.

A pure function of what the store holds (each game's details, event log and the bot's
stderr), so that it is tested without playing: :func:`check_report` gets the games of the
check in order and the name of the bot under test, and returns the lines to print, the
bot's faults by kind and the first of them. Only the faults of the bot's own seat count;
those of the built-in opponents are shown in each game's summary and never fail the check.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arena_kernel.cli.check_hints import hints

if TYPE_CHECKING:
    from arena_kernel.model import Event, Fault
    from arena_kernel.store.sqlite import GameDetail

SHORT = 80
"""Characters of a message shown without ``--verbose``; a longer one is cut, with its
length."""

CONTEXT = 3
"""Messages without a reply shown before a fault even without ``--verbose``: what the
bot had just been told."""

SLOW = 0.5
"""A reply that took more than this share of its time limit is marked slow: a warning that
a busier machine (a tournament plays many games at once) may turn into a timeout."""

STDERR_LINES = 5
"""The last lines of the bot's stderr shown under a game in which it made a fault."""

ARROWS = {"send": ">>", "recv": "<<", "late": "<~", "fault": "!!", "note": "--"}


@dataclass(frozen=True)
class ClockLimits:
    """The clocks a reply is measured against, in seconds (the grace that the referee adds
    to each is not shown)."""

    startup: float
    reply: float


@dataclass(frozen=True)
class CheckedGame:
    """One game of the check: what the store holds of it, and the end of the stderr the
    bot under test wrote in it ('' for none)."""

    detail: GameDetail
    events: Sequence[Event]
    stderr: str = ""


@dataclass
class CheckReport:
    """The report's ``lines``; the bot's ``faults`` by kind over every game; ``first``, the
    lines that name its first fault (empty when it made none); ``slow``, its replies that
    took more than half their limit; ``missing``, the games of the check not played (a
    bot put out of the run, a game the plugin failed on)."""

    lines: list[str] = field(default_factory=list)
    faults: Counter[str] = field(default_factory=Counter)
    first: list[str] = field(default_factory=list)
    slow: int = 0
    missing: int = 0

    @property
    def passed(self) -> bool:
        """No fault of the bot, in every game the check meant to play."""
        return not self.faults and not self.missing


@dataclass
class _Line:
    """One event of the bot's side of a game, with what the report says about it."""

    event: Event
    request: int | None = None
    """For a message that asked the bot for a reply: its number in the game (from 1)."""
    note: str = ""
    shown: bool = True


def check_report(
    games: Sequence[CheckedGame],
    bot: str,
    limits: ClockLimits,
    *,
    session: bool = False,
    verbose: bool = False,
    planned: int | None = None,
    port_given: bool = False,
) -> CheckReport:
    """The report of ``games`` (in the order played) for the bot named ``bot``.

    ``session``: the bot's process lives for all the games (only its first request of
    all is on the start-up clock); otherwise every game starts it again. ``verbose``: every
    message in full, notices that need no reply included; otherwise those are left out
    (but for the few before a fault) and long messages cut. ``planned``: the games the
    check meant to play, when the store holds fewer. ``port_given``: the check was told a
    fixed port (what a hint about a refused connection says).
    """
    report = CheckReport()
    startup = True
    slowest: tuple[float, float] | None = None
    for number, game in enumerate(games, 1):
        detail = game.detail
        seat = detail.seating.index(bot)
        if not _played(game):
            report.lines += ["", f"game {number} of {len(games)}: {detail.reason}"]
            continue
        rows = _side(game.events, seat, detail.seating, verbose)
        startup = startup or not session
        on_startup = False
        for row in rows:
            event = row.event
            if row.request is not None:
                on_startup, startup = startup, False
            if event.kind != "recv" or event.elapsed is None:
                continue
            limit = limits.startup if on_startup else limits.reply
            clock = ", start-up clock" if on_startup else ""
            on_startup = False
            # On a CPU-time clock the limit bounds the CPU time; the wall time is shown too.
            took = event.elapsed if event.cpu is None else event.cpu
            spent = _duration(took)
            if event.cpu is not None:
                spent += f" CPU ({_duration(event.elapsed)} wall)"
            row.note = f"{spent} of {limit:g} s{clock}"
            if took > SLOW * limit:
                row.note += ": SLOW"
                report.slow += 1
            if slowest is None or took * slowest[1] > slowest[0] * limit:
                slowest = (took, limit)
        mine = [fault for fault in detail.faults if fault.seat == seat]
        report.faults.update(str(fault.kind) for fault in mine)
        first_here = not report.first and bool(mine)
        report.lines += ["", _game_heading(number, len(games), detail, seat)]
        report.lines += _conversation(rows, mine[0] if first_here else None, verbose)
        if first_here:
            report.first = _first_problem(f"game {number} (seat {seat})", rows, mine[0])
            report.first += hints(game.events, seat, mine[0], game.stderr, port_given)
        report.lines += _game_footer(game, seat, mine, rows, verbose)
    report.lines += ["", *_verdict(report, games, planned, slowest)]
    return report


def _side(events: Sequence[Event], seat: int, names: Sequence[str], verbose: bool) -> list[_Line]:
    """The bot's side of a game's log: what it was sent, what it sent, its faults, and the
    referee's notes (without ``verbose``, not those about the other bots only). A message
    is a request when a reply or a fault follows it. A fault logged twice (as the bytes
    arrived, then as the game judged them) is kept once."""
    others = [name for s, name in enumerate(names) if s != seat]
    rows: list[_Line] = []
    for event in events:
        if event.kind == "note":
            if verbose or not _about_others(event.text, names[seat], others):
                rows.append(_Line(event))
        elif event.seat == seat:
            last = next((row.event for row in reversed(rows) if row.event.kind != "note"), None)
            if not _twice(last, event):
                rows.append(_Line(event))
    mine = [row for row in rows if row.event.kind != "note"]
    count = 0
    for row, after in itertools.pairwise(mine):
        if row.event.kind != "send":
            continue
        if after.event.kind == "fault" or (
            after.event.kind == "recv" and after.event.elapsed is not None
        ):
            count += 1
            row.request = count
    return rows


def _twice(last: Event | None, event: Event) -> bool:
    """Whether ``event`` is the fault just logged as ``last`` again."""
    if last is None or last.kind != "fault" or event.kind != "fault":
        return False
    return _same_fault(last.text, event.text)


def _same_fault(one: str, other: str) -> bool:
    """Whether two texts describe the same fault: one of them may add to the other (the
    bytes that arrived, or the end of the bot's stderr that the stored fault quotes)."""
    return one.startswith(other) or other.startswith(one)


def _about_others(text: str, name: str, others: Sequence[str]) -> bool:
    """Whether a note names another bot of the game and not this one (a handshake of
    another seat, say)."""

    def names(who: str) -> bool:
        return re.search(rf"(?<![\w-]){re.escape(who)}(?![\w-])", text) is not None

    return not names(name) and any(names(other) for other in others)


def _conversation(rows: list[_Line], first: Fault | None, verbose: bool) -> list[str]:
    """The lines of a game's conversation, the event of ``first`` marked as the first
    problem; without ``verbose``, notices only just before a fault, and long messages cut
    (never a fault's description)."""
    if not verbose:
        for index, row in enumerate(rows):
            row.shown = row.event.kind != "send" or row.request is not None
            if row.event.kind == "fault":
                for before in rows[max(0, index - CONTEXT) : index]:
                    before.shown = True
    marked = _locate(rows, first) if first is not None else None
    lines = []
    for index, row in enumerate(rows):
        if not row.shown:
            continue
        event = row.event
        cut = None if verbose or event.kind == "fault" else SHORT
        text = _printable(event.text, cut)
        notes = [row.note] if row.note else []
        if row.request is not None:
            notes.insert(0, f"request {row.request}")
        if event.kind == "late" and event.elapsed is not None:
            notes.append(f"late: {_duration(event.elapsed)} after its request")
        if event.kind == "recv" and event.elapsed is None:
            notes.append("unasked")
        mark = "  <== first problem" if index == marked else ""
        where = "referee: " if event.kind == "note" else ""
        suffix = f"  ({', '.join(notes)})" if notes else ""
        lines.append(f"  {event.t:8.3f} {ARROWS.get(event.kind, '  ')} {where}{text}{suffix}{mark}")
    return lines


def _locate(rows: Sequence[_Line], fault: Fault) -> int | None:
    """The position in ``rows`` of the logged event of ``fault`` (None: not in the log)."""
    text = str(fault)
    for index, row in enumerate(rows):
        if row.event.kind == "fault" and _same_fault(row.event.text, text):
            return index
    return None


DIED = frozenset({"exit", "memory"})
"""Faults of a bot that ended: it may have failed on any message since its last reply."""

NO_REPLY = {
    "timeout": "nothing in time",
    "wall-cap": "nothing within the wall-clock cap",
    "exit": "nothing: its process ended or its connection closed",
    "memory": "nothing: the out-of-memory killer ended it",
    "connect": "nothing: it never started or connected",
}
"""What the first problem says the bot answered when no message came, by fault kind (a
fault of another kind describes what came)."""


def _first_problem(game: str, rows: Sequence[_Line], fault: Fault) -> list[str]:
    """The lines that name the bot's first fault: the game, the request it answered (or
    failed to), and the messages both ways."""
    index = _locate(rows, fault)
    if index is None:
        return [f"first problem: {game}, at {fault.at:.3f} s: {fault}"]
    before = [row for row in rows[:index] if row.event.kind != "note"]
    asked = next((row for row in reversed(before) if row.request is not None), None)
    if asked is None:
        where = "before its first request" if not before else f"at {fault.at:.3f} s"
        return [f"first problem: {game}, {where}: {fault}"]
    after = before[before.index(asked) + 1 :]
    reply = next((row.event for row in after if row.event.kind == "recv"), None)
    lines = [f"first problem: {game}, request {asked.request}: {fault}"]
    since = _since_last_reply(before) if str(fault.kind) in DIED and reply is None else []
    if len(since) > 1:
        # It ended: on this request, or on a notice before it that needs no reply.
        lines.append(
            f"  it was sent, after its last reply ({len(since)} messages; it ended on one):"
        )
        lines += [f"    {_printable(row.event.text, SHORT * 3)}" for row in since[-CONTEXT:]]
        if len(since) > CONTEXT:
            lines.append(f"    ({len(since) - CONTEXT} earlier ones: --verbose shows them)")
    else:
        lines.append(f"  it was sent:  {_printable(asked.event.text, SHORT * 3)}")
    if reply is not None:
        lines.append(f"  it answered:  {_printable(reply.text, SHORT * 3)}")
    elif str(fault.kind) in NO_REPLY:
        lines.append(f"  it answered:  {NO_REPLY[str(fault.kind)]}")
    return lines


def _since_last_reply(before: Sequence[_Line]) -> list[_Line]:
    """The messages the bot was sent after its last reply (all it was sent, before any),
    in order: what a bot that ended may have ended on."""
    sent: list[_Line] = []
    for row in before:
        if row.event.kind == "recv":
            sent = []
        elif row.event.kind == "send":
            sent.append(row)
    return sent


def _game_heading(number: int, total: int, detail: GameDetail, seat: int) -> str:
    seats = len(detail.seating)
    others = [name for s, name in enumerate(detail.seating) if s != seat]
    void = " (void)" if detail.void and "void" not in detail.reason else ""
    return (
        f"game {number} of {total}: seat {seat} of {seats} against {', '.join(others)}; "
        f"rank {detail.ranks[seat]} of {seats}: {detail.reason}{void}"
    )


def _game_footer(
    game: CheckedGame, seat: int, mine: Sequence[Fault], rows: Sequence[_Line], verbose: bool
) -> list[str]:
    """A game's faults that its log does not show, the messages left out, the faults of
    the bot and of its opponents, and the end of the bot's stderr when it made a fault."""
    lines = []
    logged = [row.event.text for row in rows if row.event.kind == "fault"]
    for fault in mine:
        text = str(fault)
        if not any(_same_fault(line, text) for line in logged):
            lines.append(f"  {fault.at:8.3f} !! {text}")
    hidden = sum(1 for row in rows if not row.shown)
    if hidden:
        lines.append(
            f"  ({hidden} message{_s(hidden)} that need{'s' if hidden == 1 else ''} no reply "
            "not shown; --verbose shows every message)"
        )
    kinds = Counter(str(fault.kind) for fault in mine)
    lines.append(f"  faults of the bot: {_kinds(kinds) if kinds else 'none'}")
    theirs = [f for f in game.detail.faults if f.seat != seat]
    if theirs:
        names = game.detail.seating
        described = "; ".join(
            f"{names[f.seat] if f.seat is not None else 'referee'}: {f}" for f in theirs
        )
        lines.append(f"  faults of the opponents (not counted): {described}")
    if mine and game.stderr.strip():
        tail = game.stderr.rstrip("\n").splitlines()[-STDERR_LINES:]
        lines.append(f"  the end of its stderr in this game ({len(tail)} line{_s(len(tail))}):")
        lines += [f"    {_printable(line, None if verbose else SHORT * 2)}" for line in tail]
    return lines


def _verdict(
    report: CheckReport,
    games: Sequence[CheckedGame],
    planned: int | None,
    slowest: tuple[float, float] | None,
) -> list[str]:
    """PASS or FAIL with the faults by kind and the first problem, then the reply that
    came closest to its time limit."""
    count = sum(report.faults.values())
    played = sum(1 for game in games if _played(game))
    missing = report.missing = max(planned or 0, len(games)) - played
    how_many = f"{played} game{_s(played)}" + (f" ({missing} not played)" if missing else "")
    lines = []
    if report.passed:
        lines.append(f"PASS: no fault in {how_many}")
    elif not report.faults:
        lines.append(f"FAIL: no fault, but {missing} of the games could not be played")
    else:
        lines.append(f"FAIL: {count} fault{_s(count)} in {how_many}: {_kinds(report.faults)}")
        lines += report.first
    if slowest is not None:
        took, limit = slowest
        lines.append(f"closest to its limit: a reply in {_duration(took)} of {limit:g} s")
    if report.slow:
        lines.append(
            f"warning: {report.slow} repl{'y' if report.slow == 1 else 'ies'} took more than "
            f"{SLOW:.0%} of the time limit (marked SLOW): on a busy tournament machine "
            f"{'it' if report.slow == 1 else 'they'} may time out"
        )
    return lines


def _played(game: CheckedGame) -> bool:
    """Whether a stored game was played (a game of a bot already out of the run is
    stored void, with no message)."""
    return bool(game.events) or not game.detail.void


def _kinds(kinds: Counter[str]) -> str:
    """``illegal 2, timeout 1``: most first, then by name."""
    return ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda i: (-i[1], i[0])))


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _printable(text: str, limit: int | None) -> str:
    """``text`` on one line (control characters escaped), cut to ``limit`` characters."""
    shown = "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )
    if limit is not None and len(shown) > limit:
        return f"{shown[:limit]}... ({len(text)} characters)"
    return shown


def _s(n: int) -> str:
    return "" if n == 1 else "s"
