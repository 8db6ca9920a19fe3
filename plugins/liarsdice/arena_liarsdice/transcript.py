"""A stored Liar's Dice game read back from the referee's own messages, move by move.

The referee's messages say everything the picture needs, and they are the one part of the
log no bot wrote: each ``move_request`` gives its receiver's hand, the dice of every player
in play in playing order from the mover, and the last bid; each ``round_over`` says who
lost a die, who called and who won. So nothing is judged again here: the moves are what the
referee decided. A bot's reply is read for one thing only, whether a call was ``spot_on``
(``round_over`` names the caller, not the word), and only when that variant is played.

Ids on the wire are relative (0 is the receiver, others are session ids); a seat's session
id is the ``p<id>`` that ends the ``message_id`` of every request it gets. Anything that
does not parse is skipped: a log cut short, or a field of an unexpected type, leaves that
fact unknown (``None``), never an exception.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arena_kernel.plugin import Event
from arena_liarsdice.players import SPOT_ON
from arena_liarsdice.rules import Bid

NOBODY = -1
SESSION_ID = re.compile(r"p(\d+)$")


@dataclass
class RoundEnd:
    """What a ``round_over`` said, in seats (``None``: nobody, or not known)."""

    loser: int | None
    caller: int | None
    """Who challenged (or called spot on); ``None`` when the round was lost on a fault."""
    winner: int | None
    dice: dict[int, int]
    """Dice per seat after the round."""
    spot_on: bool = False


@dataclass
class Move:
    """One move: the requests sent at once to every player in play, and what came of them.

    ``start`` is the event index of the first request, ``replies`` the index just after the
    requests, ``stop`` the index of the next move's first request (or the end of the log).
    """

    round: int
    number: int
    start: int
    replies: int
    stop: int = 0
    order: list[int | None] = field(default_factory=list)
    """Seats in play, in playing order from the player to move (``None``: not known)."""
    dice: list[int] = field(default_factory=list)
    """Dice of each entry of ``order``."""
    hands: dict[int, tuple[int, ...]] = field(default_factory=dict)
    last_bid: Bid = (0, 0)
    end: RoundEnd | None = None
    overs: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """``round_over`` messages as (receiver seat, message), read into ``end`` at the end."""
    spot_on_by: set[int] = field(default_factory=set)

    @property
    def mover(self) -> int | None:
        return self.order[0] if self.order else None

    @property
    def last_bidder(self) -> int | None:
        """The last entry of the playing order made the last bid (none before a bid)."""
        return self.order[-1] if self.order and self.last_bid != (0, 0) else None


def read_moves(events: Sequence[Event], seats: int, spot_on: bool = False) -> list[Move]:
    """The moves of a game's event log, in order; ``seats`` is the number of seats."""
    moves: list[Move] = []
    session: dict[int, int] = {}
    requests: list[list[tuple[int, dict[str, Any]]]] = []
    for index, event in enumerate(events):
        seat = event.seat
        if seat is None or not 0 <= seat < seats:
            continue
        if event.kind == "recv" and spot_on and moves and _said_spot_on(event.text):
            moves[-1].spot_on_by.add(seat)
        if event.kind != "send":
            continue
        message = _object(event.text)
        subject = message.get("subject")
        if subject == "move_request":
            key = (_int(message.get("round_number")), _int(message.get("move_number")))
            if None in key:
                continue
            move = moves[-1] if moves else None
            if move is None or (move.round, move.number) != key:
                move = Move(key[0] or 0, key[1] or 0, index, index + 1)
                moves.append(move)
                requests.append([])
            move.replies = index + 1
            requests[-1].append((seat, message))
            hand = _ints(message.get("your_hand"))
            if hand is not None:
                move.hands[seat] = tuple(hand)
            found = SESSION_ID.search(str(message.get("message_id", "")))
            if found:
                session.setdefault(int(found.group(1)), seat)
        elif subject == "round_over" and moves:
            moves[-1].overs.append((seat, message))
    for number, move in enumerate(moves):
        move.stop = moves[number + 1].start if number + 1 < len(moves) else len(events)
        _read_requests(move, requests[number], session)
        if move.overs:
            move.end = _read_end(move, session)
    return moves


def _read_requests(
    move: Move, requests: list[tuple[int, dict[str, Any]]], session: dict[int, int]
) -> None:
    """The playing order, dice and last bid that the requests of ``move`` agree on."""
    lists = [(seat, _pairs(message.get("other_hands"))) for seat, message in requests]
    first = next((pairs for _seat, pairs in lists if pairs), [])
    move.order = [None] * len(first)
    move.dice = [max(dice, 0) for _id, dice in first]
    for seat, pairs in lists:
        ids = [pid for pid, _dice in pairs]
        if len(pairs) == len(first) and ids.count(0) == 1:
            move.order[ids.index(0)] = seat
    for position, (pid, _dice) in enumerate(first):
        if move.order[position] is None and pid != 0:
            move.order[position] = session.get(pid)
    bid = _ints(requests[0][1].get("last_bid")) if requests else None
    if bid is not None and len(bid) == 2:
        move.last_bid = (bid[0], bid[1])


def _read_end(move: Move, session: dict[int, int]) -> RoundEnd:
    def seat_of(receiver: int, key: str, message: dict[str, Any]) -> int | None:
        pid = _int(message.get(key))
        if pid is None or pid == NOBODY:
            return None
        return receiver if pid == 0 else session.get(pid)

    def agreed(key: str) -> int | None:
        found = (seat_of(receiver, key, message) for receiver, message in move.overs)
        return next((seat for seat in found if seat is not None), None)

    dice: dict[int, int] = {}
    for receiver, message in move.overs:
        for pid, count in _pairs(message.get("state")):
            seat = receiver if pid == 0 else session.get(pid)
            if seat is not None:
                dice.setdefault(seat, max(count, 0))
    caller = agreed("round_challenger")
    return RoundEnd(
        agreed("round_loser"),
        caller,
        agreed("game_winner"),
        dice,
        spot_on=caller is not None and caller in move.spot_on_by,
    )


def _said_spot_on(text: str) -> bool:
    """Whether a reply's move is ``spot_on`` (a cheap test first: most replies are not)."""
    return SPOT_ON in text and _object(text).get("move") == SPOT_ON


def _object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _ints(value: Any) -> list[int] | None:
    if not isinstance(value, list):
        return None
    numbers = [_int(x) for x in value]
    return None if None in numbers else numbers  # type: ignore[return-value]


def _pairs(value: Any) -> list[tuple[int, int]]:
    """``[[id, dice], ...]``; nothing at all if any entry is not two whole numbers."""
    if not isinstance(value, list):
        return []
    pairs = [_ints(pair) for pair in value]
    if any(pair is None or len(pair) != 2 for pair in pairs):
        return []
    return [(pair[0], pair[1]) for pair in pairs]  # type: ignore[index]
