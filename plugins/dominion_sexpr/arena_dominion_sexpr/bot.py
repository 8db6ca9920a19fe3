"""How every S-expression Dominion bot is started: :class:`SexprPlayer` plays any
:class:`~arena_dominion_text.players.Strategy` over the protocol, and :func:`run` is the
command line of the built-in bot programs.

Every ``(move state)`` carries a complete snapshot, so :class:`StateView` builds the
strategy's :class:`~arena_dominion_text.players.View` from it alone: owned counts from
deck + hand + plays + discards, supply counts from the listed copies, and the money a
strategy plans with is ``coins`` plus the Treasures still in hand.

The protocol asks for ONE play per message, while a strategy decides a whole turn (its
Actions one at a time, then all its buys at once). :class:`SexprPlayer` bridges the two: it
asks for Actions while the strategy has one, then plans the buys once, ``add``\\ s every
Treasure, ``buy``\\ s the planned cards one per message and finally cleans up. The plan
must survive across messages: asked again after each ``add``, a strategy would see the same
money and could change its mind halfway through spending it.

Every play is checked against the snapshot before it is sent (the course server crashed
on an illegal play); a play that fails the check is dropped, and in doubt the bot buys
nothing and ends its turn.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from arena_dominion_text.cards import (
    CELLAR,
    COINS,
    COST,
    CURSE,
    GAIN_BONUS,
    IS_ACTION,
    IS_TREASURE,
    IS_VICTORY,
    KEEP_AFTER_ATTACK,
    MINE,
    MOAT,
    NAMES,
    WORKSHOP,
    WORKSHOP_MAX,
    card,
    name,
)
from arena_dominion_text.players import Play, Strategy
from arena_dominion_text.rules import missing
from arena_kernel.plugin import SexprCodec, Symbol, main

ACT, ADD, BUY, CLEAN = Symbol("act"), Symbol("add"), Symbol("buy"), Symbol("clean")
MOAT_REPLY, DISCARD = Symbol("moat"), Symbol("discard")

_STATE_FIELDS = (
    "players",
    "supply",
    "trash",
    "actions",
    "buys",
    "coins",
    "deck",
    "hand",
    "plays",
    "discards",
)


def _cards(items: Iterable[Any]) -> list[int]:
    """Card ids of a list of card symbols; ValueError names anything else."""
    return [card(str(item)) for item in items]


def _counts(cards: Iterable[int]) -> list[int]:
    counts = [0] * len(NAMES)
    for c in cards:
        counts[c] += 1
    return counts


class StateView:
    """One decoded ``state``, which is also the strategy's
    :class:`~arena_dominion_text.players.View`.

    A plain object rather than properties: the snapshot is the whole truth about this
    moment of the turn, and strategies read a view many times per decision.
    """

    __slots__ = (
        "actions",
        "buys",
        "coins",
        "deck",
        "discards",
        "hand",
        "money",
        "owned",
        "players",
        "plays",
        "supply",
        "trash",
    )

    def __init__(self, state: Any) -> None:
        """Decode ``((players ...) (supply ...) ... (discards ...))``; fields may come in
        any order, and ValueError reports a missing or malformed one."""
        if not isinstance(state, list):
            raise ValueError("the state is not a list")
        fields: dict[str, list[Any]] = {}
        for item in state:
            if isinstance(item, list) and item and isinstance(item[0], Symbol):
                fields[str(item[0])] = item[1:]
        missing = [f for f in _STATE_FIELDS if f not in fields]
        if missing:
            raise ValueError(f"the state lacks {', '.join(missing)}")
        self.players = [str(p) for p in fields["players"]]
        self.supply = _counts(_cards(fields["supply"]))
        self.trash = _cards(fields["trash"])
        self.actions = _number(fields["actions"], "actions")
        self.buys = _number(fields["buys"], "buys")
        self.coins = _number(fields["coins"], "coins")
        self.deck = _cards(fields["deck"])
        self.hand = _cards(fields["hand"])
        self.plays = _cards(fields["plays"])
        self.discards = _cards(fields["discards"])
        self.owned = _counts([*self.deck, *self.hand, *self.plays, *self.discards])
        self.money = self.coins + sum(COINS[c] for c in self.hand)

    @property
    def fresh(self) -> bool:
        """Whether this is the first state of a turn: nothing played, nothing bought.

        Mid-turn this never holds (any play puts a card in ``plays`` or zeroes the actions),
        so it resynchronises a bot whose last turn the referee ended without its ``clean``.
        """
        return not self.plays and self.actions == 1 and self.buys == 1 and self.coins == 0


def _number(values: list[Any], field: str) -> int:
    if len(values) != 1 or not isinstance(values[0], int) or values[0] < 0:
        raise ValueError(f"({field} ...) does not hold one count")
    return values[0]


def act_reply(play: Play, view: StateView) -> list[Symbol] | None:
    """The ``(act ...)`` play for ``(card, cards, gain)``, or None if it would be illegal.

    Checked against the snapshot: an Action left, the card and its arguments in the hand,
    the gain in the supply within its cost limit. The protocol has no form for a Mine,
    Remodel or Workshop without its arguments, so such a play is never sent.
    """
    action, cards, gain = play
    rest = list(view.hand)
    if view.actions < 1 or not IS_ACTION[action] or action not in rest:
        return None
    rest.remove(action)
    supply = view.supply
    args: list[int]
    if action == CELLAR:
        if gain is not None or missing(rest, cards) is not None:
            return None
        args = list(cards)
    elif action in GAIN_BONUS:
        if not cards or gain is None:
            return None
        old = cards[0]
        if old not in rest or supply[gain] <= 0 or COST[gain] > COST[old] + GAIN_BONUS[action]:
            return None
        if action == MINE and not (IS_TREASURE[old] and IS_TREASURE[gain]):
            return None
        args = [old, gain]
    elif action == WORKSHOP:
        if gain is None or supply[gain] <= 0 or COST[gain] > WORKSHOP_MAX:
            return None
        args = [gain]
    else:
        args = []
    return [ACT, *(Symbol(name(c)) for c in (action, *args))]


def clean_reply(hand: Sequence[str]) -> list[Symbol]:
    """``(clean card)`` exposing the first card of the hand (by name), ``(clean)`` for an
    empty one, as the protocol requires."""
    return [CLEAN, Symbol(hand[0])] if hand else [CLEAN]


def _discard_rank(c: int) -> tuple[bool, bool, int]:
    """Junk first, then cheap Treasures, Actions last: the order of a fallback discard."""
    return (not (c == CURSE or IS_VICTORY[c]), IS_ACTION[c], COST[c])


class SexprPlayer:
    """A :class:`~arena_kernel.plugin.BotLogic` speaking the S-expression protocol for
    ``strategy``.

    The protocol has no greeting and no game-over message; the turn state is reset by each
    turn's first ``(move state)``, so one object can play several games in a row.
    """

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.name = strategy.name or "dominion-bot"
        self._in_turn = False
        """A ``(move state)`` was answered by a play other than clean."""
        self._acting = True
        """The strategy may still play an Action this turn."""
        self._wanted: list[int] | None = None
        """This turn's remaining planned buys; None until the plan is made."""

    def start(self) -> list[Any]:
        """Nothing: in this protocol the referee speaks first."""
        return []

    def on_message(self, message: Any) -> list[Any]:
        """One play per ``(move state)``, one answer per ``(attacked ...)``; the
        broadcasts ``(moved ...)`` and ``(defended ...)`` (and anything unknown) get none."""
        if not isinstance(message, list) or not message:
            return []
        head = message[0]
        try:
            if head == "move" and len(message) == 2:
                return [self._move(StateView(message[1]))]
            if head == "attacked" and len(message) == 4:
                return [self._attacked(StateView(message[3]))]
        except (ValueError, TypeError, IndexError) as exc:
            # A request always gets an answer: the most harmless legal-looking one.
            print(f"bot: cannot read {message!r}: {exc}", file=sys.stderr)
            self._in_turn = False
            raw = _raw_hand(message[-1])
            if head == "move":
                return [clean_reply(raw)]
            return [[DISCARD, *raw[: max(0, len(raw) - KEEP_AFTER_ATTACK)]]]
        return []

    def _move(self, view: StateView) -> list[Symbol]:
        if not self._in_turn or view.fresh:
            self._acting = True
            self._wanted = None
        self._in_turn = True
        if self._acting and view.actions >= 1:
            play = self.strategy.action(view)
            reply = act_reply(play, view) if play is not None else None
            if reply is not None:
                return reply
        self._acting = False
        if self._wanted is None:
            self._wanted = self.strategy.buys(view) if view.buys >= 1 else []
        if self._wanted:
            # Every Treasure, one per message, before the first buy: the plan counted them.
            treasure = next((c for c in view.hand if IS_TREASURE[c]), None)
            if treasure is not None:
                return [ADD, Symbol(name(treasure))]
            wanted = self._wanted.pop(0)
            if view.buys >= 1 and view.coins >= COST[wanted] and view.supply[wanted] > 0:
                return [BUY, Symbol(name(wanted))]
            self._wanted = []
        self._in_turn = False
        return clean_reply([name(c) for c in view.hand])

    def _attacked(self, view: StateView) -> list[Symbol]:
        """``(moat)`` if the strategy reveals one it holds, else ``(discard ...)`` down to 3."""
        hand = view.hand
        excess = max(0, len(hand) - KEEP_AFTER_ATTACK)
        answer = self.strategy.attacked(hand, excess)
        if answer is None and MOAT in hand:
            return [MOAT_REPLY]
        if answer is None or len(answer) != excess or missing(hand, answer) is not None:
            answer = sorted(hand, key=_discard_rank)[:excess]
        return [DISCARD, *(Symbol(name(c)) for c in answer)]


def _raw_hand(state: Any) -> list[Symbol]:
    """The hand's symbols of a state that did not decode, for a fallback answer."""
    if isinstance(state, list):
        for item in state:
            if isinstance(item, list) and item and item[0] == "hand":
                return [s for s in item[1:] if isinstance(s, Symbol)]
    return []


def run(
    strategy: type[Strategy], argv: Sequence[str] | None = None, *, seeded: bool = False
) -> None:
    """Serve ``strategy`` as a program over stdin/stdout (or ``--tcp HOST PORT``);
    ``seeded`` offers ``--seed N``, for the bots whose choices are random."""
    main(
        lambda args: SexprPlayer(strategy(random.Random(args.seed) if seeded else None)),
        SexprCodec(),
        argv,
        seeded=seeded,
    )
