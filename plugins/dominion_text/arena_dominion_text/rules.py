"""The Dominion rules (base set, 1st edition) as one protocol-neutral state machine.

Both Dominion protocols drive this engine, so it knows neither: it exposes every decision
at the finest grain either needs (one Action, one Treasure, one buy, the clean-up with the
card left on top of the discard pile, one attack response at a time) and records what
happened as :class:`Event` values an adapter turns into its broadcasts.

Every operation validates completely before it changes anything: an illegal one raises
:class:`IllegalMove` with the reason in words and leaves the state exactly as it was, so
each adapter can apply its own protocol's penalty (the text protocol consumes an Action,
the course server crashed).

Cards are ints (see :mod:`arena_dominion_text.cards`) and piles are plain lists with the top at
the end: simulations play thousands of games and every object or dict lookup shows.

Attack flow: playing Militia gives +2 Coins and, if any other player holds more than 3
cards, switches :attr:`Dominion.phase` to :data:`ATTACK` with :attr:`Dominion.pending`
listing those players in turn order. Each answers with :meth:`Dominion.reveal_moat` or
:meth:`Dominion.discard_down` (:meth:`Dominion.random_discards` picks a valid discard
for a bot whose answer was invalid), in any order; after the last answer the phase is
:data:`ACTION` again. A hand of 3 or fewer cards is not asked at all: it discards nothing,
and revealing a Moat would change nothing.

Shuffling is about a quarter of a simulated game, so :func:`shuffle` is
:meth:`random.Random.shuffle`, card for card, at half the cost: the standard library's
Fisher-Yates calls a Python-level ``_randbelow`` for each card, which works out how many
random bits it needs and then asks for them; here each deck size's ``(index, bits)`` steps
are worked out once, and the loop asks ``getrandbits`` directly. Every draw is the one
CPython's ``shuffle`` makes (``getrandbits(n.bit_length())``, drawn again while it is
``>= n``), so a seed deals exactly the games it always has (golden transcripts and
reference figures stay valid), and the permutations are exactly as uniform as the
standard library's.

:func:`game_outcome` is the record of a game for either protocol's referee, both of which
put out bots that stop answering or break rules.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from operator import mul
from typing import NamedTuple

from arena_dominion_text.cards import (
    CELLAR,
    COINS,
    COPPER,
    COST,
    CURSE,
    DUCHY,
    ESTATE,
    GAIN_BONUS,
    GOLD,
    IS_ACTION,
    IS_TREASURE,
    IS_VICTORY,
    KEEP_AFTER_ATTACK,
    KINGDOM,
    MILITIA,
    MINE,
    MOAT,
    NAMES,
    PLUS_ACTIONS,
    PLUS_BUYS,
    PLUS_CARDS,
    PLUS_COINS,
    PROVINCE,
    REMODEL,
    SILVER,
    STARTING_DECK,
    VP,
    WORKSHOP,
    WORKSHOP_MAX,
    name,
)
from arena_kernel.plugin import Outcome

ACTION = "action"
BUY = "buy"
ATTACK = "attack"
OVER = "over"
"""Values of :attr:`Dominion.phase`. Clean-up is not a phase: :meth:`Dominion.end_turn`
does it whole, because no decision happens inside it."""
IN_TURN = (ACTION, BUY)
"""The phases in which the current player may buy and end the turn."""

OFFICIAL = "official"
COURSE = "course"
"""Rule sets: official end (Province pile or three piles) and tie-break (fewer turns, then
shared); or the course server's (Province pile only, equal VP shares the win)."""

EV_TURN = "turn"
EV_PLAY = "play"
EV_BUY = "buy"
EV_GAIN = "gain"
EV_TRASH = "trash"
EV_DISCARD = "discard"
EV_REVEAL = "reveal"
EV_SHUFFLE = "shuffle"
"""Event kinds; see :class:`Event` for what each carries."""

TO_DISCARD = "discard"
TO_HAND = "hand"

HAND_SIZE = 5
"""Cards drawn at the start and in every clean-up."""

DEFAULT_TURN_CAP = 100
"""Turns per player before a referee or a simulation stops a game; Big Money needs about
17."""


class Event(NamedTuple):
    """One thing that happened, for an adapter's broadcasts.

    ``turn``: ``detail`` is the player's turn number. ``play``, ``trash``, ``reveal``:
    ``cards`` is the one card. ``buy`` and ``gain`` (a buy is a gain, and is reported as
    ``buy`` only): ``cards`` is the card, ``detail`` where it went, :data:`TO_DISCARD` or
    :data:`TO_HAND`. ``discard``: ``cards`` are the discarded cards, ``detail`` the card now
    on top of the discard pile. ``shuffle``: the discard pile became the deck.
    """

    kind: str
    player: int
    cards: tuple[int, ...] = ()
    detail: int | str | None = None


class IllegalMove(ValueError):
    """An operation the rules forbid in this state; the state is unchanged."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """The final score: per player, in seat order."""

    vp: tuple[int, ...]
    turns: tuple[int, ...]
    ranks: tuple[int, ...]
    """1 for the winners; players who tie share a rank and the next rank is skipped."""
    reason: str
    first: int
    """The seat that took the first turn: seat order matters to the odds."""

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p for p, rank in enumerate(self.ranks) if rank == 1)


@cache
def _steps(size: int) -> tuple[tuple[int, int], ...]:
    """Fisher-Yates for ``size`` cards: swap position ``i`` with a uniform ``j <= i``,
    drawn as ``bits`` random bits, for ``i`` from the last position down to 1."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` would."""
    getrandbits = rng.getrandbits
    for i, bits in _steps(len(cards)):
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def supply_sizes(players: int, kingdom: Iterable[int] = KINGDOM, curses: bool = True) -> list[int]:
    """Starting pile sizes indexed by card, -1 for a card not in this game.

    -1 rather than 0 so that "any three piles empty" can count zeros, and so that no
    check of ``supply[card] > 0`` can mistake an absent pile for a gainable one.
    """
    if not 2 <= players <= 4:
        raise ValueError(f"Dominion is for 2 to 4 players, not {players}")
    victory = 8 if players == 2 else 12
    sizes = [-1] * len(NAMES)
    sizes[COPPER] = 60 - 7 * players
    sizes[SILVER] = 40
    sizes[GOLD] = 30
    sizes[ESTATE] = sizes[DUCHY] = sizes[PROVINCE] = victory
    if curses:
        sizes[CURSE] = 10 * (players - 1)
    for c in kingdom:
        if not IS_ACTION[c]:
            raise ValueError(f"{NAMES[c]} is not a kingdom card")
        if sizes[c] != -1:
            raise ValueError(f"{NAMES[c]} is twice in the kingdom")
        sizes[c] = 10
    return sizes


def gainable(supply: Sequence[int], max_cost: int, treasure_only: bool = False) -> list[int]:
    """Cards with a copy left in ``supply`` costing at most ``max_cost``.

    Shared by the engine (is "nothing to gain" true?) and by bots choosing arguments.
    """
    return [
        c
        for c, left in enumerate(supply)
        if left > 0 and COST[c] <= max_cost and (not treasure_only or IS_TREASURE[c])
    ]


def piles_end_game(supply: Sequence[int], rules: str = OFFICIAL) -> str | None:
    """Why these piles end the game at the end of the turn, or None.

    Public because a bot's "suicide check" asks the same question of the supply it would
    leave behind (see :mod:`arena_dominion_text.players`).
    """
    if supply[PROVINCE] == 0:
        return "the province pile is empty"
    if rules == OFFICIAL and supply.count(0) >= 3:
        empty = ", ".join(NAMES[c] for c, left in enumerate(supply) if left == 0)
        return f"three supply piles are empty: {empty}"
    return None


def final_ranks(vp: Sequence[int], turns: Sequence[int], rules: str = OFFICIAL) -> tuple[int, ...]:
    """Ranks from VP (official rules: then fewer turns); equal players share a rank."""
    if rules == OFFICIAL:
        keys = [(-v, t) for v, t in zip(vp, turns, strict=True)]
    else:
        keys = [(-v, 0) for v in vp]
    return tuple(1 + sum(k < mine for k in keys) for mine in keys)


def missing(hand: Sequence[int], cards: Sequence[int]) -> int | None:
    """The first card of ``cards`` that ``hand`` does not hold (counting copies), or None."""
    need: dict[int, int] = {}
    for c in cards:
        need[c] = need.get(c, 0) + 1
        if need[c] > hand.count(c):
            return c
    return None


class Dominion:
    """One game's state and the operations that change it.

    The list attributes are the engine's own and are read-only for callers (copying them
    for every look would cost simulations dearly): ``hands[p]``, ``decks[p]`` (top last),
    ``discards[p]`` (top last), ``owned[p][card]`` (counts over all the player's cards),
    ``in_play`` (the current player's play area), ``trash`` and ``supply`` (see
    :func:`supply_sizes`). Scalars: ``current`` and ``first`` (seats), ``phase``,
    ``actions``, ``buys``, ``coins`` (from played cards only), ``turns[p]`` (turns started),
    ``pending`` (see the module doc), ``result`` (set when the game is over).
    """

    def __init__(
        self,
        players: int,
        seed: int | None = None,
        *,
        kingdom: Iterable[int] = KINGDOM,
        curses: bool = True,
        rules: str = OFFICIAL,
        turn_cap: int | None = None,
        record_events: bool = True,
    ) -> None:
        if rules not in (OFFICIAL, COURSE):
            raise ValueError(f"rules must be {OFFICIAL!r} or {COURSE!r}, not {rules!r}")
        if turn_cap is not None and turn_cap < 1:
            raise ValueError(f"turn cap must be at least 1, not {turn_cap}")
        self.supply: list[int] = supply_sizes(players, kingdom, curses)
        self.players = players
        self.rules = rules
        self.turn_cap = turn_cap
        self.rng = random.Random(seed)
        self.record_events = record_events
        self.events: list[Event] = []
        self.trash: list[int] = []
        self.in_play: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.discards: list[list[int]] = [[] for _ in range(players)]
        self.decks: list[list[int]] = []
        self.owned: list[list[int]] = []
        self.turns: list[int] = [0] * players
        for _ in range(players):
            deck = list(STARTING_DECK)
            shuffle(self.rng, deck)
            self.decks.append(deck)
            self.owned.append(list(_STARTING_OWNED))
        for p in range(players):
            self._draw(p, HAND_SIZE)
        self.pending: list[int] = []
        """Players who still owe an answer to the attack being resolved, in turn order."""
        self.result: GameResult | None = None
        self.current = self.rng.randrange(players)
        self.first = self.current
        self.phase: str
        self.actions: int
        self.buys: int
        self.coins: int
        self._start_turn()  # sets the four above

    # -- views --------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def hand(self, player: int | None = None) -> list[int]:
        """The hand of ``player`` (default: the current player); the engine's own list."""
        return self.hands[self.current if player is None else player]

    def money_in_hand(self, player: int | None = None) -> int:
        """Coins the Treasures in hand would add: the text protocol's implicit money."""
        hand = self.hands[self.current if player is None else player]
        # The base set's three Treasures, counted in C: a pass in Python over the hand would
        # cost several times as much, and simulations ask this every turn.
        return hand.count(COPPER) + 2 * hand.count(SILVER) + 3 * hand.count(GOLD)

    def vp(self, player: int) -> int:
        """Victory points over every card the player owns."""
        return sum(map(mul, self.owned[player], VP))

    def state(self) -> tuple[object, ...]:
        """Everything the game is made of, its random generator's state included: two games
        with equal states play on identically."""
        return (
            self.hands,
            self.decks,
            self.discards,
            self.in_play,
            self.trash,
            self.supply,
            self.owned,
            self.turns,
            self.phase,
            self.current,
            self.actions,
            self.buys,
            self.coins,
            self.pending,
            self.events,
            self.rng.getstate(),
            self.result,
        )

    def drain_events(self) -> list[Event]:
        """The events since the last drain, oldest first."""
        events = self.events
        self.events = []
        return events

    # -- the current player's operations ------------------------------------------------

    def play_action(self, card: int, cards: Sequence[int] = (), gain: int | None = None) -> None:
        """Play an Action card from the hand.

        ``cards``: Cellar's discards, or the one card Mine or Remodel trashes (empty only
        when there is nothing the card could trash). ``gain``: what Mine, Remodel or
        Workshop gains (None only when nothing legal is left to gain). Other cards take no
        arguments.
        """
        self._check_action(card)
        if card == CELLAR:
            if gain is not None:
                raise IllegalMove("cellar gains nothing")
            absent = missing(self._hand_without(card), cards)
            if absent is not None:
                raise IllegalMove(f"cellar: no {name(absent)} in the hand to discard")
        elif card in GAIN_BONUS:
            self._check_trash_gain(card, self._hand_without(card), cards, gain)
        elif card == WORKSHOP:
            if cards:
                raise IllegalMove("workshop takes no cards from the hand")
            self._check_gain("workshop", gain, WORKSHOP_MAX, False)
        elif cards or gain is not None:
            raise IllegalMove(f"{name(card)} takes no arguments")
        self._play_action(card, cards, gain)

    def forfeit_action(self, card: int | None = None) -> None:
        """Use up one Action with no effect, optionally moving ``card`` to the play area.

        For protocols whose penalty for an invalid Action reply is losing the Action
        (and, if the adapter says so, the card) rather than the game.
        """
        if card is None:
            self._check_phase(ACTION)
            if self.actions < 1:
                raise IllegalMove("no actions left")
        else:
            self._check_action(card)
            self.hands[self.current].remove(card)
            self.in_play.append(card)
            self._log(EV_PLAY, self.current, (card,))
        self.actions -= 1

    def play_treasure(self, card: int) -> None:
        """Play a Treasure for its coins; no Action may follow in this turn."""
        self._check_phase(ACTION, BUY)
        if not IS_TREASURE[card]:
            raise IllegalMove(f"{name(card)} is not a treasure")
        hand = self.hands[self.current]
        if card not in hand:
            raise IllegalMove(f"no {name(card)} in the hand")
        hand.remove(card)
        self.in_play.append(card)
        self.coins += COINS[card]
        self.actions = 0
        self.phase = BUY
        self._log(EV_PLAY, self.current, (card,))

    def play_all_treasures(self) -> None:
        """Play every Treasure in hand, as a buy in the text protocol implies."""
        self.buy_cards(())

    def can_buy(self, card: int) -> str | None:
        """Why ``card`` cannot be bought now, or None if it can."""
        wrong = self._wrong_phase(ACTION, BUY)
        if wrong is not None:
            return wrong
        if self.buys < 1:
            return "no buys left"
        left = self.supply[card]
        if left < 0:
            return f"{name(card)} is not in the supply"
        if left == 0:
            return f"the {name(card)} pile is empty"
        if COST[card] > self.coins:
            return f"{name(card)} costs {COST[card]}, only {self.coins} coins"
        return None

    def buy(self, card: int) -> None:
        """Buy ``card`` with the coins of played Treasures and Actions; ends the Action phase."""
        reason = self.can_buy(card)
        if reason is not None:
            raise IllegalMove(reason)
        self.buys -= 1
        self.coins -= COST[card]
        self.actions = 0
        self.phase = BUY
        p = self.current
        self._gain(p, card, self.discards[p], EV_BUY)

    def buy_cards(self, cards: Iterable[int]) -> None:
        """Play every Treasure in hand, then buy ``cards`` left to right until one cannot be
        bought: the text protocol's ``buy`` reply, and a simulated turn's whole buy phase.

        Every simulated turn goes through here and :meth:`end_turn`, close to half of a
        simulation's work, so both work inline: one pass over the hand, no :meth:`buy` per
        card (whose refusals are worded for callers who read them), no helper calls.
        """
        if self.phase not in IN_TURN:
            raise IllegalMove(self._wrong_phase(*IN_TURN))
        p = self.current
        hand = self.hands[p]
        played = self.in_play
        start = len(played)
        kept: list[int] = []
        coins = self.coins
        for c in hand:
            if IS_TREASURE[c]:
                played.append(c)
                coins += COINS[c]
            else:
                kept.append(c)
        hand[:] = kept
        self.actions = 0
        self.phase = BUY
        record = self.record_events
        if record:
            for c in played[start:]:
                self._log(EV_PLAY, p, (c,))
        supply = self.supply
        discard = self.discards[p]
        owned = self.owned[p]
        buys = self.buys
        for card in cards:
            cost = COST[card]
            if buys < 1 or supply[card] <= 0 or cost > coins:
                break
            buys -= 1
            coins -= cost
            supply[card] -= 1
            discard.append(card)
            owned[card] += 1
            if record:
                self._log(EV_BUY, p, (card,), TO_DISCARD)
        self.buys = buys
        self.coins = coins

    def end_turn(self, top: int | None = None) -> None:
        """Clean up, then either end the game or start the next player's turn.

        ``top`` is the card (from hand or play area) left face up on the discard pile.
        Without it the engine shows the last card played, else a Victory card or Curse,
        else a Treasure, else an Action from the hand.
        """
        if self.phase not in IN_TURN:
            raise IllegalMove(self._wrong_phase(*IN_TURN))
        p = self.current
        hand = self.hands[p]
        played = self.in_play
        if top is not None and top not in hand and top not in played:
            raise IllegalMove(f"no {name(top)} in the hand or play area to put on top")
        if played or hand:
            if top is None:
                top = played[-1] if played else _show(hand)
            cleaned = played + hand
            cleaned.remove(top)
            cleaned.append(top)
            self.discards[p].extend(cleaned)
            hand.clear()
            played.clear()
            if self.record_events:
                self._log(EV_DISCARD, p, tuple(cleaned), top)
        # Every turn of a simulated game passes here, hence inline: the common draw (the deck
        # is deep enough), and a quick test that no pile is empty (an absent one is -1, so
        # only an empty pile is falsy) before asking piles_end_game.
        deck = self.decks[p]
        if len(deck) >= HAND_SIZE:
            hand += deck[: -HAND_SIZE - 1 : -1]
            del deck[-HAND_SIZE:]
        else:
            self._draw(p, HAND_SIZE)
        following = (p + 1) % self.players
        supply = self.supply
        reason = None
        if not all(supply):
            reason = piles_end_game(supply, self.rules)
        cap = self.turn_cap
        if reason is None and cap is not None and self.turns[following] >= cap:
            reason = f"turn cap of {cap} turns reached"
        if reason is not None:
            self._finish(reason)
            return
        self.current = following
        self._start_turn()

    # -- attack responses ---------------------------------------------------------------

    def reveal_moat(self, player: int) -> None:
        """``player`` reveals a Moat from hand and is unaffected by the pending attack."""
        self._check_victim(player)
        if MOAT not in self.hands[player]:
            raise IllegalMove(f"player {player} has no moat in hand")
        self.pending.remove(player)
        self._log(EV_REVEAL, player, (MOAT,))
        self._resume()

    def discard_down(self, player: int, cards: Sequence[int]) -> None:
        """``player`` discards exactly ``cards`` to keep 3; the last one ends on top."""
        self._check_victim(player)
        hand = self.hands[player]
        need = len(hand) - KEEP_AFTER_ATTACK
        if len(cards) != need:
            raise IllegalMove(
                f"player {player} must discard {need} cards to keep {KEEP_AFTER_ATTACK}, "
                f"not {len(cards)}"
            )
        absent = missing(hand, cards)
        if absent is not None:
            raise IllegalMove(f"player {player} has no {name(absent)} in hand to discard")
        for c in cards:
            hand.remove(c)
        self.discards[player].extend(cards)
        self.pending.remove(player)
        self._log(EV_DISCARD, player, tuple(cards), cards[-1])
        self._resume()

    def random_discards(self, player: int) -> list[int]:
        """A valid discard for a pending victim, chosen with the game's RNG."""
        self._check_victim(player)
        hand = self.hands[player]
        return self.rng.sample(hand, len(hand) - KEEP_AFTER_ATTACK)

    # -- internals ----------------------------------------------------------------------

    def _log(
        self, kind: str, player: int, cards: tuple[int, ...] = (), detail: int | str | None = None
    ) -> None:
        if self.record_events:
            self.events.append(Event(kind, player, cards, detail))

    def _wrong_phase(self, *phases: str) -> str | None:
        if self.phase in phases:
            return None
        if self.phase == OVER:
            return "the game is over"
        if self.phase == ATTACK:
            return "waiting for the attacked players to answer"
        return f"not in the {' or '.join(phases)} phase but the {self.phase} phase"

    def _check_phase(self, *phases: str) -> None:
        if self.phase not in phases:
            raise IllegalMove(self._wrong_phase(*phases))

    def _check_action(self, card: int) -> None:
        self._check_phase(ACTION)
        if self.actions < 1:
            raise IllegalMove("no actions left")
        if not IS_ACTION[card]:
            raise IllegalMove(f"{name(card)} is not an action card")
        if card not in self.hands[self.current]:
            raise IllegalMove(f"no {name(card)} in the hand")

    def _hand_without(self, card: int) -> list[int]:
        """A copy of the current hand less one ``card``: what an Action can act on."""
        rest = list(self.hands[self.current])
        rest.remove(card)
        return rest

    def _check_gain(
        self, what: str, gain: int | None, max_cost: int, treasure: bool, limit: str = ""
    ) -> None:
        """Is ``gain`` a legal gain costing at most ``max_cost`` (``limit`` says how that
        bound arose)? None is legal only when nothing is."""
        if gain is None:
            options = gainable(self.supply, max_cost, treasure)
            if options:
                raise IllegalMove(f"{what}: a card to gain is required, e.g. {name(options[0])}")
            return
        if treasure and not IS_TREASURE[gain]:
            raise IllegalMove(f"{what}: {name(gain)} is not a treasure")
        left = self.supply[gain]
        if left < 0:
            raise IllegalMove(f"{what}: {name(gain)} is not in the supply")
        if left == 0:
            raise IllegalMove(f"{what}: the {name(gain)} pile is empty")
        if COST[gain] > max_cost:
            raise IllegalMove(
                f"{what}: {name(gain)} costs {COST[gain]}, more than {limit or max_cost}"
            )

    def _check_trash_gain(
        self, card: int, rest: list[int], cards: Sequence[int], gain: int | None
    ) -> None:
        mine = card == MINE
        what = name(card)
        if len(cards) > 1:
            raise IllegalMove(f"{what} trashes one card, not {len(cards)}")
        if not cards:
            could = [c for c in rest if IS_TREASURE[c]] if mine else rest
            if could:
                raise IllegalMove(f"{what}: a card to trash is required, e.g. {name(could[0])}")
            if gain is not None:
                raise IllegalMove(f"{what}: nothing trashed, so nothing to gain")
            return
        old = cards[0]
        if mine and not IS_TREASURE[old]:
            raise IllegalMove(f"mine: {name(old)} is not a treasure")
        if old not in rest:
            raise IllegalMove(f"{what}: no {name(old)} in the hand to trash")
        bonus = GAIN_BONUS[card]
        limit = f"{name(old)}'s cost {COST[old]} + {bonus}"
        self._check_gain(what, gain, COST[old] + bonus, mine, limit)

    def _play_action(self, card: int, cards: Sequence[int], gain: int | None) -> None:
        p = self.current
        hand = self.hands[p]
        hand.remove(card)
        self.in_play.append(card)
        self._log(EV_PLAY, p, (card,))
        self.actions += PLUS_ACTIONS[card] - 1
        self.buys += PLUS_BUYS[card]
        self.coins += PLUS_COINS[card]
        if PLUS_CARDS[card]:
            self._draw(p, PLUS_CARDS[card])
        if card == CELLAR:
            if cards:
                for c in cards:
                    hand.remove(c)
                self.discards[p].extend(cards)
                self._log(EV_DISCARD, p, tuple(cards), cards[-1])
                self._draw(p, len(cards))
        elif card == MILITIA:
            self.pending = [
                v
                for v in (*range(p + 1, self.players), *range(p))
                if len(self.hands[v]) > KEEP_AFTER_ATTACK
            ]
            if self.pending:
                self.phase = ATTACK
        elif card in (MINE, REMODEL):
            if cards:
                old = cards[0]
                hand.remove(old)
                self.trash.append(old)
                self.owned[p][old] -= 1
                self._log(EV_TRASH, p, (old,))
            if gain is not None:
                self._gain(p, gain, hand if card == MINE else self.discards[p])
        elif card == WORKSHOP and gain is not None:
            self._gain(p, gain, self.discards[p])

    def _gain(self, p: int, card: int, pile: list[int], kind: str = EV_GAIN) -> None:
        """Move ``card`` from the supply to ``pile``; ``kind`` is :data:`EV_BUY` for a buy."""
        self.supply[card] -= 1
        pile.append(card)
        self.owned[p][card] += 1
        if self.record_events:
            self._log(kind, p, (card,), TO_HAND if pile is self.hands[p] else TO_DISCARD)

    def _check_victim(self, player: int) -> None:
        if self.phase != ATTACK:
            raise IllegalMove("no attack is waiting for an answer")
        if player not in self.pending:
            raise IllegalMove(f"player {player} is not waiting to answer the attack")

    def _resume(self) -> None:
        if not self.pending:
            self.phase = ACTION

    def _draw(self, p: int, n: int) -> None:
        """Draw ``n`` cards, in order from the top; an empty deck takes the shuffled
        discard pile mid-draw, and with both empty fewer cards are drawn."""
        deck = self.decks[p]
        hand = self.hands[p]
        if len(deck) >= n:
            hand += deck[: -n - 1 : -1]
            del deck[-n:]
            return
        hand += deck[::-1]
        n -= len(deck)
        deck.clear()
        discard = self.discards[p]
        if not discard:
            return
        # Sorted first: the order of a discard pile depends on choices a protocol exposes
        # (which card a player leaves on top), and must not steer the shuffle. So one seed
        # gives one game whichever protocol the same decisions come through.
        deck.extend(sorted(discard))
        discard.clear()
        shuffle(self.rng, deck)
        self._log(EV_SHUFFLE, p)
        n = min(n, len(deck))
        hand += deck[: -n - 1 : -1]
        del deck[-n:]

    def _start_turn(self) -> None:
        p = self.current
        self.turns[p] += 1
        self.phase = ACTION
        self.actions = 1
        self.buys = 1
        self.coins = 0
        if self.record_events:
            self._log(EV_TURN, p, (), self.turns[p])

    def _finish(self, reason: str) -> None:
        vp = tuple(self.vp(p) for p in range(self.players))
        turns = tuple(self.turns)
        ranks = final_ranks(vp, turns, self.rules)
        self.result = GameResult(vp, turns, ranks, reason, self.first)
        self.phase = OVER


_STARTING_OWNED = tuple(STARTING_DECK.count(c) for c in range(len(NAMES)))
"""``owned`` of a player at the start."""


def _show(hand: Sequence[int]) -> int:
    """The hand card shown on top of the discard pile when nothing was played: Victory
    cards and Curses first, then Treasures, then Actions (the text protocol's order)."""
    for c in hand:
        if IS_VICTORY[c] or c == CURSE:
            return c
    for c in hand:
        if IS_TREASURE[c]:
            return c
    return hand[0]


def ranks_without(ranks: Sequence[int], out: Collection[int]) -> list[int]:
    """The engine's ranks for the players still in the game, recomputed among them, and
    every player in ``out`` sharing the place below them all."""
    inside = [p for p in range(len(ranks)) if p not in out]
    final = [len(inside) + 1] * len(ranks)
    for p in inside:
        final[p] = 1 + sum(ranks[q] < ranks[p] for q in inside)
    return final


def game_outcome(game: Dominion, out: Collection[int], names: Sequence[str], why: str) -> Outcome:
    """The record of a finished (or abandoned) game: VP as scores, turns in the details,
    and the players the referee put out named after ``why``."""
    n = len(names)
    if game.result is not None:
        reason, ranks = game.result.reason, ranks_without(game.result.ranks, out)
    else:
        reason, ranks = "only one player was left in the game", ranks_without([1] * n, out)
    if out:
        reason += f"; {why}: " + ", ".join(names[p] for p in sorted(out))
    vp = [float(game.vp(p)) for p in range(n)]
    return Outcome(ranks, reason, scores=vp, details={"turns": list(game.turns)})
