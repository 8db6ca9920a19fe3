"""How every text-protocol Dominion bot is started: :class:`TextPlayer` plays any
:class:`~arena_dominion_text.players.Strategy` over the line protocol, and :func:`run` is
the command line of the built-in bot programs.

The strategies decide from a :class:`~arena_dominion_text.players.View`; the text protocol
never sends one whole, so :class:`TextPlayer` rebuilds it from the messages: each request
carries the hand and counters (coins are implicit: the Treasures in hand plus
``extra-money``), ``supply`` lines carry the piles, and every player's ``gained`` and
``trashed`` lines keep the counts of the cards each owns, starting from the opening deck
(the bot's own for its buy rules, everyone's VP for the suicide check). A turn's gains are
announced when it ends, so the counts miss what the bot gained earlier in its current turn.
Every built-in bot is this class with a different strategy, so the protocol is written once.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from arena_dominion_text.cards import (
    CELLAR,
    COINS,
    COPPER,
    NAMES,
    STARTING_DECK,
    VP,
    card,
    name,
)
from arena_dominion_text.players import Strategy
from arena_dominion_text.rules import OFFICIAL, supply_sizes
from arena_dominion_text.wire import PASS, VERSION, action_reply, seat_index, seat_name
from arena_kernel.plugin import LineCodec, main


def starting_deck() -> list[int]:
    """Owned counts at the start of every game: those of :data:`STARTING_DECK`."""
    owned = [0] * len(NAMES)
    for c in STARTING_DECK:
        owned[c] += 1
    return owned


class TurnView:
    """The :class:`~arena_dominion_text.players.ScoredView` of one ``play-turn`` request.

    A plain object rather than properties over the player: a strategy reads it many times
    per decision, and the request is the whole truth about the hand and counters. The
    rules are the official ones, the only ones of this protocol.
    """

    __slots__ = ("actions", "buys", "hand", "money", "owned", "scores", "seat", "supply", "turns")

    rules = OFFICIAL

    def __init__(
        self,
        hand: Sequence[int],
        actions: int,
        buys: int,
        extra_money: int,
        owned: Sequence[int],
        supply: Sequence[int],
        seat: int,
        scores: Sequence[int],
        turns: Sequence[int],
    ) -> None:
        self.hand = hand
        self.actions = actions
        self.buys = buys
        self.money = extra_money + sum(COINS[c] for c in hand)
        self.owned = owned
        self.supply = supply
        self.seat = seat
        self.scores = scores
        self.turns = turns


class TextPlayer:
    """A :class:`~arena_kernel.plugin.BotLogic` speaking ``dominion_text.txt`` for ``strategy``.

    ``bot_name`` answers the name request (the strategy's name by default). State is reset
    by each ``player <seat> name`` line, which opens a game, so one object could play
    several games in a row.

    Turns, for the suicide check's tie-break (equal VP: fewer turns wins): a ``supply``
    line precedes every turn, so the lines before the bot's first request count the players
    who move before it in each round; at the end of the bot's turn they will have had as
    many turns as it, the others one fewer.
    """

    def __init__(self, strategy: Strategy, bot_name: str | None = None) -> None:
        self.strategy = strategy
        self.bot_name = bot_name or strategy.name or "dominion-bot"
        self.seat = "player1"  # until a name request says which seat
        self._reset()

    def _reset(self) -> None:
        """Forget the last game: a new one starts from the opening deck."""
        self.owned_by: dict[str, list[int]] = {}
        self.owned = starting_deck()
        # Two-player piles until the referee's first supply line says otherwise; every
        # turn is preceded by one, so this only matters to a referee that skips them.
        self.supply = supply_sizes(2)
        self.players = 2
        self.turns_begun = 0
        """``supply`` lines so far: one per turn of a player still in the game."""
        self.my_turns = 0
        self.in_turn = False
        self.moving_before_me: int | None = None

    def start(self) -> list[str]:
        """Nothing: in this protocol the referee speaks first."""
        return []

    def on_message(self, message: str) -> list[str]:
        """One reply to each request and handshake line; notices only update state."""
        words = message.split()
        try:
            return self._dispatch(message, words)
        except (ValueError, IndexError, KeyError) as exc:
            # A request always gets an answer the referee can judge (an invalid reply costs
            # an action or gets random discards), which is better than silence until the
            # timeout disqualifies the bot; unreadable notices are simply not tracked.
            print(f"bot: cannot read {message!r}: {exc}", file=sys.stderr)
            return [PASS] if words[:1] == ["play-request"] else []

    def _dispatch(self, message: str, words: list[str]) -> list[str]:
        if len(words) < 2:
            return []
        head, verb = words[0], words[1]
        if head == "player" and len(words) >= 3:
            return self._handshake(message.strip(), words)
        if head == "play-request":
            if verb == "play-turn":
                return [self._turn(words)]
            if verb == "attack":
                return [self._attacked(words)]
            return [PASS]
        if head == "supply":
            self._read_supply(words[1:])
        elif head == "game" and verb == "kingdom-cards":
            kingdom = [card(w) for w in words[2:]]
            self.supply = supply_sizes(2, kingdom)
        elif verb in ("gained", "trashed"):
            owned = self._owned(head)
            step = 1 if verb == "gained" else -1
            for c in words[2:]:
                c_id = card(c)
                owned[c_id] = max(0, owned[c_id] + step)
        return []

    def _owned(self, seat: str) -> list[int]:
        """The counts of the cards ``seat`` owns (the bot's own are :attr:`owned`)."""
        if seat == self.seat:
            return self.owned
        return self.owned_by.setdefault(seat, starting_deck())

    def _handshake(self, line: str, words: list[str]) -> list[str]:
        seat = words[1]
        if words[2] == "name":
            self._reset()
            self.seat = seat
            return [f"player {seat} {self.bot_name}"]
        if words[2] == "version":
            # Echoing means "supported". Otherwise say which version we speak, so the
            # server exits at once instead of waiting for a reply that never comes.
            return [line if words[3:] == [VERSION] else f"player {seat} version {VERSION}"]
        return []

    def _read_supply(self, words: list[str]) -> None:
        """``supply <card> <count> ...``: a pile not listed is not in this game. The first
        one, before anything is bought, also tells the number of players."""
        supply = [-1] * len(NAMES)
        for pile, count in zip(words[::2], words[1::2], strict=True):
            supply[card(pile)] = int(count)
        if self.turns_begun == 0:
            self.players = next(
                (n for n in (2, 3, 4) if supply_sizes(n)[COPPER] == supply[COPPER]), self.players
            )
        self.supply = supply
        self.turns_begun += 1
        self.in_turn = False

    def _turn(self, words: list[str]) -> str:
        """``play-request play-turn actions A buys B extra-money M hand c...``."""
        fields = dict(zip(words[2:8:2], words[3:8:2], strict=True))
        if words[8:9] != ["hand"]:
            raise ValueError("no hand in the request")
        if not self.in_turn:  # the first request of a turn
            self.in_turn = True
            self.my_turns += 1
            if self.moving_before_me is None:
                self.moving_before_me = min(self.turns_begun - 1, self.players - 1)
        view = TurnView(
            [card(w) for w in words[9:]],
            int(fields["actions"]),
            int(fields["buys"]),
            int(fields["extra-money"]),
            self.owned,
            self.supply,
            *self._standings(),
        )
        play = self.strategy.action(view)
        # This protocol calls a Cellar that names nothing to discard an invalid reply (the
        # action is consumed), so such a play is better not made at all.
        if play is not None and not (play[0] == CELLAR and not play[1]):
            return action_reply(play)
        bought = self.strategy.buys(view)
        if not bought:
            return PASS
        return "play-reply buy " + " ".join(name(c) for c in bought)

    def _standings(self) -> tuple[int, list[int], list[int]]:
        """The bot's seat index, every seat's VP, and every seat's turns at the end of this
        turn (see the class doc)."""
        me = seat_index(self.seat)
        n = max(self.players, me + 1)
        before = self.moving_before_me or 0
        scores, turns = [], []
        for other in range(n):
            owned = self.owned if other == me else self._owned(seat_name(other))
            scores.append(sum(count * VP[c] for c, count in enumerate(owned) if count))
            moved_first = 0 < (me - other) % n <= before
            turns.append(self.my_turns if other == me or moved_first else self.my_turns - 1)
        return me, scores, turns

    def _attacked(self, words: list[str]) -> str:
        """``play-request attack discard N hand c...``: reveal a Moat or discard N."""
        if words[2] != "discard" or words[4] != "hand":
            raise ValueError("not a discard request")
        hand = [card(w) for w in words[5:]]
        discards = self.strategy.attacked(hand, min(int(words[3]), len(hand)))
        if discards is None:
            return "play-reply reaction moat"
        return " ".join(["play-reply discard", *(name(c) for c in discards)])


def run(
    strategy: type[Strategy], argv: Sequence[str] | None = None, *, seeded: bool = False
) -> None:
    """Serve ``strategy`` as a program over stdin/stdout (or ``--tcp HOST PORT``), with
    ``--suicide-check`` for the simulators' check (never buy a card that ends the game while
    losing); ``seeded`` offers ``--seed N``, for the bots whose choices are random."""

    def options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--suicide-check",
            action="store_true",
            help="never buy a card that would end the game while this bot would lose",
        )

    main(
        lambda args: TextPlayer(
            strategy(random.Random(args.seed) if seeded else None, suicide_check=args.suicide_check)
        ),
        LineCodec(),
        argv,
        configure=options,
        seeded=seeded,
    )
