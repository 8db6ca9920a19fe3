"""What every built-in bot shares: the protocol, written once, and the worth of material.

A bot only decides :meth:`Player.choose` on a :class:`~arena_stones.engine.Position`;
:class:`Player` turns the referee's decoded messages into that position and the chosen
move into a reply. The position is rebuilt from each request's board rather than tracked
from the move echoes, so a bot can never drift out of step with the referee: the request
is the whole truth. :func:`run` serves a bot as a program, :func:`duel` plays two in
process the way the referee would, and :data:`STACK_VALUE` is the material scale of the
greedy bot and of the searcher's evaluation.
"""

from __future__ import annotations

import argparse
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable
from itertools import accumulate
from typing import Any

from arena_kernel.plugin import BotLogic, JsonlCodec, main
from arena_stones.engine import (
    ATTACK,
    BLACK,
    COLOR_NAMES,
    PASS,
    WHITE,
    Move,
    Position,
    move_to_xy,
)
from arena_stones.wire import Encoder, parse_move

SCARCITY = 600
"""How much more a type's last stacks are worth than its others: the ``n``-th stack of a
type adds ``20 + SCARCITY // (n * (n - 1))``, so 320 for the second, 40 for the sixth and
22 for the fifteenth. Losing any one type loses the game, so a side's third-last Tzaar is
worth far more than its tenth Tott."""
STACK_VALUE: tuple[int, ...] = tuple(
    accumulate((0, 0, *(20 + SCARCITY // (n * (n - 1)) for n in range(2, 31))))
)
"""Worth of having ``n`` stacks of one type (a side has at most 30 stacks); ``n = 0`` has
no worth of its own, the game is lost."""

_ENCODER = Encoder()
"""Bots answer with integer enums, whatever the referee sends."""


def material(position: Position, who: int) -> int:
    """``who``'s stacks by type, valued for scarcity, minus the opponent's."""
    counts = position.counts
    value = STACK_VALUE
    white = value[counts[1]] + value[counts[2]] + value[counts[3]]
    black = value[counts[5]] + value[counts[6]] + value[counts[7]]
    return (white - black) * who


def _enum(value: Any) -> int:
    """An enum value as an int: the contest engine sent them as JSON strings ("1").
    Anything else is 0, which no request or colour uses."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


class Player(ABC):
    """A :class:`~arena_kernel.plugin.BotLogic` that answers each move request with
    :meth:`choose`; subclasses supply the decision."""

    def __init__(self) -> None:
        self.color = 0
        self.last_mover = 0

    def start(self) -> list[Any]:
        return []

    def on_message(self, message: Any) -> list[Any]:
        if not isinstance(message, dict):
            return []
        if "Color" in message:
            self.color = _enum(message["Color"])
        elif "Board" in message:
            return [self._answer(message)]
        elif "Player" in message:
            self.last_mover = _enum(message["Player"])
        return []

    @abstractmethod
    def choose(self, position: Position) -> Move:
        """The move to play; ``position.legal_moves()`` is never empty when called."""

    def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            allowed = [_enum(t) for t in request["AllowedMoves"]]
            matrix = [[int(v) for v in row] for row in request["Board"]["state"]]
            position = Position.from_matrix(matrix, self._player(allowed), allowed)
        except (KeyError, TypeError, ValueError) as exc:
            # Not a request of this game: nothing sensible to play, but the referee
            # should get an answer it can judge rather than silence until its timeout.
            print(f"bot: cannot read the request ({exc!r})", file=sys.stderr)
            return _ENCODER.move(PASS, None, None)
        moves = position.legal_moves()
        if not moves:
            # No attack at the start of the turn: the game is lost whatever is sent.
            return _ENCODER.move(PASS, None, None)
        return _ENCODER.move(*move_to_xy(self.choose(position)))

    def _player(self, allowed: list[int]) -> int:
        """Our colour; without a Color message, inferred from the last move's echo (a turn's
        second request belongs to the last mover, its first to the other side)."""
        if self.color in (WHITE, BLACK):
            return self.color
        if not self.last_mover:
            return WHITE
        return -self.last_mover if allowed == [ATTACK] else self.last_mover


def run(
    make_bot: Callable[[argparse.Namespace], BotLogic],
    configure: Callable[[argparse.ArgumentParser], None] | None = None,
    *,
    seeded: bool = False,
) -> None:
    """Serve a bot over stdin/stdout (or ``--tcp``) speaking JSON lines."""
    main(make_bot, JsonlCodec(), configure=configure, seeded=seeded)


def duel(white: Player, black: Player, position: Position | None = None) -> Position:
    """Play one game between two bots in process, by the protocol's own messages, judging
    every reply like the referee; returns the final position.

    ValueError (with the judge's reason) if a bot sends an illegal move: built-in bots must
    never do that, and tests and the strength script want to hear it loudly.
    """
    position = Position.initial() if position is None else position
    bots = {WHITE: white, BLACK: black}
    for color, bot in bots.items():
        bot.on_message({"Color": color})
    while not position.winner():
        player = position.player
        request = _ENCODER.request(position.matrix(), position.allowed())
        (reply,) = bots[player].on_message(request)
        kind, frm, to = parse_move(reply)
        problem = position.judge(kind, frm, to)
        if problem is not None:
            raise ValueError(f"{COLOR_NAMES[player]} played an illegal move: {problem}")
        position.play(kind, frm, to)
        echo = {"Player": player, "Move": reply, "Winner": position.winner()}
        for bot in bots.values():
            bot.on_message(echo)
    return position
