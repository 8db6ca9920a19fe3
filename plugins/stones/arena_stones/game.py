"""The referee of Game of Stones: the protocol of ``stones.txt`` driving the rules engine.

White (seat 0) gets one attack-only request; after that each turn is an attack-only
request followed by one allowing pass, attack or strengthen. After every valid move BOTH
bots get ``{"Player", "Move", "Winner"}``. A late, unreadable or illegal reply loses the
match at once, with the reason in the record; so does having no attack at the start of a
turn, which the engine detects itself (the contest engine never did).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from arena_kernel.plugin import BuiltinBot, Clocks, FaultKind, Game, Option, Outcome
from arena_stones.board import contest_label, on_board
from arena_stones.matrix import Matrix
from arena_stones.rules import BLACK, COLOR_NAMES, WHITE, Position, move_from_xy
from arena_stones.wire import Encoder, Location, WireError, parse_move

if TYPE_CHECKING:
    from arena_kernel.plugin import Table

SEAT_OF = {WHITE: 0, BLACK: 1}


class Stones(Game[None]):
    name = "stones"
    summary = "Game of Stones (TZAAR): JSON lines on stdin/stdout, 2014 contest protocol"
    seats = (2,)
    codec = "jsonl"
    transport = "stdio"
    clocks = Clocks(startup=5.0, reply=3.0, grace=0.1)
    """The contest's: 5 s for White's first request, which includes starting the bot, and
    3 s for every later one. arena puts each bot's first request on the start-up clock,
    counted from the bot's start: White's first move, and Black's too (Black starts along
    with White, so it has its 5 s, or 3 s from its request if White took longer)."""
    options = {
        "setup": Option(
            "fixed",
            "start position: the rulebook's fixed one, or a seeded random placement",
            choices=("fixed", "random"),
        ),
        "enums": Option(
            "integers",
            "send colours and move types as JSON integers, or as strings and a pass echoed"
            " without From/To, like the contest engine",
            choices=("integers", "strings"),
        ),
    }
    bots = {
        "random": BuiltinBot.from_module(
            "a uniformly random legal move", "arena_stones.bots.random"
        ),
        "greedy": BuiltinBot.from_module(
            "the best material one move ahead, random among equals", "arena_stones.bots.greedy"
        ),
        "search": BuiltinBot.from_module(
            "compiled iterative-deepening alpha-beta, answering within a 1 s reply limit"
            " (--time SECONDS: the match's)",
            "arena_stones.bots.search",
        ),
        "search-py": BuiltinBot.from_module(
            "the Python alpha-beta, 1 s per move: the compiled search's reference",
            "arena_stones.bots.search_py",
        ),
    }

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        position = Position.initial(self.config["setup"], random.Random(seed))
        board = Matrix(position)
        wire = Encoder(contest=self.config["enums"] == "strings")
        table.send(SEAT_OF[WHITE], wire.color(WHITE))
        table.send(SEAT_OF[BLACK], wire.color(BLACK))
        moves = 0
        # winner() scans the board at a turn's first request: once per request, not twice.
        winner = position.winner()
        while not winner:
            player = position.player
            seat = SEAT_OF[player]
            reply = await table.ask(seat, wire.request(board.copy(), position.allowed()))
            if not reply.ok:
                return self._forfeit(seat, f"{reply.fault}", moves)
            try:
                move_type, frm, to = parse_move(reply.message)
            except WireError as exc:
                table.fault(seat, FaultKind.ILLEGAL, str(exc))
                return self._forfeit(seat, f"not a move: {exc}", moves)
            problem = position.judge(move_type, frm, to)
            if problem is not None:
                problem += _in_contest_labels(frm, to)
                table.fault(seat, FaultKind.ILLEGAL, problem)
                return self._forfeit(seat, f"illegal move: {problem}", moves)
            move = move_from_xy(move_type, frm, to)  # judged just above
            position.apply(move)
            board.played(position, move)
            moves += 1
            winner = position.winner()
            table.broadcast(wire.processed(player, move_type, frm, to, winner))
        reason = f"{COLOR_NAMES[winner]} wins: {position.reason()}"
        table.note(reason)
        return Outcome.win(SEAT_OF[winner], 2, reason, details={"moves": moves})

    @staticmethod
    def _forfeit(seat: int, why: str, moves: int) -> Outcome:
        loser = WHITE if seat == 0 else BLACK
        reason = f"{COLOR_NAMES[loser]} loses: {why}"
        return Outcome.win(1 - seat, 2, reason, details={"moves": moves})


def _in_contest_labels(frm: Location, to: Location) -> str:
    """The move's cells as the contest's logs named them, for a bot author comparing with
    those (the reasons use :func:`~arena_stones.board.label`); "" unless both are cells."""
    if frm is None or to is None or not (on_board(*frm) and on_board(*to)):
        return ""
    return f" (contest logs: {contest_label(*frm)} -> {contest_label(*to)})"
