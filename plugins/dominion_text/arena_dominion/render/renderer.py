"""The Dominion renderer both protocol plugins subclass: one step per turn, then the end.

A subclass names its game, its protocol's :class:`LogReader` and the piles its games start
with; everything else (where steps begin and end, captions, the final standings, the
drawing script and its CSS) is shared, so the two protocols' games look alike in a
report.
"""

from __future__ import annotations

import json
import math
from abc import abstractmethod
from collections.abc import Sequence
from importlib.resources import files
from typing import Any, ClassVar

from arena_dominion import cards
from arena_dominion.cards import COST, IS_ACTION, IS_TREASURE, IS_VICTORY
from arena_dominion.engine import supply_sizes
from arena_dominion.render.board import Board, Turn, shorten
from arena_dominion.render.reader import LogReader
from arena_kernel.plugin import Renderer, Replay, Step

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
        source = files("arena_dominion.render").joinpath("render.js").read_text(encoding="utf-8")
        return (
            f"(function (GAME, CARDS) {{\n{source}\n}})"
            f"({json.dumps(self.name)}, {json.dumps(card_table())});\n"
        )

    def style(self) -> str:
        source = files("arena_dominion.render").joinpath("render.css").read_text(encoding="utf-8")
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
