"""The Liar's Dice messages: what the referee sends and how a reply is judged.

Ids on the wire are *relative*: each bot has a fixed id for its session (1..N), and every
message replaces the receiver's own id with 0 (``Yourself``), in every field, the winner
too (the original server forgot that one). -1 means nobody.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from arena_liarsdice.players import CHALLENGE, PASS, SPOT_ON, Move
from arena_liarsdice.rules import Bid

NOBODY = -1
WORDS = (PASS, CHALLENGE)


class WireError(ValueError):
    """A reply that is not a move response for this request; the text says why."""


def relative(player_id: int, me: int) -> int:
    """How ``player_id`` appears to the bot whose id is ``me``."""
    return 0 if player_id == me else player_id


def move_request(
    message_id: str,
    me: int,
    numbers: tuple[int, int, int],
    hand: Sequence[int],
    others: Sequence[tuple[int, int]],
    last_bid: Bid,
) -> dict[str, Any]:
    """``numbers`` are (game, round, move); ``others`` are (id, dice) in playing order from
    the player to move."""
    game, round_, move = numbers
    return {
        "subject": "move_request",
        "message_id": message_id,
        "game_number": game,
        "round_number": round_,
        "move_number": move,
        "your_hand": list(hand),
        "other_hands": [[relative(pid, me), dice] for pid, dice in others],
        "last_bid": list(last_bid),
    }


def round_over(
    me: int,
    numbers: tuple[int, int],
    state: Sequence[tuple[int, int]],
    loser: int,
    challenger: int,
    winner: int,
) -> dict[str, Any]:
    """``numbers`` are (game, round); ``state`` lists every player, out ones included."""
    game, round_ = numbers

    def rel(pid: int) -> int:
        return NOBODY if pid == NOBODY else relative(pid, me)

    return {
        "subject": "round_over",
        "game_number": game,
        "round_number": round_,
        "state": [[relative(pid, me), dice] for pid, dice in state],
        "round_loser": rel(loser),
        "round_challenger": rel(challenger),
        "game_winner": rel(winner),
    }


def is_set_name(message: Any) -> bool:
    """``{"name": "..."}`` without a ``message_id``: the optional greeting, not a reply."""
    return isinstance(message, dict) and "name" in message and "message_id" not in message


def answers(message: Any, message_id: str) -> bool:
    """Whether ``message`` is a reply to request ``message_id``, whatever its move."""
    return isinstance(message, Mapping) and message.get("message_id") == message_id


def read_move(message: Any, message_id: str, spot_on: bool = False) -> Move:
    """The move of a ``move_response`` to request ``message_id``, or :class:`WireError`."""
    if not isinstance(message, Mapping):
        raise WireError(f"a move response is a JSON object, not {_show(message)}")
    if "message_id" not in message:
        raise WireError(f"no message_id in {_show(message)}")
    if message["message_id"] != message_id:
        raise WireError(f"message_id {_show(message['message_id'])} is not {message_id!r}")
    if "move" not in message:
        raise WireError(f"no move in {_show(message)}")
    move = message["move"]
    words = (*WORDS, SPOT_ON) if spot_on else WORDS
    if isinstance(move, str):
        if move not in words:
            raise WireError(f"move {move!r} is not one of {', '.join(words)} or a bid")
        return move
    if isinstance(move, list) and len(move) == 2:
        face, count = (_whole(x, move) for x in move)
        return (face, count)
    raise WireError(f"move {_show(move)} is not {', '.join(words)} or a bid [face, count]")


def _whole(number: Any, bid: list[Any]) -> int:
    """A number of a bid as an int: ``3.0`` is 3, as the contest's JavaScript server read it;
    ``3.5``, ``true`` or ``"3"`` are no whole number."""
    if isinstance(number, int) and not isinstance(number, bool):
        return number
    if isinstance(number, float) and number.is_integer():
        return int(number)
    raise WireError(f"bid {as_sent(bid)}: {as_sent(number)} is not a whole number")


def as_sent(value: Any, limit: int = 80) -> str:
    """``value`` in JSON, as the bot wrote it (``true``, not ``True``), cut to ``limit``."""
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _show(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
