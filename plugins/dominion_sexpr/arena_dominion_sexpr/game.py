"""The referee of Matthew Flatt's S-expression Dominion protocol, v1 to v3, over THE
Dominion engine of the ``arena-dominion-text`` distribution (:mod:`arena_dominion_text.rules`).

A turn is a conversation: ``(move state)`` goes to the current player, which answers one
play; the state is sent again until the play is ``(clean)`` or ``(clean card)``. Every
legal play is shown to the other players as ``(moved name play)``, spelled as the grammar
spells it. v3's Militia asks every other player in turn order
``(attacked (act militia) name state)``, answered by ``(moat)`` or ``(discard ...)``; once all
have answered, each answer is shown to the others as ``(defended name defense)``.

``rules = "course"`` (the default) reproduces the course's reference server where it
differs from the official rules (see :mod:`arena_dominion_sexpr.rules`), and reads plays
as case-sensitive symbols.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena_dominion_sexpr.rules import KINGDOMS, add_needs_a_buy, has_curses, why_no_curses
from arena_dominion_sexpr.wire import (
    MILITIA_PLAY,
    SEAT_NAMES,
    BadPlay,
    card_list,
    play_words,
    show,
    state,
    sym,
)
from arena_dominion_text import cards
from arena_dominion_text.cards import CELLAR, CURSE, MINE, MOAT, REMODEL, WORKSHOP
from arena_dominion_text.rules import (
    COURSE,
    DEFAULT_TURN_CAP,
    OFFICIAL,
    Dominion,
    IllegalMove,
    game_outcome,
)
from arena_kernel.plugin import BuiltinBot, Clocks, FaultKind, Game, Option, Outcome, Symbol

if TYPE_CHECKING:
    from arena_kernel.plugin import Table


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
        return await Referee(table, seed, self.config).run()


class Referee:
    """One game: the engine, who is still in it, and the protocol's messages."""

    def __init__(self, table: Table, seed: int, config: dict[str, Any]) -> None:
        version = config["version"]
        self.table = table
        self.version = version
        rules = config["rules"]
        self.case_sensitive = rules == COURSE
        """The course server read plays as Racket symbols, which are case-sensitive."""
        self.add_needs_a_buy = add_needs_a_buy(version, rules)
        self.lose_on_bad_play = config["bad_play"] == "lose"
        self.kingdom = KINGDOMS[version]
        self.no_curses = why_no_curses(version, rules)
        """Why ``curse`` is not a card of this game (None when it is one)."""
        self.game = Dominion(
            len(table),
            seed,
            kingdom=self.kingdom,
            curses=has_curses(version, rules),
            rules=rules,
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
            reply = await self.table.ask(seat, [Symbol("move"), state(self.game, seat)])
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
        words = self.read(play)
        try:
            self.carry_out(seat, words)
        except (BadPlay, IllegalMove) as exc:
            raise BadPlay(f"{show(play)}: {exc}") from None
        return sym(*words)

    def carry_out(self, seat: int, words: list[str]) -> None:
        game = self.game
        if words[0] == "act" and len(words) >= 2:
            self.act(words[1], words[2:])
        elif words[0] == "add" and len(words) == 2:
            if self.add_needs_a_buy and game.buys < 1:
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

    def read(self, datum: Any) -> list[str]:
        """A play or a defence as its lower-case words, read as this game's rules read."""
        return play_words(datum, self.case_sensitive)

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
                state(self.game, victim),
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
        words = self.read(answer)
        try:
            return self.carry_out_defense(victim, words)
        except (BadPlay, IllegalMove) as exc:
            raise BadPlay(f"{show(answer)}: {exc}") from None

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

    # -- the end -------------------------------------------------------------------------

    def put_out(self, seat: int, why: str) -> None:
        if seat not in self.out:
            self.out.add(seat)
            self.table.note(f"{SEAT_NAMES[seat]} loses the game: {why}")

    def outcome(self) -> Outcome:
        players = SEAT_NAMES[: len(self.table)]
        return game_outcome(self.game, self.out, players, "lost by a bad play or no answer")
