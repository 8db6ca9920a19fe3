"""A protocol-free :class:`~arena_speedclue.players.Player` as a Speed Clue bot.

:class:`ClueBot` turns wire messages into player calls and back; :func:`run` is the command
line every built-in bot program shares: ``<identifier> <port>`` as the contest launched its
bots, connecting to the arena on localhost and answering until the connection closes.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from arena_kernel.plugin import RawCodec, main
from arena_speedclue import wire
from arena_speedclue.cards import parse_card
from arena_speedclue.players import Player


class ClueBot:
    """The wire side of a player: one reply per message, as the protocol demands."""

    def __init__(self, player: Player, identifier: str = "") -> None:
        self.player = player
        self.identifier = identifier

    def identify(self, identifier: str) -> None:
        self.identifier = identifier

    def start(self) -> list[str]:
        return [wire.alive(self.identifier)]

    def on_message(self, message: str) -> list[str]:
        keyword = message.split(maxsplit=1)[0].lower() if message.strip() else ""
        handler = self._handlers.get(keyword)
        if handler is None:
            raise wire.WireError(f"unknown message from the referee: {message!r}")
        return [handler(self, message)]

    def _reset(self, message: str) -> str:
        words = message.split()
        self.player.reset(int(words[1]), int(words[2]), [parse_card(w) for w in words[3:]])
        return "ok"

    def _suggest(self, message: str) -> str:
        return "suggest " + " ".join(self.player.suggest())

    def _disprove(self, message: str) -> str:
        suggester, triple = wire.read_disprove(message)
        return "show " + self.player.disprove(suggester, triple)

    def _suggestion(self, message: str) -> str:
        seen = wire.read_suggestion(message)
        self.player.observe_suggestion(seen.player, seen.triple, seen.disprover, seen.card)
        return "ok"

    def _accuse(self, message: str) -> str:
        accusation = self.player.accuse()
        return wire.NOBODY if accusation is None else "accuse " + " ".join(accusation)

    def _accusation(self, message: str) -> str:
        self.player.observe_accusation(*wire.read_accusation(message))
        return "ok"

    def _done(self, message: str) -> str:
        return "dead"

    _handlers: dict[str, Callable[[ClueBot, str], str]] = {
        "reset": _reset,
        "suggest": _suggest,
        "disprove": _disprove,
        "suggestion": _suggestion,
        "accuse": _accuse,
        "accusation": _accusation,
        "done": _done,
    }


def run(
    make_player: Callable[[argparse.Namespace], Player],
    argv: Sequence[str] | None = None,
    *,
    configure: Callable[[argparse.ArgumentParser], None] | None = None,
) -> None:
    """The contest's command line: ``<identifier> <port>``, plus ``--seed`` and ``--host``;
    ``configure`` adds a bot's own options, ``make_player`` builds it from the arguments."""

    def options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("identifier", help="what to say in '<identifier> alive'")
        parser.add_argument("port", type=int, help="the arena's TCP port")
        parser.add_argument("--host", default="127.0.0.1", help="the arena's host")
        if configure is not None:
            configure(parser)

    main(
        lambda args: ClueBot(make_player(args), args.identifier),
        RawCodec(),
        argv,
        configure=options,
        seeded=True,
        address=lambda args: (args.host, args.port),
    )
