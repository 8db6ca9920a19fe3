"""Liar's Dice in the HTML report: the steps of a stored game and the script that draws them.

A game's steps are each round's deal, then one step per move. A step's picture is data for
``render.js``: the players in the game's playing order, each one's dice (face up: the
referee dealt them, so the replay shows them), how many dice each holds, the round's bids
with the current one last, and at a round's end the call: who challenged whom, how many
dice matched, who lost a die. The bid a move made is the next request's ``last_bid``; the
end of a round is its ``round_over``: what the referee decided, never judged again. Only the
count of matching dice is worked out, by the rules engine, from the hands of the round.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Any

from arena_kernel.plugin import Renderer, Replay, Step
from arena_liarsdice.game import VARIANTS
from arena_liarsdice.rules import Bid, State, Variant
from arena_liarsdice.transcript import Move, RoundEnd, read_moves

MAX_BIDS = 12
"""Bids of a round a picture lists (the latest ones): a round has no bound on its bids."""
MAX_REASON = 240
ROUND_FAULT = re.compile(r"round (\d+): (.*)", re.DOTALL)
_UNUSED_RNG = random.Random(0)
"""The rules engine's state wants a generator; counting dice never rolls any."""


class LiarsDiceRenderer(Renderer):
    name = "liarsdice"
    summary = "every player's dice face up, the round's bids, each challenge and who lost a die"

    def steps(self, replay: Replay) -> Sequence[Step]:
        """A deal step per round and a step per move; the last step's caption says how the
        game ended."""
        return Narrator(replay).steps()

    def script(self) -> str:
        return files(__package__).joinpath("render.js").read_text(encoding="utf-8")

    def style(self) -> str:
        return files(__package__).joinpath("render.css").read_text(encoding="utf-8")


class Narrator:
    """Walks the moves of one game, keeping what the round so far showed: bids and hands."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.seats = len(replay.seating)
        options = replay.options
        self.variant = Variant(**{name: options.get(name) is True for name in VARIANTS})
        self.moves = read_moves(replay.events, self.seats, self.variant.spot_on)
        self.players = playing_order(self.moves, self.seats)
        self.round_faults = round_faults(replay.details)
        self.bids: list[tuple[int, int, int]] = []
        self.hands: dict[int, tuple[int, ...]] = {}

    def steps(self) -> list[Step]:
        events = len(self.replay.events)
        if not self.moves:
            picture = {"players": self.players, "dice": [0] * self.seats} if self.seats else {}
            return [Step("end", (0, events), caption=ending(self.replay), picture=picture)]
        steps: list[Step] = []
        at = 0
        for index, move in enumerate(self.moves):
            before = self.moves[index - 1] if index else None
            after = self.moves[index + 1] if index + 1 < len(self.moves) else None
            if before is None or before.end is not None or before.round != move.round:
                self.bids = []
                self.hands = dict(move.hands)
                steps.append(self.deal(move, (at, move.replies)))
                at = move.replies
            else:
                self.hands.update(move.hands)
            steps.append(self.outcome(move, after, (at, move.stop)))
            at = move.stop
        last = steps[-1]
        picture = dict(last.picture)
        winners = [s for s, rank in enumerate(self.replay.ranks) if rank == 1]
        if not self.replay.void and len(winners) == 1:
            picture.setdefault("winner", winners[0])
        caption = f"{last.caption} {ending(self.replay)}".strip()
        steps[-1] = Step(last.label, last.events, caption=caption, picture=picture)
        return steps

    # -- the steps ----------------------------------------------------------------------

    def deal(self, move: Move, events: tuple[int, int]) -> Step:
        total = sum(move.dice)
        caption = (
            f"Round {move.round}: the dice are rolled, {total} on the table; "
            f"{self.name(move.mover)} opens."
        )
        picture = self.picture(move, mover=move.mover, number=0)
        return Step(f"round {move.round}", events, caption=caption, picture=picture)

    def outcome(self, move: Move, after: Move | None, events: tuple[int, int]) -> Step:
        number = f"{move.round}.{move.number}"
        if move.end is not None:
            return self.call(move, move.end, number, events)
        who = self.name(move.mover)
        bid = after.last_bid if after is not None and after.round == move.round else None
        if bid is None or bid == move.last_bid or move.mover is None:
            caption = f"{who} is to move; what came of this move is not in the log."
            picture = self.picture(move, mover=move.mover)
            return Step(f"{number} {who}?", events, caption=caption, picture=picture)
        face, count = bid
        self.bids.append((move.mover, face, count))
        caption = f"{who} bids {said(bid)}: at least {dice(count)} {show(count)} {face}."
        picture = self.picture(move, mover=after.mover if after is not None else None)
        return Step(f"{number} {who} {said(bid)}", events, caption=caption, picture=picture)

    def call(self, move: Move, end: RoundEnd, number: str, events: tuple[int, int]) -> Step:
        bid = move.last_bid if move.last_bid != (0, 0) else None
        loser = self.name(end.loser)
        out = end.loser is not None and end.dice.get(end.loser) == 0
        lost = f"{loser} loses its last die and is out." if out else f"{loser} loses a die."
        call: dict[str, Any] = {
            "by": end.loser if end.caller is None else end.caller,
            "against": None if end.caller is None else move.last_bidder,
            "bid": list(bid) if bid else None,
            "loser": end.loser,
            "out": out,
        }
        if end.caller is None:
            reason = self.fault_reason(move, end)
            call.update(kind="fault", reason=reason)
            caption = f"Fault by {loser}: {reason}. {lost}"
            label = f"{number} {loser} fault"
        else:
            caller = self.name(end.caller)
            kind = "spot_on" if end.spot_on else "challenge"
            counted = self.count(move, bid) if bid else None
            call.update(kind=kind, counted=counted)
            verb = "calls spot on" if end.spot_on else "challenges"
            label = f"{number} {caller} {verb.split()[0]}"
            if bid is None:
                caption = f"{caller} {verb} before any bid. {lost}"
            else:
                face = bid[0]
                whose = (
                    "its own"
                    if move.last_bidder == end.caller
                    else f"{self.name(move.last_bidder)}'s"
                )
                what = f"{whose} {said(bid)}"
                caption = f"{caller} {verb} {what}: {self.shown(counted, face)}. {lost}"
        picture = self.picture(move, mover=None, call=call, winner=end.winner)
        return Step(label, events, caption=caption, picture=picture)

    # -- the pieces ---------------------------------------------------------------------

    def picture(
        self,
        move: Move,
        *,
        mover: int | None,
        number: int | None = None,
        call: Mapping[str, Any] | None = None,
        winner: int | None = None,
    ) -> dict[str, Any]:
        dice = [0] * self.seats
        for seat, count in zip(move.order, move.dice, strict=True):
            if seat is not None:
                dice[seat] = count
        picture: dict[str, Any] = {
            "players": self.players,
            "round": move.round,
            "move": move.number if number is None else number,
            "dice": dice,
            "hands": [list(self.hands[s]) if s in self.hands else None for s in range(self.seats)],
            "mover": mover,
            "bids": [list(bid) for bid in self.bids[-MAX_BIDS:]],
            "earlier": max(len(self.bids) - MAX_BIDS, 0),
            "wild": self.variant.wild_ones,
        }
        if call is not None:
            picture["call"] = dict(call)
        if winner is not None:
            picture["winner"] = winner
        return picture

    def count(self, move: Move, bid: Bid) -> int | None:
        """How many dice on the table match ``bid``, by the rules' own count (``None``
        when a hand in play is not in the log)."""
        if any(seat is None or seat not in self.hands for seat in move.order):
            return None
        hands = [self.hands.get(seat, ()) for seat in range(self.seats)]
        table = State(tuple(range(self.seats)), [len(h) for h in hands], _UNUSED_RNG, self.variant)
        table.hands = hands
        return table.count(bid[0])

    def shown(self, counted: int | None, face: int) -> str:
        if counted is None:
            return "the dice in play are not all in the log"
        wild = " (1s wild)" if self.variant.wild_ones and face != 1 else ""
        return f"{dice(counted)} {show(counted)} {face}{wild}"

    def fault_reason(self, move: Move, end: RoundEnd) -> str:
        """The referee's reason for the round's fault: as its details recorded it per round,
        else the loser's last fault event in the move."""
        reason = self.round_faults.get(move.round)
        if reason is not None:
            name = self.name(end.loser)
            reason = reason[len(name) + 1 :] if reason.startswith(f"{name} ") else reason
        else:
            faults = self.replay.events[move.replies : move.stop]
            texts = [e.text for e in faults if e.kind == "fault" and e.seat == end.loser]
            reason = texts[-1] if texts else "no reason recorded"
        reason = " ".join(reason.split())
        return reason if len(reason) <= MAX_REASON else reason[:MAX_REASON] + "…"

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < self.seats:
            return "someone"
        return self.replay.seating[seat]


def said(bid: Bid) -> str:
    """A bid as the report writes it, count times face: "3 times 5" is at least three 5s."""
    face, count = bid
    return f"{count} \N{MULTIPLICATION SIGN} {face}"


def dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def show(count: int) -> str:
    return "shows" if count == 1 else "show"


def playing_order(moves: list[Move], seats: int) -> list[int]:
    """The seats in the game's playing order (its first move lists every player), any seat
    that order misses after them."""
    first = [s for s in moves[0].order if s is not None] if moves else []
    return first + [s for s in range(seats) if s not in first]


def round_faults(details: Mapping[str, Any]) -> dict[int, str]:
    """The referee's ``round_faults`` detail (``"round 3: NAME REASON"``) by round."""
    found: dict[int, str] = {}
    entries = details.get("round_faults")
    for entry in entries if isinstance(entries, list) else []:
        match = ROUND_FAULT.fullmatch(entry) if isinstance(entry, str) else None
        if match:
            found.setdefault(int(match.group(1)), match.group(2))
    return found


def ending(replay: Replay) -> str:
    """How the game ended, naming the winner: the last step's caption ends with it."""
    winners = replay.winners()
    if replay.void:
        head = "Void game"
    elif len(winners) == 1:
        head = f"{winners[0]} wins"
    elif winners:
        head = f"{' and '.join(winners)} share first place"
    else:
        head = "No winner"
    return f"{head}: {replay.reason}." if replay.reason else f"{head}."
