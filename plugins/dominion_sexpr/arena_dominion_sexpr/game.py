"""The referee of Matthew Flatt's S-expression Dominion protocol, v1 to v3, over THE
Dominion engine of the ``arena-dominion-text`` distribution.

A turn is a conversation: ``(move state)`` goes to the current player, which answers one
play; the state is sent again until the play is ``(clean)`` or ``(clean card)``. Every
legal play is shown to the other players as ``(moved name play)``. v3's Militia asks each
victim ``(attacked (act militia) name state)``, answered by ``(moat)`` or ``(discard ...)``,
and shows the answer to the others as ``(defended name defense)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arena_dominion import cards
from arena_dominion.cards import (
    CELLAR,
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
from arena_dominion.engine import ATTACK, COURSE, OFFICIAL, Dominion, IllegalMove
from arena_dominion.outcome import game_outcome
from arena_dominion.strategies import DEFAULT_TURN_CAP

from kernel.codecs.sexpr import Symbol
from kernel.games.base import BuiltinBot, Game, Option, Outcome
from kernel.referee.clocks import Clocks
from kernel.referee.faults import FaultKind

if TYPE_CHECKING:
    from kernel.referee.table import Table

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


def sym(*words: str) -> list[Symbol]:
    return [Symbol(w) for w in words]


def card_list(head: str, card_ids: Sequence[int]) -> list[Any]:
    return [Symbol(head), *(Symbol(cards.name(c)) for c in card_ids)]


class DominionSexpr(Game):
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
            OFFICIAL,
            "official (Province pile or three piles; fewer turns break ties) or course "
            "(the course server: Province pile only, equal VP share the win)",
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

    async def play(self, table: Table, seed: int) -> Outcome:
        return await SexprMatch(table, seed, self.config).run()


class SexprMatch:
    """One game: the engine, who is still in it, and the protocol's messages."""

    def __init__(self, table: Table, seed: int, config: dict[str, Any]) -> None:
        version = config["version"]
        self.table = table
        self.version = version
        self.lose_on_bad_play = config["bad_play"] == "lose"
        self.kingdom = KINGDOMS[version]
        self.game = Dominion(
            len(table),
            seed,
            kingdom=self.kingdom,
            curses=version > 1,
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
                self.apply(seat, reply.message)
            except BadPlay as exc:
                self.table.fault(seat, FaultKind.ILLEGAL, str(exc))
                if self.lose_on_bad_play:
                    self.put_out(seat, str(exc))
                game.end_turn()
                return
            if self.table.alive(seat):
                others = [s for s in range(len(self.table)) if s != seat]
                self.table.broadcast(
                    [Symbol("moved"), Symbol(SEAT_NAMES[seat]), reply.message], others
                )
            if game.phase == ATTACK:
                await self.attack(seat)

    # -- plays ---------------------------------------------------------------------------

    def apply(self, seat: int, play: Any) -> None:
        """Carry out one play; :class:`BadPlay` says which play and why it is not legal."""
        words = _words(play)
        game = self.game
        try:
            if words[0] == "act" and len(words) >= 2:
                self.act(words[1], words[2:])
            elif words[0] == "add" and len(words) == 2:
                game.play_treasure(self.card(words[1]))
            elif words[0] == "buy" and len(words) == 2:
                game.buy(self.card(words[1]))
            elif words[0] == "clean" and len(words) == 1:
                if game.hand(seat):
                    raise BadPlay("(clean) with cards in hand: name one, (clean card)")
                game.end_turn()
            elif words[0] == "clean" and len(words) == 2:
                top = self.card(words[1])
                if top not in game.hand(seat):
                    raise BadPlay(f"(clean {words[1]}): no {words[1]} in hand")
                game.end_turn(top)
            else:
                raise BadPlay(f"not a play of version {self.version}: {_show(play)}")
        except IllegalMove as exc:
            raise BadPlay(f"{_show(play)}: {exc}") from None

    def act(self, name: str, args: list[str]) -> None:
        card = self.card(name)
        if card not in self.kingdom:
            raise BadPlay(f"(act {name}) is not in version {self.version}")
        named = [self.card(a) for a in args]
        if card == CELLAR:
            self.game.play_action(CELLAR, named)
        elif card in (MINE, REMODEL):
            if len(named) != 2:
                raise BadPlay(f"(act {name} ...) names the card to trash and the card to gain")
            self.game.play_action(card, named[:1], named[1])
        elif card == WORKSHOP:
            if len(named) != 1:
                raise BadPlay("(act workshop ...) names the one card to gain")
            self.game.play_action(WORKSHOP, (), named[0])
        else:
            if named:
                raise BadPlay(f"(act {name}) takes no cards")
            self.game.play_action(card)

    def card(self, word: str) -> int:
        card = cards.lookup(word)
        if card is None:
            raise BadPlay(f"{word} is not a card")
        return card

    # -- v3 attacks ----------------------------------------------------------------------

    async def attack(self, attacker: int) -> None:
        """Each victim in turn order answers ``(attacked (act militia) name state)``."""
        game = self.game
        for victim in list(game.pending):
            defense = await self.defend(attacker, victim)
            others = [s for s in range(len(self.table)) if s != victim]
            self.table.broadcast([Symbol("defended"), Symbol(SEAT_NAMES[victim]), defense], others)

    async def defend(self, attacker: int, victim: int) -> list[Any]:
        game = self.game
        if victim not in self.out:
            request = [
                Symbol("attacked"),
                sym("act", "militia"),
                Symbol(SEAT_NAMES[attacker]),
                self.state(victim),
            ]
            reply = await self.table.ask(victim, request)
            problem = None
            if not reply.ok:
                problem = f"no defense: {reply.fault}"
            else:
                words = _words(reply.message)
                try:
                    if words == ["moat"]:
                        game.reveal_moat(victim)
                        return sym("moat")
                    if words[:1] == ["discard"]:
                        chosen = [self.card(w) for w in words[1:]]
                        game.discard_down(victim, chosen)
                        return card_list("discard", chosen)
                    problem = f"not a defense: {_show(reply.message)}"
                except (IllegalMove, BadPlay) as exc:
                    problem = f"{_show(reply.message)}: {exc}"
            if reply.ok:
                self.table.fault(victim, FaultKind.ILLEGAL, problem)
            if self.lose_on_bad_play or not reply.ok:
                self.put_out(victim, problem)
        chosen = game.random_discards(victim)
        game.discard_down(victim, chosen)
        return card_list("discard", chosen)

    # -- the state snapshot --------------------------------------------------------------

    def state(self, seat: int) -> list[Any]:
        """``seat``'s view: players from the current one, every supply copy, the trash top
        first, the turn's counters, its own sorted deck, hand, the play area, discards."""
        game = self.game
        n = len(self.table)
        order = [(game.current + i) % n for i in range(n)]
        supply: list[Any] = [Symbol("supply")]
        for card in range(len(game.supply)):
            supply.extend([Symbol(cards.name(card))] * max(game.supply[card], 0))
        return [
            [Symbol("players"), *(Symbol(SEAT_NAMES[p]) for p in order)],
            supply,
            card_list("trash", list(reversed(game.trash))),
            [Symbol("actions"), game.actions],
            [Symbol("buys"), game.buys],
            [Symbol("coins"), game.coins],
            card_list("deck", sorted(game.decks[seat], key=cards.name)),
            card_list("hand", game.hand(seat)),
            card_list("plays", game.in_play if seat == game.current else []),
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
    """A play as its words: a non-empty list of symbols; anything else is a bad play."""
    if not isinstance(datum, list) or not datum or not all(isinstance(w, Symbol) for w in datum):
        raise BadPlay(f"not a play: {_show(datum)}")
    return [str(w).lower() for w in datum]


def _show(datum: Any) -> str:
    if isinstance(datum, list):
        return "(" + " ".join(_show(d) for d in datum) + ")"
    return str(datum)
