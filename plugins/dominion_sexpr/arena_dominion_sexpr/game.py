"""The referee of Matthew Flatt's S-expression Dominion protocol, v1 to v3, over THE
Dominion engine of the ``arena-dominion-text`` distribution.

A turn is a conversation: ``(move state)`` goes to the current player, which answers one
play; the state is sent again until the play is ``(clean)`` or ``(clean card)``. Every
legal play is shown to the other players as ``(moved name play)``, spelled as the grammar
spells it. v3's Militia asks every other player in turn order
``(attacked (act militia) name state)``, answered by ``(moat)`` or ``(discard ...)``; once all
have answered, each answer is shown to the others as ``(defended name defense)``.

``rules = "course"`` (the default) reproduces the course's reference server where it
differs from the official rules: no Curse pile in any version, case-sensitive plays, and
from v2 on an ``(add treasure)`` needs a buy left (this module's part), the game ending
only with the Province pile and equal VP sharing the win (the engine's part).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arena_dominion import cards
from arena_dominion.cards import (
    CELLAR,
    CURSE,
    MARKET,
    MILITIA,
    MINE,
    MOAT,
    REMODEL,
    SMITHY,
    VILLAGE,
    WOODCUTTER,
    WORKSHOP,
)
from arena_dominion.engine import COURSE, OFFICIAL, Dominion, IllegalMove
from arena_dominion.outcome import game_outcome
from arena_dominion.strategies import DEFAULT_TURN_CAP
from arena_kernel.plugin import BuiltinBot, Clocks, FaultKind, Game, Option, Outcome, Symbol

if TYPE_CHECKING:
    from arena_kernel.plugin import Table

KINGDOMS = {
    1: (MINE,),
    2: (MINE, CELLAR, MARKET, REMODEL, SMITHY, VILLAGE, WOODCUTTER, WORKSHOP),
    3: (MINE, CELLAR, MARKET, REMODEL, SMITHY, VILLAGE, WOODCUTTER, WORKSHOP, MILITIA, MOAT),
}
"""The kingdom of each protocol version: v1 is Mine only, v2 adds seven actions, v3 the
attack and its reaction."""

SEAT_NAMES = ("playera", "playerb", "playerc", "playerd")
"""The grammar's names are letters only."""


class BadPlay(Exception):
    """A reply that is not a datum of the grammar, or a play the rules forbid now."""


def has_curses(version: int, rules: str) -> bool:
    """Whether a game has a Curse pile: from version 2 on, under the official rules only."""
    return version > 1 and rules != COURSE


def sym(*words: str) -> list[Symbol]:
    return [Symbol(w) for w in words]


MILITIA_PLAY = sym("act", "militia")
"""The one attack of the protocol: every other player answers it, whatever its hand."""


def card_list(head: str, card_ids: Sequence[int]) -> list[Any]:
    return [Symbol(head), *(Symbol(cards.name(c)) for c in card_ids)]


class DominionSexpr(Game[None]):
    name = "dominion_sexpr"
    summary = "Dominion, S-expression protocol ((move state) / (moved name play)), v1-v3"
    seats = (2, 3, 4)
    codec = "sexpr"
    transport = "stdio"
    clocks = Clocks(startup=10.0, reply=3.0, grace=0.1)
    options = {
        "version": Option(
            1,
            "protocol version: 1 (Mine only), 2 (+7 actions), 3 (+Militia, Moat)",
            choices=(1, 2, 3),
        ),
        "rules": Option(
            COURSE,
            "course (the course server: no curses, case-sensitive plays, add needs a buy "
            "from v2 on, Province pile only, equal VP share the win) or official (curses "
            "from v2 on, Province pile or three piles, fewer turns break ties)",
            choices=(OFFICIAL, COURSE),
        ),
        "turn_cap": Option(
            DEFAULT_TURN_CAP, "end the game after this many turns per player", minimum=1
        ),
        "bad_play": Option(
            "lose",
            "a reply that is not a legal play: the bot loses the game (lose), or only its turn "
            "ends (end-turn)",
            choices=("lose", "end-turn"),
        ),
    }
    bots = {
        "random": BuiltinBot.from_module("random legal plays", "arena_dominion_sexpr.bots.random"),
        "bigmoney": BuiltinBot.from_module("Big Money", "arena_dominion_sexpr.bots.bigmoney"),
        "mine": BuiltinBot.from_module(
            "Big Money with a Mine that upgrades treasures (v1)", "arena_dominion_sexpr.bots.mine"
        ),
        "smithy": BuiltinBot.from_module(
            "Smithy Big Money (v2, v3)", "arena_dominion_sexpr.bots.smithy"
        ),
        "militia": BuiltinBot.from_module(
            "Militia Big Money (v3)", "arena_dominion_sexpr.bots.militia"
        ),
    }

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        return await SexprMatch(table, seed, self.config).run()


class SexprMatch:
    """One game: the engine, who is still in it, and the protocol's messages."""

    def __init__(self, table: Table, seed: int, config: dict[str, Any]) -> None:
        version = config["version"]
        self.table = table
        self.version = version
        self.course = config["rules"] == COURSE
        """The course server's protocol rules: case-sensitive plays, no curses, and from
        v2 on no ``add`` without a buy."""
        self.lose_on_bad_play = config["bad_play"] == "lose"
        self.kingdom = KINGDOMS[version]
        curses = has_curses(version, config["rules"])
        self.no_curses = (
            None
            if curses
            else "no version of the course protocol has curses"
            if self.course
            else "version 1 has no curses"
        )
        """Why ``curse`` is not a card of this game (None when it is one)."""
        self.game = Dominion(
            len(table),
            seed,
            kingdom=self.kingdom,
            curses=curses,
            rules=config["rules"],
            turn_cap=config["turn_cap"],
            record_events=False,
        )
        self.out: set[int] = set()

    async def run(self) -> Outcome:
        game = self.game
        while not game.over and len(self.table) - len(self.out) > 1:
            seat = game.current
            if seat in self.out:
                game.end_turn()
            else:
                await self.turn(seat)
        return self.outcome()

    async def turn(self, seat: int) -> None:
        game = self.game
        while not game.over and game.current == seat:
            reply = await self.table.ask(seat, [Symbol("move"), self.state(seat)])
            if not reply.ok:
                self.put_out(seat, f"no play: {reply.fault}")
                game.end_turn()
                return
            try:
                play = self.apply(seat, reply.message)
            except BadPlay as exc:
                self.table.fault(seat, FaultKind.ILLEGAL, str(exc))
                if self.lose_on_bad_play:
                    self.put_out(seat, str(exc))
                game.end_turn()
                return
            if self.table.alive(seat):
                others = [s for s in range(len(self.table)) if s != seat]
                self.table.broadcast([Symbol("moved"), Symbol(SEAT_NAMES[seat]), play], others)
            if play == MILITIA_PLAY:
                await self.attack(seat)

    # -- plays ---------------------------------------------------------------------------

    def apply(self, seat: int, play: Any) -> list[Symbol]:
        """Carry out one play and return it as the grammar spells it, for the others (never
        the bot's own spelling); :class:`BadPlay` names the play and why it is not legal."""
        words = self.words(play)
        try:
            self.carry_out(seat, words)
        except (BadPlay, IllegalMove) as exc:
            raise BadPlay(f"{_show(play)}: {exc}") from None
        return sym(*words)

    def carry_out(self, seat: int, words: list[str]) -> None:
        game = self.game
        if words[0] == "act" and len(words) >= 2:
            self.act(words[1], words[2:])
        elif words[0] == "add" and len(words) == 2:
            if self.course and self.version > 1 and game.buys < 1:
                raise BadPlay(
                    "no buys left (from version 2 on, the course rules add a treasure only "
                    "while a buy is left)"
                )
            game.play_treasure(self.card(words[1]))
        elif words[0] == "buy" and len(words) == 2:
            game.buy(self.card(words[1]))
        elif words[0] == "clean" and len(words) == 1:
            if game.hand(seat):
                raise BadPlay("cards in hand: name the one to expose, (clean card)")
            game.end_turn()
        elif words[0] == "clean" and len(words) == 2:
            top = self.card(words[1])
            if top not in game.hand(seat):
                raise BadPlay(f"no {words[1]} in hand")
            game.end_turn(top)
        else:
            raise BadPlay(f"not a play of version {self.version}")

    def words(self, datum: Any) -> list[str]:
        """A play or a defence as its lower-case words. The course server read Racket
        symbols, which are case-sensitive, so under the course rules ``(ADD COPPER)`` is not
        a play; the official rules read any letter case."""
        words = _words(datum)
        if not self.course:
            return [w.lower() for w in words]
        if any(w != w.lower() for w in words):
            raise BadPlay(
                f"not a play: {_show(datum)} (the course rules read case-sensitive symbols, "
                "and the protocol's are lower case)"
            )
        return words

    def act(self, name: str, args: list[str]) -> None:
        card = self.card(name)
        if card not in self.kingdom:
            raise BadPlay(f"{name} is not a kingdom card of version {self.version}")
        named = [self.card(a) for a in args]
        if card == CELLAR:
            self.game.play_action(CELLAR, named)
        elif card in (MINE, REMODEL):
            if len(named) != 2:
                raise BadPlay(f"{name} names the card to trash and the card to gain")
            self.game.play_action(card, named[:1], named[1])
        elif card == WORKSHOP:
            if len(named) != 1:
                raise BadPlay("workshop names the one card to gain")
            self.game.play_action(WORKSHOP, (), named[0])
        else:
            if named:
                raise BadPlay(f"{name} takes no cards")
            self.game.play_action(card)

    def card(self, word: str) -> int:
        card = cards.lookup(word)
        if card is None:
            raise BadPlay(f"{word} is not a card")
        if card == CURSE and self.no_curses:
            raise BadPlay(f"curse is not a card of this game: {self.no_curses}")
        return card

    # -- v3 attacks ----------------------------------------------------------------------

    async def attack(self, attacker: int) -> None:
        """The course server's order: every other player, in turn order, answers
        ``(attacked (act militia) name state)`` (a hand of 3 or fewer too: it discards
        nothing); only then is each answer shown to every process but its victim."""
        n = len(self.table)
        victims = [(attacker + i) % n for i in range(1, n)]
        defenses = [await self.defend(attacker, victim) for victim in victims]
        for victim, defense in zip(victims, defenses, strict=True):
            exposed = defense[:2]  # (moat), (discard), or (discard card): the card on top
            others = [s for s in range(n) if s != victim]
            self.table.broadcast([Symbol("defended"), Symbol(SEAT_NAMES[victim]), exposed], others)

    async def defend(self, attacker: int, victim: int) -> list[Any]:
        """The victim's defence as carried out: ``(moat)`` or ``(discard card ...)``, the
        exposed card first. No answer or a bad one: the engine picks the discards."""
        if victim not in self.out:
            request = [
                Symbol("attacked"),
                MILITIA_PLAY,
                Symbol(SEAT_NAMES[attacker]),
                self.state(victim),
            ]
            reply = await self.table.ask(victim, request)
            if not reply.ok:
                self.put_out(victim, f"no defense: {reply.fault}")
            else:
                try:
                    return self.take_defense(victim, reply.message)
                except BadPlay as exc:
                    self.table.fault(victim, FaultKind.ILLEGAL, str(exc))
                    if self.lose_on_bad_play:
                        self.put_out(victim, str(exc))
        chosen = self.game.random_discards(victim) if victim in self.game.pending else []
        return self.discard(victim, chosen)

    def take_defense(self, victim: int, answer: Any) -> list[Any]:
        """Carry out ``(moat)`` or ``(discard card ...)``; :class:`BadPlay` says why not.

        The engine waits only for hands of more than 3 cards; a smaller hand may reveal a
        Moat it holds or discard nothing, and neither changes the game."""
        words = self.words(answer)
        try:
            return self.carry_out_defense(victim, words)
        except (BadPlay, IllegalMove) as exc:
            raise BadPlay(f"{_show(answer)}: {exc}") from None

    def carry_out_defense(self, victim: int, words: list[str]) -> list[Any]:
        game = self.game
        hand = game.hand(victim)
        if words == ["moat"]:
            if MOAT not in hand:
                raise BadPlay("no moat in hand")
            if victim in game.pending:
                game.reveal_moat(victim)
            return sym("moat")
        if words[0] == "discard":
            chosen = [self.card(w) for w in words[1:]]
            if victim not in game.pending and chosen:
                raise BadPlay(f"a hand of {len(hand)} cards keeps them all: answer (discard)")
            return self.discard(victim, chosen)
        raise BadPlay("not a defense: answer (moat) or (discard card ...)")

    def discard(self, victim: int, chosen: list[int]) -> list[Any]:
        """Discard ``chosen`` (nothing for a hand the engine does not wait for) leaving its
        first card on top of the pile, exposed, as the course server did."""
        if victim in self.game.pending:
            self.game.discard_down(victim, chosen[::-1])
        return card_list("discard", chosen)

    # -- the state snapshot --------------------------------------------------------------

    def state(self, seat: int) -> list[Any]:
        """``seat``'s view: players from ``seat`` on (bots learn their own name from it),
        every supply copy, the trash top first, the turn's counters and play area (zeros
        and none for a victim of an attack, whose turn it is not), its own sorted deck,
        hand and discards (top first)."""
        game = self.game
        n = len(self.table)
        own_turn = seat == game.current
        supply: list[Any] = [Symbol("supply")]
        for card in range(len(game.supply)):
            supply.extend([Symbol(cards.name(card))] * max(game.supply[card], 0))
        return [
            [Symbol("players"), *(Symbol(SEAT_NAMES[(seat + i) % n]) for i in range(n))],
            supply,
            card_list("trash", list(reversed(game.trash))),
            [Symbol("actions"), game.actions if own_turn else 0],
            [Symbol("buys"), game.buys if own_turn else 0],
            [Symbol("coins"), game.coins if own_turn else 0],
            card_list("deck", sorted(game.decks[seat], key=cards.name)),
            card_list("hand", game.hand(seat)),
            card_list("plays", game.in_play if own_turn else []),
            card_list("discards", list(reversed(game.discards[seat]))),
        ]

    # -- the end -------------------------------------------------------------------------

    def put_out(self, seat: int, why: str) -> None:
        if seat not in self.out:
            self.out.add(seat)
            self.table.note(f"{SEAT_NAMES[seat]} loses the game: {why}")

    def outcome(self) -> Outcome:
        players = SEAT_NAMES[: len(self.table)]
        return game_outcome(self.game, self.out, players, "lost by a bad play or no answer")


def _words(datum: Any) -> list[str]:
    """A play as its words, as spelled: a non-empty list of symbols; anything else is a
    bad play."""
    if not isinstance(datum, list) or not datum or not all(isinstance(w, Symbol) for w in datum):
        raise BadPlay(f"not a play: {_show(datum)}")
    return [str(w) for w in datum]


def _show(datum: Any) -> str:
    if isinstance(datum, list):
        return "(" + " ".join(_show(d) for d in datum) + ")"
    return str(datum)
