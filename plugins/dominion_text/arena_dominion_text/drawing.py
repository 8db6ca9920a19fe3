"""How a Dominion game is drawn in arena's HTML report, for either protocol.

The stored log does not hold the shuffles' outcome for every player (the seed is not
part of a replay, and the protocols show only the mover's hand), so the :class:`Board`
tracks what the messages prove: the supply (resynchronised whenever the referee lists it),
the cards each player owns (the starting deck plus every gain, minus every trash, hence the
VP), who is out, and the current turn's hand, plays, gains, trashes and attack answers.
:meth:`Board.picture` is the small JSON the drawing script (``render.js``, with
``render.css``) draws.

Each protocol plugin reads its own wire messages (the line protocol's informational
lines, the S-expression states and ``moved`` plays) into the same board through a
:class:`LogReader`, and subclasses :class:`DominionRenderer`, which asks only where turns
begin and feeds every event once, in order: one step per turn, then the end. A subclass
names its game, its reader and the piles its games start with; everything else (where
steps begin and end, captions, the final standings, the script and its CSS) is shared, so
the two protocols' games look alike in a report.
"""

from __future__ import annotations

import json
import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, ClassVar

from arena_dominion_text import cards
from arena_dominion_text.cards import (
    COST,
    IS_ACTION,
    IS_TREASURE,
    IS_VICTORY,
    KEEP_AFTER_ATTACK,
    STARTING_DECK,
    VP,
)
from arena_dominion_text.rules import supply_sizes
from arena_kernel.plugin import Event, Renderer, Replay, Step

MAX_WHY = 160
"""A reason quoted in a caption is cut to this many characters: bots write part of it."""


def card_ids(words: Iterable[str]) -> list[int]:
    """The cards among ``words`` (protocol names, any case); other words are skipped."""
    found = []
    for word in words:
        card = cards.lookup(word)
        if card is not None:
            found.append(card)
    return found


def card_names(card_list: Iterable[int]) -> list[str]:
    return [cards.NAMES[c] for c in card_list]


def shorten(text: str) -> str:
    """One line of at most :data:`MAX_WHY` characters."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_WHY else line[: MAX_WHY - 1] + "…"


@dataclass
class Attack:
    """One victim's answer to a Militia: a Moat, or the cards seen discarded.

    The line protocol shows every discarded card. The S-expression protocol shows the
    others only the top one (``top_only``); ``count`` is how many went when the victim's
    hand size says so (it was asked, with its hand), and None where the log does not say.
    """

    seat: int
    moat: bool = False
    discarded: list[int] = field(default_factory=list)
    count: int | None = None
    top_only: bool = False

    @property
    def total(self) -> int | None:
        """How many cards went (None: more than the one seen, perhaps)."""
        if self.count is None and self.top_only and self.discarded:
            return None
        return max(self.count or 0, len(self.discarded))

    def picture(self) -> dict[str, Any]:
        if self.moat:
            return {"seat": self.seat, "moat": True}
        return {"seat": self.seat, "discarded": card_names(self.discarded), "count": self.total}


@dataclass
class Turn:
    """One turn as far as the log shows it. ``seat`` is None until the log names the mover;
    ``hand``/``deck``/``discard`` are what the mover held at the turn's start, None where
    the protocol does not say."""

    seat: int | None
    number: int = 0
    hand: list[int] | None = None
    deck: int | None = None
    discard: int | None = None
    played: list[int] = field(default_factory=list)
    bought: list[int] = field(default_factory=list)
    gained: list[int] = field(default_factory=list)
    trashed: list[int] = field(default_factory=list)
    attacks: list[Attack] = field(default_factory=list)
    ended: bool = False

    def attack_of(self, seat: int) -> Attack:
        """The answer record of ``seat`` to this turn's latest attack (made on first use)."""
        for attack in reversed(self.attacks):
            if attack.seat == seat:
                return attack
        attack = Attack(seat)
        self.attacks.append(attack)
        return attack

    def picture(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "number": self.number,
            "hand": None if self.hand is None else card_names(self.hand),
            "deck": self.deck,
            "discard": self.discard,
            "played": card_names(self.played),
            "bought": card_names(self.bought),
            "gained": card_names(self.gained),
            "trashed": card_names(self.trashed),
            "attacks": [a.picture() for a in self.attacks],
        }


class Board:
    """The tracked state of one game of ``players`` seats (see the module doc).

    ``supply`` maps the card of every pile of the game (those of ``start_supply``, the
    game's own starting piles) to the copies left; piles the log names that the start
    did not are added. Counts never go below zero whatever a log says.
    """

    def __init__(self, players: int, start_supply: Mapping[int, int]) -> None:
        self.players = players
        self.supply: dict[int, int] = dict(sorted(start_supply.items()))
        self.owned: list[list[int]] = []
        for _ in range(players):
            owned = [0] * len(cards.NAMES)
            for c in STARTING_DECK:
                owned[c] += 1
            self.owned.append(owned)
        self.trash = 0
        self.turns = [0] * players
        self.out: dict[int, str] = {}
        """Seats put out of the game, and why."""
        self.new_out: list[int] = []
        """Seats put out since the last step, in order."""
        self.faults: list[tuple[int, str]] = []
        """The faults recorded since the last step: the seat, and the fault as the log
        says it (kind: detail), shortened."""
        self.turn: Turn | None = None
        self.played_turns = 0

    # -- what the readers report -----------------------------------------------------------

    def seat(self, seat: int | None) -> int | None:
        """``seat`` if it is one of this game's, else None."""
        return seat if seat is not None and 0 <= seat < self.players else None

    def begin_turn(self, seat: int | None) -> Turn:
        self.played_turns += 1
        self.turn = Turn(None)
        self.set_mover(seat)
        return self.turn

    def set_mover(self, seat: int | None) -> None:
        """The current turn is ``seat``'s (a log may name the mover after the turn began)."""
        turn = self.turn
        seat = self.seat(seat)
        if turn is None or seat is None or turn.seat is not None:
            return
        turn.seat = seat
        self.turns[seat] += 1
        turn.number = self.turns[seat]

    def sync_supply(self, counts: Mapping[int, int], complete: bool) -> None:
        """The referee's own list of the piles. ``complete``: a pile it leaves out is
        empty (the S-expression state lists copies, so an empty pile is absent)."""
        if complete:
            for card in self.supply:
                self.supply[card] = 0
        for card, left in counts.items():
            self.supply[card] = max(left, 0)
        self.supply = dict(sorted(self.supply.items()))

    def sync_owned(self, seat: int | None, owned: Iterable[int]) -> None:
        """Every card ``seat`` owns, as a state the referee sent it lists them."""
        seat = self.seat(seat)
        if seat is None:
            return
        counts = [0] * len(cards.NAMES)
        for card in owned:
            counts[card] += 1
        self.owned[seat] = counts

    def gain(self, seat: int | None, card: int, bought: bool = False) -> None:
        """``seat`` gained ``card`` from the supply (``bought``: by a buy, where the
        protocol tells buys apart)."""
        seat = self.seat(seat)
        if seat is None:
            return
        self.owned[seat][card] += 1
        if card in self.supply:
            self.supply[card] = max(self.supply[card] - 1, 0)
        turn = self.turn
        if turn is not None and turn.seat == seat:
            (turn.bought if bought else turn.gained).append(card)

    def trash_card(self, seat: int | None, card: int) -> None:
        seat = self.seat(seat)
        if seat is None:
            return
        if self.owned[seat][card] > 0:
            self.owned[seat][card] -= 1
        self.trash += 1
        turn = self.turn
        if turn is not None and turn.seat == seat:
            turn.trashed.append(card)

    def play(self, seat: int | None, played: Sequence[int]) -> None:
        turn = self.turn
        if turn is not None and turn.seat is not None and turn.seat == self.seat(seat):
            turn.played.extend(played)

    def attacked(self, seat: int | None, hand: int) -> None:
        """``seat`` is asked to answer a Militia holding ``hand`` cards."""
        seat = self.seat(seat)
        if seat is not None and self.turn is not None:
            self.turn.attack_of(seat).count = max(hand - KEEP_AFTER_ATTACK, 0)

    def defend(
        self, seat: int | None, moat: bool, discarded: Sequence[int] = (), top_only: bool = False
    ) -> None:
        """A Militia victim's answer: a Moat, or the discards seen (``top_only``: only the
        top one of them is shown)."""
        seat = self.seat(seat)
        if seat is None or self.turn is None:
            return
        attack = self.turn.attack_of(seat)
        attack.moat = attack.moat or moat
        attack.discarded.extend(discarded)
        attack.top_only = attack.top_only or top_only

    def put_out(self, seat: int | None, why: str) -> None:
        seat = self.seat(seat)
        if seat is not None and seat not in self.out:
            self.out[seat] = shorten(why)
            self.new_out.append(seat)

    def fault(self, seat: int | None, text: str) -> None:
        """A fault the log recorded for ``seat`` (its text, ``kind: detail``)."""
        seat = self.seat(seat)
        if seat is not None:
            self.faults.append((seat, shorten(text)))

    def next_step(self) -> None:
        """Forget the marks of the step just drawn (its faults, who went out in it)."""
        self.faults = []
        self.new_out = []

    # -- what the drawing script gets --------------------------------------------------------

    def vp(self, seat: int) -> int:
        return sum(count * VP[c] for c, count in enumerate(self.owned[seat]) if count)

    def picture(self) -> dict[str, Any]:
        """This moment's picture: small, plain JSON (a report holds thousands of them)."""
        return {
            "supply": [[cards.NAMES[c], left] for c, left in self.supply.items()],
            "trash": self.trash,
            "players": [
                {
                    "vp": self.vp(p),
                    "cards": sum(self.owned[p]),
                    "owned": [[cards.NAMES[c], n] for c, n in enumerate(self.owned[p]) if n],
                    "turns": self.turns[p],
                    "out": p in self.out,
                    "fault": next((text for s, text in reversed(self.faults) if s == p), None),
                }
                for p in range(self.players)
            ],
            "turn": None if self.turn is None else self.turn.picture(),
        }


class LogReader(ABC):
    """Reads one game's event log into ``board``.

    :meth:`opens_turn` must not change anything: the renderer asks it before feeding the
    same event, to close the previous step on the position before that turn.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.copies = Copies()

    @abstractmethod
    def opens_turn(self, event: Event) -> bool:
        """Whether ``event`` is the first message of a new turn."""

    @abstractmethod
    def feed(self, event: Event) -> None:
        """Apply ``event`` (any kind, any text: bots wrote part of the log) to the board."""


class Copies:
    """Tells the copies of one broadcast from a new message.

    The referee writes a broadcast as one ``send`` per seat, back to back, so a ``send``
    with the text of the one before it to a seat that broadcast has not reached yet is a
    copy: counting it again would count a gain once per player. Requests are not
    broadcasts (two Militia victims may get the very same request), so a reader consults
    this for broadcast lines only.
    """

    def __init__(self) -> None:
        self.text: str | None = None
        self.seats: set[int | None] = set()

    def is_copy(self, event: Event) -> bool:
        return event.kind == "send" and event.text == self.text and event.seat not in self.seats

    def see(self, event: Event) -> bool:
        """Whether ``event`` is a copy of the broadcast before it; remembers it either way."""
        if self.is_copy(event):
            self.seats.add(event.seat)
            return True
        if event.kind == "send":
            self.text, self.seats = event.text, {event.seat}
        else:
            self.text, self.seats = None, set()
        return False


TIMES = "\N{MULTIPLICATION SIGN}"

KINDS = {"treasure": IS_TREASURE, "victory": IS_VICTORY, "action": IS_ACTION}


def card_table() -> dict[str, dict[str, Any]]:
    """What the drawing script knows of each card: its cost and kind (for its colour)."""
    table = {}
    for card, name in enumerate(cards.NAMES):
        kind = next((k for k, flags in KINDS.items() if flags[card]), "curse")
        table[name] = {"cost": COST[card], "kind": kind}
    return table


def starting_piles(players: int, kingdom: Sequence[int], curses: bool) -> dict[int, int]:
    """The piles of a game of ``players`` (none for a player count the game does not have:
    a stored void game may list any seats)."""
    try:
        sizes = supply_sizes(players, kingdom, curses)
    except ValueError:
        return {}
    return {card: left for card, left in enumerate(sizes) if left >= 0}


def grouped(card_list: Sequence[int]) -> str:
    """``smithy, copper \N{MULTIPLICATION SIGN}3, silver``: each card once, in the order
    first seen."""
    counts: dict[int, int] = {}
    for card in card_list:
        counts[card] = counts.get(card, 0) + 1
    return ", ".join(
        cards.NAMES[c] if n == 1 else f"{cards.NAMES[c]} {TIMES}{n}" for c, n in counts.items()
    )


def number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


class DominionRenderer(Renderer):
    """Subclasses set ``name`` and ``reader`` and implement :meth:`start_supply`.

    Steps: ``start`` (before the first turn: the handshake, the kingdom), one per turn
    (``12. botname``: the events from the message that opens the turn to the next
    one's), and ``end`` (no events: the result). A step's picture, drawn by
    ``render.js``::

        supply   [[card, copies left], ...]  every pile of the game, in card order
        trash    cards in the trash
        players  per seat: vp, cards (how many it owns), owned [[card, n], ...], turns,
                 out (put out of the game), fault (the text of its fault in this step,
                 or null)
        turn     null at the start and the end; else seat, number (the mover's own turn
                 count), hand (at the turn's start, or null), deck and discard (sizes
                 at the turn's start, or null), played, bought, gained, trashed (card
                 lists) and attacks (per Militia victim: seat and moat: true, or seat,
                 discarded (the cards seen) and count (how many went; null: unknown))
        end      the last step only: winners (seats), ranks, void, reason

    Card names are the protocols' (lower case); ``CARDS`` in the script gives each one's
    cost and kind.
    """

    summary = (
        "one step per turn: the supply piles left, each player's VP and cards, the mover's "
        "hand, what was played, bought, gained and trashed, Militia's victims; the final VP"
    )
    reader: ClassVar[type[LogReader]]

    @abstractmethod
    def start_supply(self, replay: Replay) -> dict[int, int]:
        """The piles a game of ``replay`` starts with (card -> copies), from its options."""

    def steps(self, replay: Replay) -> Sequence[Step]:
        seating = replay.seating
        board = Board(len(seating), self.start_supply(replay))
        reader = self.reader(board)
        events = replay.events
        steps: list[Step] = []
        begin = 0
        for index, event in enumerate(events):
            if reader.opens_turn(event):
                steps.append(self.step(board, seating, begin, index))
                begin = index
            reader.feed(event)
        steps.append(self.step(board, seating, begin, len(events)))
        steps.append(self.last_step(replay, board, len(events)))
        return steps

    def step(self, board: Board, seating: Sequence[str], begin: int, end: int) -> Step:
        """The position after events ``[begin, end)``; the board's per-step marks reset."""
        turn = board.turn
        if turn is None:
            label = "start"
            caption = (
                f"{len(seating)} players: {', '.join(seating)}; "
                "each starts with 7 coppers and 3 estates"
            )
        else:
            who = bot(seating, turn.seat)
            label = f"{board.played_turns}. {who}"
            faulted = any(seat == turn.seat for seat, _text in board.faults)
            caption = self.turn_caption(turn, who, seating, faulted)
        caption += self.marks(board, seating)
        step = Step(label, (begin, end), caption, board.picture())
        board.next_step()
        return step

    def turn_caption(
        self, turn: Turn, who: str, seating: Sequence[str], faulted: bool = False
    ) -> str:
        """What the mover did (``faulted``: a fault of its own is in the step, so a turn
        with nothing done did not pass, it was cut short) and what Militia's victims did."""
        done = []
        if turn.played:
            done.append(f"played {grouped(turn.played)}")
        if turn.bought:
            done.append(f"bought {grouped(turn.bought)}")
        if turn.gained:
            done.append(f"gained {grouped(turn.gained)}")
        if turn.trashed:
            done.append(f"trashed {grouped(turn.trashed)}")
        nothing = "did nothing" if faulted else "passed"
        sentence = f"{who} (turn {turn.number}) " + (", ".join(done) if done else nothing)
        for attack in turn.attacks:
            victim = bot(seating, attack.seat)
            if attack.moat:
                sentence += f"; {victim} revealed a moat"
            elif attack.total is None:
                sentence += f"; {victim} discarded ({grouped(attack.discarded)} on top)"
            elif attack.total > len(attack.discarded):
                shown = f" ({grouped(attack.discarded)} on top)" if attack.discarded else ""
                sentence += f"; {victim} discarded {attack.total} cards{shown}"
            elif attack.discarded:
                sentence += f"; {victim} discarded {grouped(attack.discarded)}"
            else:
                sentence += f"; {victim} kept its hand"
        return sentence

    def marks(self, board: Board, seating: Sequence[str]) -> str:
        """The faults of this step and the players put out during it, and why (a fault
        the reason for putting its bot out repeats is told once, as that reason)."""
        text = ""
        for seat, fault in board.faults:
            told = seat in board.new_out and fault.split(": ", 1)[-1] in board.out[seat]
            if not told:
                text += f"; fault by {bot(seating, seat)}: {fault}"
        return text + "".join(f"; {bot(seating, s)} is out: {board.out[s]}" for s in board.new_out)

    def last_step(self, replay: Replay, board: Board, end: int) -> Step:
        """The final standings: the stored VP (the referee's own count) over the tracked."""
        seats = len(replay.seating)
        picture = board.picture()
        vp = final_vp(replay, board)
        ranks = ranks_of(replay)
        for seat, player in enumerate(picture["players"]):
            player["vp"] = vp[seat]
            player["fault"] = None
            player["out"] = player["out"] or seat in replay.disqualified
        picture["turn"] = None
        picture["end"] = {
            "winners": [] if replay.void else [s for s in range(seats) if ranks[s] == 1],
            "ranks": ranks,
            "void": replay.void,
            "reason": shorten(replay.reason),
        }
        return Step("end", (end, end), ending(replay, vp), picture)

    def script(self) -> str:
        """The drawing script, wrapped for this game: it is the body of a function of the
        game's name and the card table, so both Dominion games can share one page."""
        source = files("arena_dominion_text").joinpath("render.js").read_text(encoding="utf-8")
        return (
            f"(function (GAME, CARDS) {{\n{source}\n}})"
            f"({json.dumps(self.name)}, {json.dumps(card_table())});\n"
        )

    def style(self) -> str:
        source = files("arena_dominion_text").joinpath("render.css").read_text(encoding="utf-8")
        return source.replace(".picture-dominion", f".picture-{self.name}")


def bot(seating: Sequence[str], seat: int | None) -> str:
    return seating[seat] if seat is not None and 0 <= seat < len(seating) else "?"


def final_vp(replay: Replay, board: Board) -> list[int | float]:
    """Each seat's VP at the end: the stored scores (the referee's own count) where the
    store has them for every seat, else the board's."""
    seats = len(replay.seating)
    scores = replay.scores
    if scores is None or len(scores) != seats or not all(map(math.isfinite, scores)):
        return [board.vp(p) for p in range(seats)]
    return [int(v) if float(v).is_integer() else v for v in scores]


def ranks_of(replay: Replay) -> list[int]:
    """The stored ranks, one per seat (a seat a damaged record ranks nowhere ranks last)."""
    seats = len(replay.seating)
    ranks = list(replay.ranks[:seats])
    return ranks + [seats] * (seats - len(ranks))


def ending(replay: Replay, vp: Sequence[float]) -> str:
    """How the game ended, naming the winners and every player's final VP."""
    if replay.void:
        return f"Void game, counted for nobody: {shorten(replay.reason)}"
    seating = replay.seating
    ranks = ranks_of(replay)
    order = sorted(range(len(seating)), key=lambda s: (ranks[s], s))
    table = ", ".join(f"{seating[s]} {number(vp[s])}" for s in order)
    winners = [s for s in order if ranks[s] == 1]
    if len(winners) == 1:
        head = f"{seating[winners[0]]} wins with {number(vp[winners[0]])} VP"
    elif winners:
        head = f"{' and '.join(seating[s] for s in winners)} share the win"
    else:
        head = "No winner"
    return f"{head}: {shorten(replay.reason)}. Final VP: {table}"
