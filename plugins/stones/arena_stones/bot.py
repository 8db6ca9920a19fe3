"""A protocol-free :class:`~arena_stones.players.Player` as a Game of Stones bot.

:class:`StonesBot` turns the referee's decoded messages into the position its player
chooses on, and the chosen move into a reply. The position is followed from the move
echoes, both sides' moves, and checked against the board of every request, which is the
whole truth: a bot that missed or could not follow an echo, or joins a game under way,
rebuilds the position from the board instead (reading and checking a matrix is most of
the cost of a random bot's move, so it is done once a game, not once a request: a request's
board is compared with the followed position's :class:`~arena_stones.matrix.Matrix`).
:func:`run` is the command line every built-in bot program shares.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from arena_kernel.plugin import BotClocks, JsonlCodec, main
from arena_stones.matrix import Matrix
from arena_stones.players import Player
from arena_stones.rules import (
    ANY_MOVE,
    ATTACK,
    ATTACK_ONLY,
    BLACK,
    PASS,
    STRENGTHEN,
    WHITE,
    Position,
    move_from_xy,
    move_to_xy,
)
from arena_stones.wire import Encoder, Location, WireError, parse_move

_ENCODER = Encoder()
"""Bots answer with integer enums, whatever the referee sends."""


def _enum(value: Any) -> int:
    """An enum value as an int: the contest engine sent them as JSON strings ("1").
    Anything else is 0, which no request or colour uses."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


class StonesBot:
    """The wire side of a player: a :class:`~arena_kernel.plugin.BotLogic` that answers
    each move request with the player's :meth:`~arena_stones.players.Player.choose`."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.color = 0
        self.last_mover = 0
        self.position: Position | None = None
        """The game as followed from the echoes; None when it is not known (before the
        first request, after an echo it could not follow), and then the next request's
        board is read instead."""
        self.board: Matrix | None = None
        """The matrix of :attr:`position`, followed with it (None with it)."""
        self.sent: tuple[int, Location, Location] | None = None
        """The move of the last reply, until its echo: it was chosen on :attr:`position` as
        that still is, so its echo needs no judging (half the echoes of a game)."""

    @property
    def threaded(self) -> bool:
        """In process, asked in a thread of its own when its player thinks long without
        the GIL (the compiled search): the other games go on meanwhile."""
        return self.player.threaded

    def clocks(self, clocks: BotClocks) -> None:
        """The match's clocks, for a player that plays by them."""
        self.player.clocks(clocks)

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
        played = move_from_xy(*echoed)
        position.apply(played)
        assert self.board is not None  # followed with the position
        self.board.played(position, played)

    def _read(self, request: dict[str, Any]) -> Position:
        """The position ``request`` asks about: the followed one when it is exactly that
        board at that request for this bot's colour, else rebuilt from the board (which
        raises KeyError, TypeError or ValueError for a request that is no board)."""
        allowed = _allowed(request["AllowedMoves"])
        state = request["Board"]["state"]
        player = self._player(allowed)
        position, board = self.position, self.board
        if (
            position is None
            or board is None
            or position.player != player
            or position.allowed() != allowed
            or board.rows != state
        ):
            self.position = self.board = None  # until the board is read: it may be no board
            matrix = [[int(v) for v in row] for row in state]
            position = Position.from_matrix(matrix, player, allowed)
            self.position, self.board = position, Matrix(position)
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
        self.sent = move_to_xy(self.player.choose(position))
        return _ENCODER.move(*self.sent)

    def _player(self, allowed: tuple[int, ...]) -> int:
        """Our colour; without a Color message, inferred from the last move's echo (a turn's
        second request belongs to the last mover, its first to the other side)."""
        if self.color in (WHITE, BLACK):
            return self.color
        if not self.last_mover:
            return WHITE
        return -self.last_mover if allowed == ATTACK_ONLY else self.last_mover


def _allowed(values: Any) -> tuple[int, ...]:
    """A request's AllowedMoves as a tuple of ints (the usual two lists at once)."""
    if values == [ATTACK]:
        return ATTACK_ONLY
    if values == [PASS, ATTACK, STRENGTHEN]:
        return ANY_MOVE
    return tuple(_enum(t) for t in values)


def process_age() -> float:
    """Seconds since this process started, by the wall clock. A program's first request may
    have waited that long to be read (the referee writes it as soon as the program is
    started), on a reply clock that counts the wait. Read from ``/proc``; where there is
    none, the CPU time used so far, which at least counts the start-up's own work."""
    try:
        with open("/proc/self/stat", "rb") as stat, open("/proc/uptime", "rb") as uptime:
            # The fields after the command's closing parenthesis; starttime is field 22.
            started = int(stat.read().rsplit(b")", 1)[1].split()[19])
            now = float(uptime.read().split()[0])
        return max(now - started / os.sysconf("SC_CLK_TCK"), 0.0)
    except (OSError, ValueError, IndexError):
        return time.process_time()


def run(
    make_player: Callable[[argparse.Namespace], Player],
    configure: Callable[[argparse.ArgumentParser], None] | None = None,
    *,
    seeded: bool = False,
) -> None:
    """Serve a player as a bot over stdin/stdout (or ``--tcp``) speaking JSON lines;
    ``configure`` adds a bot's own options, ``make_player`` builds it from the arguments."""
    main(
        lambda args: StonesBot(make_player(args)), JsonlCodec(), configure=configure, seeded=seeded
    )
