"""The Liar's Dice referee: the 2023 contest's protocol around :mod:`arena_liarsdice.rules`.

Bots are TCP clients speaking JSON lines that stay connected for a whole session of games
(``lifetime = "session"``). Each bot gets a fixed id for its session (1..N, in connection
order); every game draws a new playing order from its seed. On every move every player
still holding dice gets a ``move_request`` at once and all must answer within one reply
clock; :func:`~arena_liarsdice.simulate.resolve` settles which reply counts (faults first,
then the earliest challenge, then the mover's bid, ties to the earliest in playing order).
After each round every player of the game gets ``round_over``.

The optional ``set_name`` greeting comes once per session, before the game that reads it, so
every game's replay notes what each bot said at its handshake.

A reply that is missing, late, not JSON, of the wrong shape, for another ``message_id``, or
illegal loses the round, and the reason is recorded. From a player who is not to move, a
reply to its request is read as the contest's server read it: a challenge is a challenge,
anything else a pass (noted in the replay); ``strict_turn`` holds it to "pass" or
"challenge". A bot that disconnects loses every round it is asked in until it is out of
dice; the game goes on. A game that reaches ``max_moves`` moves (raises with no ceiling on
the count can go on for ever) stops there, ranked by the dice each player holds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from arena_kernel.plugin import BuiltinBot, Clocks, FaultKind, Game, Option, Outcome
from arena_liarsdice import wire
from arena_liarsdice.players import PASS
from arena_liarsdice.rules import RoundResult, State, Variant, standing
from arena_liarsdice.simulate import NoMove, Resolution, Response, apply, resolve

if TYPE_CHECKING:
    from arena_kernel.plugin import Reply, Table


@dataclass
class Entrant:
    """A bot for the length of its session: its id, the name it chose, its games so far."""

    player_id: int
    name: str | None = None
    greeting: str | None = None
    """The ``set_name`` that gave the name, as sent: every game's replay repeats it."""
    games: int = 0
    issued: set[str] = field(default_factory=set)
    """Every ``message_id`` sent to this bot, to tell a stale reply from a wrong one."""


class Referee:
    """One game: moves, resolution, ``round_over`` broadcasts, the ranking."""

    def __init__(self, table: Table, state: State, entrants: list[Entrant], max_moves: int) -> None:
        self.table = table
        self.state = state
        self.entrants = entrants
        self.max_moves = max_moves
        self.moves = 0
        self.ids = [e.player_id for e in entrants]
        self.out: list[int] = []
        """Players in the order they lost their last die."""
        self.faults: list[str] = []

    async def play(self) -> Outcome:
        for player, entrant in enumerate(self.entrants):
            greeting = entrant.greeting
            self.handshake(player, NO_NAME_YET if greeting is None else f"said {greeting}")
        while not self.state.over and self.moves < self.max_moves:
            self.moves += 1
            result = apply(self.state, await self.move())
            if result is not None:
                self.round_over(result)
        return self.outcome()

    async def move(self) -> Resolution:
        state = self.state
        active = state.active()
        others = [(self.ids[p], state.dice[p]) for p in active]
        ids = {p: self.message_id(p) for p in active}
        requests = {
            p: wire.move_request(
                ids[p],
                self.ids[p],
                (self.entrants[p].games, state.round_number, state.move_number),
                state.hands[p],
                others,
                state.last_bid,
            )
            for p in active
        }
        for p in active:
            self.entrants[p].issued.add(ids[p])
        replies = await self.table.ask_many(requests)
        moves: dict[int, Response] = {}
        for p, first in replies.items():
            self.names(p, first.unsolicited)
            reply = await self.answer(p, first, ids[p])
            if reply.fault is not None:
                moves[p] = NoMove(str(reply.fault))
                continue
            try:
                moves[p] = wire.read_move(reply.message, ids[p], state.variant.spot_on)
            except wire.WireError as error:
                if self.taken_as_pass(p, reply.message, ids[p]):
                    moves[p] = PASS
                    continue
                self.table.fault(p, FaultKind.ILLEGAL, str(error))
                moves[p] = NoMove(f"illegal: {error}")
        resolution = resolve(state, moves)
        if not state.variant.strict_turn:
            for p, move in moves.items():
                if isinstance(move, tuple) and p != state.mover:
                    name = self.table.name(p)
                    self.table.note(f"{name} bid {list(move)} out of turn: taken as a pass")
        if resolution.kind == "fault" and not isinstance(moves[resolution.player], NoMove):
            self.table.fault(resolution.player, FaultKind.ILLEGAL, resolution.reason)
        if resolution.kind == "fault":
            name = self.table.name(resolution.player)
            self.faults.append(f"round {state.round_number}: {name} {resolution.reason}")
        return resolution

    def taken_as_pass(self, player: int, message: Any, message_id: str) -> bool:
        """Whether a reply that is no move counts as a pass (noted in the replay): one
        that answers its request from a player who is not to move, unless ``strict_turn``.
        The contest's server looked for a challenge only in such a reply."""
        state = self.state
        if state.variant.strict_turn or player == state.mover:
            return False
        if not wire.answers(message, message_id):
            return False
        said = f"answered {wire.as_sent(message['move'])}" if "move" in message else "no move"
        self.table.note(f"{self.table.name(player)} {said} out of turn: taken as a pass")
        return True

    async def answer(self, player: int, reply: Reply, message_id: str) -> Reply:
        """The reply to request ``message_id``, skipping what is not one: a ``set_name``
        greeting, or a stale reply to an earlier request whose time ran out (it counts for
        nothing), and waiting on for the real one within what is left of the request's
        clock (the start-up clock, for a bot's first request)."""
        while reply.ok and (
            wire.is_set_name(reply.message) or self.stale(player, reply.message, message_id)
        ):
            self.names(player, [reply.message])
            left = max(reply.limit - reply.elapsed, 0.0)
            reply = await self.table.receive(player, timeout=left, clock="reply")
        return reply

    def stale(self, player: int, message: Any, message_id: str) -> bool:
        """Whether ``message`` answers an earlier request of ``player``'s. Only a string can
        be one of its ids: any other ``message_id`` (a list, an object) is a wrong reply,
        for :func:`wire.read_move` to judge."""
        if not isinstance(message, dict):
            return False
        old = message.get("message_id")
        return isinstance(old, str) and old != message_id and old in self.entrants[player].issued

    def message_id(self, player: int) -> str:
        state = self.state
        game = self.entrants[player].games
        return f"g{game}r{state.round_number}m{state.move_number}p{self.ids[player]}"

    def names(self, player: int, messages: list[Any]) -> None:
        """Honour the first ``set_name`` of a session; later ones are ignored. The replay
        notes each, in the game where it is read."""
        entrant = self.entrants[player]
        for message in messages:
            if not wire.is_set_name(message):
                continue
            sent = wire.as_sent(message)
            said = f"said {sent}"
            if entrant.name is not None:
                self.handshake(player, f"{said}: ignored, only the first set_name counts")
            elif not isinstance(message["name"], str):
                self.handshake(player, f"{said}: ignored, a name is a string")
            else:
                entrant.name = message["name"][:64]
                entrant.greeting = sent
                self.handshake(player, said)

    def handshake(self, player: int, text: str) -> None:
        """A note on ``player``'s greeting, with its session id (the ids bots see)."""
        who = f"{self.table.name(player)} (session id {self.entrants[player].player_id})"
        self.table.note(f"handshake: {who} {text}")

    def round_over(self, result: RoundResult) -> None:
        state = self.state
        if state.dice[result.loser] == 0:
            self.out.append(result.loser)
        loser = self.ids[result.loser]
        challenger = wire.NOBODY if result.challenger is None else self.ids[result.challenger]
        winner = wire.NOBODY if state.winner is None else self.ids[state.winner]
        dice = [(self.ids[p], state.dice[p]) for p in range(state.n_players)]
        number = state.round_number - (0 if state.over else 1)
        self.table.broadcast(
            lambda p: wire.round_over(
                self.ids[p],
                (self.entrants[p].games, number),
                dice,
                loser,
                challenger,
                winner,
            )
        )

    def outcome(self) -> Outcome:
        """The ranks: the winner, then the players out, the last out first. A game stopped
        at ``max_moves`` ranks those still holding dice by how many."""
        state = self.state
        ranks = standing(state.dice, self.out)
        details = {
            "playing_order": [self.table.name(p) for p in self.state.order],
            "out_in_order": [self.table.name(p) for p in self.out],
            "rounds": self.state.round_number,
            "round_faults": self.faults,
            "names": {self.table.name(p): e.name for p, e in enumerate(self.entrants) if e.name},
            "moves": self.moves,
        }
        if state.winner is not None:
            reason = f"{self.table.name(state.winner)} has the last dice"
            return Outcome(ranks, reason, details=details)
        most = max(state.dice)
        leaders = [self.table.name(p) for p in state.order if state.dice[p] == most]
        holds = f"{leaders[0]} holds" if len(leaders) == 1 else f"{' and '.join(leaders)} hold"
        reason = f"stopped after {self.moves} moves (max_moves): {holds} the most dice ({most})"
        self.table.note(reason)
        return Outcome(ranks, reason, details=details)


NO_NAME_YET = 'has sent no name (the optional {"name": ...} message) so far'
"""The handshake note of a bot that has not named itself (yet: it may later)."""

TCP_ARGS = ("--tcp", "{host}", "{port}")
VARIANTS = tuple(f.name for f in fields(Variant))
"""The game options that are rule variants, named as :class:`Variant`'s fields."""


class LiarsDice(Game[list[Entrant]]):
    name = "liarsdice"
    summary = "Liar's Dice (2023 contest): simultaneous requests over TCP JSON lines, 2-8 players"
    seats = (2, 3, 4, 5, 6, 7, 8)
    codec = "jsonl"
    transport = "tcp"
    clocks = Clocks(startup=10.0, reply=3.0)
    lifetime = "session"
    tagged_replies = True
    options = {
        "dice": Option(6, "dice per player at the start of a game", minimum=1, maximum=20),
        "wild_ones": Option(False, "1s count as any face (not for bids on 1s)"),
        "spot_on": Option(
            False, 'allow the move "spot_on": the last bid is exactly right (or the caller loses)'
        ),
        "strict_count": Option(
            False,
            "a bid may not name more dice than the table holds (the contest's server allowed "
            "it: such a bid can only lose a challenge)",
        ),
        "strict_turn": Option(
            False,
            'a player not to move must answer "pass" or "challenge": a bid or anything else '
            "loses the round (the contest's server read only a challenge from such a player, "
            "anything else as a pass)",
        ),
        "max_moves": Option(
            5000,
            "moves a game may last (every player with dice is asked once a move): a game "
            "that reaches it stops, its players ranked by the dice they hold",
            minimum=1,
            keyed_at_default=False,
        ),
    }
    bots = {
        name: BuiltinBot.from_module(summary, f"arena_liarsdice.bots.{name}", *TCP_ARGS)
        for name, summary in (
            ("random", "random raises near the last bid, a challenge now and then"),
            ("basic", "the contest's sample: challenges 1 in 5 (any time), else one die more"),
            ("prob", "binomial odds of the bid: challenges unlikely bids, bids the likeliest"),
        )
    }

    async def open_session(self, table: Table) -> list[Entrant]:
        """Ids 1..N in connection order, fixed for the session."""
        return [Entrant(seat + 1) for seat in range(len(table))]

    async def play(self, table: Table, seed: int, session: list[Entrant]) -> Outcome:
        entrants = [session[table.entrant(seat)] for seat in range(len(table))]
        for entrant in entrants:
            entrant.games += 1
        variant = Variant(**{name: self.config[name] for name in VARIANTS})
        state = State.new(len(table), self.config["dice"], random.Random(seed), variant)
        return await Referee(table, state, entrants, self.config["max_moves"]).play()
