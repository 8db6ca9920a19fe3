"""A protocol-free :class:`~arena_liarsdice.players.Player` as a Liar's Dice bot.

:class:`DiceBot` turns each ``move_request`` into a :class:`~arena_liarsdice.players.View`
and the player's move into a ``move_response``; :func:`run` is the command line every
built-in bot program shares (the kernel's: ``--tcp HOST PORT``, ``--seed N``, plus
``--name``, sent as the optional ``set_name`` greeting).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from arena_kernel.plugin import JsonlCodec, main
from arena_liarsdice.players import Player, View


class DiceBot:
    """One reply per ``move_request``, none to ``round_over``."""

    def __init__(self, player: Player, name: str | None = None) -> None:
        self.player = player
        self.name = name

    def start(self) -> list[Any]:
        return [{"name": self.name}] if self.name else []

    def on_message(self, message: Any) -> list[Any]:
        subject = message.get("subject") if isinstance(message, dict) else None
        if subject == "move_request":
            # View makes tuples of the JSON lists itself.
            view = View(
                hand=message["your_hand"],
                others=message["other_hands"],
                last_bid=message["last_bid"],
                game_number=message["game_number"],
                round_number=message["round_number"],
                move_number=message["move_number"],
            )
            # A bid is a tuple; the codec writes it as the JSON array [face, count].
            return [{"message_id": message["message_id"], "move": self.player.move(view)}]
        if subject == "round_over":
            state = [(pid, dice) for pid, dice in message["state"]]
            self.player.round_over(
                state, message["round_loser"], message["round_challenger"], message["game_winner"]
            )
            return []
        raise ValueError(f"unknown message from the referee: {message!r}")


def run(make_player: Callable[[int | None], Player], argv: Sequence[str] | None = None) -> None:
    def options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--name", help="the name to announce with set_name")

    main(
        lambda args: DiceBot(make_player(args.seed), args.name),
        JsonlCodec(),
        argv,
        configure=options,
        seeded=True,
    )
