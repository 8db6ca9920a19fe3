"""Whole Game of Stones games between two bots in process, for tests and benchmarks."""

from __future__ import annotations

from arena_kernel.plugin import BotLogic
from arena_stones.matrix import Matrix
from arena_stones.rules import BLACK, COLOR_NAMES, WHITE, Position, move_from_xy
from arena_stones.wire import Encoder, parse_move


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
    board = Matrix(position)
    winner = position.winner()
    while not winner:
        player = position.player
        (reply,) = bots[player].on_message(wire.request(board.copy(), position.allowed()))
        kind, frm, to = parse_move(reply)
        problem = position.judge(kind, frm, to)
        if problem is not None:
            raise ValueError(f"{COLOR_NAMES[player]} played an illegal move: {problem}")
        move = move_from_xy(kind, frm, to)
        position.apply(move)
        board.played(position, move)
        winner = position.winner()
        echo = wire.processed(player, kind, frm, to, winner)
        for bot in bots.values():
            bot.on_message(echo)
    return position
