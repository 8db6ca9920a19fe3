"""What every built-in bot shares: the protocol, written once, and the worth of material.

A bot only decides :meth:`Player.choose` on a :class:`~arena_stones.engine.Position`;
:class:`Player` turns the referee's decoded messages into that position and the chosen
move into a reply. The position is followed from the move echoes, both sides' moves, and
checked against the board of every request, which is the whole truth: a bot that missed
or could not follow an echo, or joins a game under way, rebuilds the position from the
board instead (reading and checking a matrix is most of the cost of a random bot's move,
so it is done once a game, not once a request). :func:`run` serves a bot as a program,
:func:`duel` plays two in process the way the referee does, and :data:`STACK_VALUE` is the
material scale of the greedy bot and of the searcher's evaluation.
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
    move_from_xy,
    move_to_xy,
)
from arena_stones.wire import Encoder, Location, WireError, parse_move

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
        self.position: Position | None = None
        """The game as followed from the echoes; None when it is not known (before the
        first request, after an echo it could not follow), and then the next request's
        board is read instead."""
        self.sent: tuple[int, Location, Location] | None = None
        """The move of the last reply, until its echo: it was chosen on :attr:`position` as
        that still is, so its echo needs no judging (half the echoes of a game)."""

    def start(self) -> list[Any]:
        return []

    def on_message(self, message: Any) -> list[Any]:
        if not isinstance(message, dict):
            return []
        if "Color" in message:
            self.color = _enum(message["Color"])
            self.position = None  # a new game
        elif "Board" in message:
            return [self._answer(message)]
        elif "Player" in message:
            self.last_mover = _enum(message["Player"])
            self._follow(message.get("Move"))
        return []

    @abstractmethod
    def choose(self, position: Position) -> Move:
        """The move to play; ``position.legal_moves()`` is never empty when called.

        ``position`` is the one the bot follows the game on: leave it as it was given
        (undo what you apply; :class:`~arena_stones.bots.search.Searcher` works on a copy).
        """

    def _follow(self, move: Any) -> None:
        """Play an echoed move on the followed position if it is the mover's and the rules
        allow it there (the echo of the bot's own reply is known to); forget the position
        otherwise (an echo of another game, or of a referee that speaks some other
        dialect), so that the next request's board is read."""
        position, sent = self.position, self.sent
        self.sent = None
        if position is None:
            return
        try:
            echoed = parse_move(move)
        except WireError:
            self.position = None
            return
        if position.player != self.last_mover or (
            echoed != sent and position.judge(*echoed) is not None
        ):
            self.position = None
            return
        position.apply(move_from_xy(*echoed))

    def _read(self, request: dict[str, Any]) -> Position:
        """The position ``request`` asks about: the followed one when it is exactly that
        board at that request for this bot's colour, else rebuilt from the board (which
        raises KeyError, TypeError or ValueError for a request that is no board)."""
        allowed = [_enum(t) for t in request["AllowedMoves"]]
        state = request["Board"]["state"]
        player = self._player(allowed)
        position = self.position
        if (
            position is None
            or position.player != player
            or position.allowed() != tuple(allowed)
            or position.matrix() != state
        ):
            self.position = None  # until the board is read: it may be no board at all
            matrix = [[int(v) for v in row] for row in state]
            position = self.position = Position.from_matrix(matrix, player, allowed)
        return position

    def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        self.sent = None
        try:
            position = self._read(request)
        except (KeyError, TypeError, ValueError) as exc:
            # Not a request of this game: nothing sensible to play, but the referee
            # should get an answer it can judge rather than silence until its timeout.
            print(f"bot: cannot read the request ({exc!r})", file=sys.stderr)
            return _ENCODER.move(PASS, None, None)
        if position.winner():
            # No attack at the start of the turn (winner() is set exactly when there is no
            # legal move, and is cheaper to ask): the game is lost whatever is sent.
            return _ENCODER.move(PASS, None, None)
        self.sent = move_to_xy(self.choose(position))
        return _ENCODER.move(*self.sent)

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


def duel(
    white: BotLogic, black: BotLogic, position: Position | None = None, *, contest: bool = False
) -> Position:
    """Play one game between two bots in process, by the messages the referee sends (with
    ``contest``, those of ``enums = "strings"``), judging every reply like the referee;
    returns the final position.

    ValueError (with the judge's reason) if a bot sends an illegal move: built-in bots must
    never do that, and tests and the strength script want to hear it loudly.
    """
    position = Position.initial() if position is None else position
    wire = Encoder(contest)
    bots = {WHITE: white, BLACK: black}
    for color, bot in bots.items():
        bot.on_message(wire.color(color))
    winner = position.winner()
    while not winner:
        player = position.player
        (reply,) = bots[player].on_message(wire.request(position.matrix(), position.allowed()))
        kind, frm, to = parse_move(reply)
        problem = position.judge(kind, frm, to)
        if problem is not None:
            raise ValueError(f"{COLOR_NAMES[player]} played an illegal move: {problem}")
        position.apply(move_from_xy(kind, frm, to))
        winner = position.winner()
        echo = wire.processed(player, kind, frm, to, winner)
        for bot in bots.values():
            bot.on_message(echo)
    return position
