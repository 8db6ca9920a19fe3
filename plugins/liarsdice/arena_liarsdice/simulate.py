"""Whole Liar's Dice games in process, judged exactly as the referee judges them.

Every move, every active player is asked (the protocol lets anyone challenge out of turn) and
the replies are settled together by :func:`resolve`, which the referee shares, then applied to
the :class:`~arena_liarsdice.rules.State` by :func:`apply`. After each round every player, the
eliminated ones too, gets :meth:`~arena_liarsdice.players.Player.round_over`.

Ids follow the referee's: player index ``i`` has the session id ``i + 1``, and in what a player
is told its own id is 0 (:func:`relative`). A simulation has no fault policy: an illegal reply
from a built-in player is a bug and raises :class:`Violation` naming it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from arena_liarsdice.players import CHALLENGE, PASS, SPOT_ON, Move, Player, View
from arena_liarsdice.rules import Bid, RoundResult, State, Variant


class Violation(Exception):
    """A built-in player made an illegal move; ``player`` is its index."""

    def __init__(self, player: int, reason: str, name: str = "") -> None:
        who = f"player {player}" + (f" ({name})" if name else "")
        super().__init__(f"{who}: {reason}")
        self.player = player
        self.reason = reason


@dataclass(frozen=True)
class NoMove:
    """A reply that is no move at all: missing, late, unreadable, wrong ``message_id``...

    The referee knows why a reply is unusable, :func:`resolve` does not, so the referee passes
    a ``NoMove`` instead of a move and its ``reason`` ends up in the :class:`Resolution`.
    """

    reason: str


Response = Move | list[int] | NoMove
"""What :func:`resolve` takes per player: a move as the bot sent it in its ``move_response``
(a bid may still be the JSON list), or a :class:`NoMove`."""


@dataclass(frozen=True)
class Resolution:
    """Which one reply of a move counts, and what it does.

    ``kind`` is ``"fault"`` (``player`` loses the round, ``reason`` says why), ``"challenge"``
    or ``"spot_on"`` (``player`` calls the last bid) or ``"bid"`` (``player``, the mover, bids
    ``bid``).
    """

    kind: Literal["fault", "challenge", "spot_on", "bid"]
    player: int
    reason: str = ""
    bid: Bid | None = None


def move_error(game: State, player: int, reply: Response) -> str | None:
    """Why ``reply`` is illegal for ``player`` now, or ``None`` if it is a legal move.

    A bid out of turn is illegal only with the ``strict_turn`` variant; otherwise it counts
    as a pass, whatever it says, as on the contest's server (its protocol forbids only a
    pass on one's own turn).
    """
    if isinstance(reply, NoMove):
        return reply.reason
    if isinstance(reply, str):
        if reply == PASS:
            return "passed on its own turn" if player == game.mover else None
        if reply == CHALLENGE:
            return None
        if reply == SPOT_ON:
            return None if game.variant.spot_on else "spot-on calls are not played (variant off)"
        return f"{reply!r} is not a move: 'pass', 'challenge' or [face, count]"
    if isinstance(reply, tuple | list):
        if player != game.mover:
            return f"bid {list(reply)!r} out of turn" if game.variant.strict_turn else None
        return game.bid_error(reply)
    return f"{reply!r} is not a move: 'pass', 'challenge' or [face, count]"


def resolve(game: State, replies: Mapping[int, Response]) -> Resolution:
    """Settle one move from every active player's reply; pure, ``game`` is not changed.

    ``replies`` maps player indexes to what each sent; an active player missing from it
    counts as a :class:`NoMove` ``"no reply"``. Precedence, ties going to the earliest player
    in playing order from the mover (``game.active()``): (1) any illegal reply, including
    faults, loses the round; (2) else the earliest call (``"challenge"``, or ``SPOT_ON``)
    counts, out of turn too; (3) else the mover's bid stands. A key that is not an active
    player is a bug in the caller: ``ValueError``.
    """
    active = game.active()
    strangers = set(replies) - set(active)
    if strangers:
        raise ValueError(f"replies from players without dice or unknown: {sorted(strangers)}")
    sent = {p: replies.get(p, NoMove("no reply")) for p in active}
    for player in active:
        reason = move_error(game, player, sent[player])
        if reason is not None:
            return Resolution("fault", player, reason)
    for player in active:
        if sent[player] == CHALLENGE:
            return Resolution("challenge", player)
        if sent[player] == SPOT_ON:
            return Resolution("spot_on", player)
    bid = sent[game.mover]
    assert isinstance(bid, tuple | list)
    return Resolution("bid", game.mover, bid=(bid[0], bid[1]))


def apply(game: State, resolution: Resolution) -> RoundResult | None:
    """Play ``resolution`` on ``game``: the round's result if it ended, ``None`` after a bid."""
    if resolution.kind == "fault":
        return game.fault(resolution.player)
    if resolution.kind == "challenge":
        return game.challenge(resolution.player)
    if resolution.kind == "spot_on":
        return game.spot_on(resolution.player)
    assert resolution.bid is not None
    game.bid(resolution.player, resolution.bid)
    return None


def relative(player: int | None, me: int) -> int:
    """``player``'s id as ``me`` is told it: 0 for itself, index + 1 for others, -1 for nobody."""
    if player is None:
        return -1
    return 0 if player == me else player + 1


def view_for(game: State, player: int, game_number: int = 1) -> View:
    """The ``move_request`` ``player`` gets now, as a :class:`View`."""
    return View(
        hand=game.hands[player],
        others=tuple((relative(p, player), game.dice[p]) for p in game.active()),
        last_bid=game.last_bid,
        game_number=game_number,
        round_number=game.round_number,
        move_number=game.move_number,
    )


@dataclass(frozen=True)
class Result:
    """How a game ended (player indexes)."""

    winner: int
    rounds: int
    eliminated: tuple[int, ...]
    """First out first; the winner is not in it."""


def play_game(
    players: Sequence[Player],
    rng: random.Random,
    dice: int = 6,
    variant: Variant | None = None,
    *,
    game_number: int = 1,
    max_moves: int = 100_000,
) -> Result:
    """Play one game between ``players`` (indexes; the playing order is drawn from ``rng``)."""
    game = State.new(len(players), dice, rng, variant)
    eliminated: list[int] = []
    moves = 0
    while not game.over:
        moves += 1
        if moves > max_moves:
            raise RuntimeError(f"no winner after {max_moves} moves")
        replies = {p: players[p].move(view_for(game, p, game_number)) for p in game.active()}
        resolution = resolve(game, replies)
        if resolution.kind == "fault":
            name = type(players[resolution.player]).__name__
            raise Violation(resolution.player, resolution.reason, name)
        result = apply(game, resolution)
        if result is None:
            continue
        if game.dice[result.loser] == 0:
            eliminated.append(result.loser)
        winner = game.winner
        for me, player in enumerate(players):
            state = tuple((relative(p, me), n) for p, n in enumerate(game.dice))
            player.round_over(
                state,
                relative(result.loser, me),
                relative(result.challenger, me),
                relative(winner, me),
            )
    assert game.winner is not None
    return Result(game.winner, game.round_number, tuple(eliminated))
