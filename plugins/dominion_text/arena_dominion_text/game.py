"""The referee of the Dominion line protocol (``dominion_text.txt``) over the shared engine.

Each seat is ``player1``..``player4``. The protocol's rules for bad replies are applied as
the spec writes them: an invalid reply to ``play-turn`` with an Action left consumes that
Action (and the card, when it was one in hand) and the request is sent again; with no
Action left the turn ends; an invalid answer to a Militia attack gets a discard chosen at
random by the engine; a bot that does not respond (timeout, exit) or does not confirm the
protocol version is disqualified: it gets no more messages, takes no more turns, ranks
below every other player, and the game ends when only one player is left in it. What
makes a reply invalid is :mod:`arena_dominion_text.wire`'s to say.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from arena_dominion_text import cards
from arena_dominion_text.cards import CELLAR, GAIN_BONUS, KEEP_AFTER_ATTACK, KINGDOM, MOAT, WORKSHOP
from arena_dominion_text.rules import (
    ATTACK,
    DEFAULT_TURN_CAP,
    EV_BUY,
    EV_DISCARD,
    EV_GAIN,
    EV_PLAY,
    EV_REVEAL,
    EV_TRASH,
    Dominion,
    Event,
    IllegalMove,
    game_outcome,
)
from arena_dominion_text.wire import (
    VERSION,
    Invalid,
    action_arguments,
    action_card,
    attack_request,
    bought_cards,
    cellar_discards,
    extra_words,
    names,
    play_turn_request,
    seat_name,
    supply_line,
)
from arena_kernel.plugin import BuiltinBot, Clocks, FaultKind, Game, Option, Outcome

if TYPE_CHECKING:
    from arena_kernel.plugin import Reply, Table


class DominionText(Game[None]):
    name = "dominion_text"
    summary = "Dominion, line protocol (play-request / play-reply), 2-4 players"
    seats = (2, 3, 4)
    codec = "line"
    transport = "stdio"
    clocks = Clocks(startup=10.0, reply=3.0, grace=0.1)
    options = {
        "turn_cap": Option(
            DEFAULT_TURN_CAP,
            "end the game after this many turns per player (recorded as the reason)",
            minimum=1,
        ),
    }
    bots = {
        "random": BuiltinBot.from_module("random legal choices", "arena_dominion_text.bots.random"),
        "bigmoney": BuiltinBot.from_module(
            "Big Money: Province, Gold, Silver", "arena_dominion_text.bots.bigmoney"
        ),
        "bmu": BuiltinBot.from_module("Big Money Ultimate", "arena_dominion_text.bots.bmu"),
        "smithy": BuiltinBot.from_module("Smithy Big Money", "arena_dominion_text.bots.smithy"),
        "militia": BuiltinBot.from_module(
            "Dominiate's DoubleMilitia: BMU plus up to 2 Militias, always played",
            "arena_dominion_text.bots.militia",
        ),
    }

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        return await Referee(table, seed, self.config["turn_cap"]).run()


class Referee:
    """One game: the engine, the seats still in it, and the protocol's messages."""

    def __init__(self, table: Table, seed: int, turn_cap: int) -> None:
        self.table = table
        self.game = Dominion(len(table), seed, turn_cap=turn_cap)
        self.out: set[int] = set()
        self.turn_seat = self.game.current
        self.turn_gained: list[int] = []
        self.turn_played: list[int] = []

    # -- the game --------------------------------------------------------------------------

    async def run(self) -> Outcome:
        for seat in range(len(self.table)):
            await self.handshake(seat)
        self.tell(f"game kingdom-cards {names(KINGDOM)}")
        game = self.game
        while not game.over and len(self.table) - len(self.out) > 1:
            await self.turn(game.current)
        return self.outcome()

    async def handshake(self, seat: int) -> None:
        me = seat_name(seat)
        # The kernel puts this first request on the start-up clock.
        reply = await self.table.ask(seat, f"player {me} name")
        if not reply.ok:
            return self.disqualify(seat, f"no answer to the name request: {reply.fault}")
        words = reply.message.split()
        name = " ".join(words[2:]) if words[:2] == ["player", me] and len(words) > 2 else me.upper()
        self.table.note(f"{me} is {name}")
        line = f"player {me} version {VERSION}"
        reply = await self.table.ask(seat, line, clock="startup")  # still the handshake
        if not reply.ok:
            return self.disqualify(seat, f"no answer to the version request: {reply.fault}")
        if reply.message.strip() != line:
            self.table.fault(
                seat, FaultKind.ILLEGAL, f"did not confirm version {VERSION}: {reply.message!r}"
            )
            return self.disqualify(seat, f"does not support version {VERSION}")

    async def turn(self, seat: int) -> None:
        game = self.game
        self.turn_seat = seat
        self.turn_gained, self.turn_played = [], []
        if seat in self.out:
            game.end_turn()
            game.drain_events()
            return
        self.tell(supply_line(game.supply))
        while True:
            request = play_turn_request(game.actions, game.buys, game.coins, game.hand())
            reply = await self.table.ask(seat, request)
            if not reply.ok:
                self.disqualify(seat, f"no answer to play-turn: {reply.fault}")
                break
            try:
                ends_turn = self.apply(reply.message)
            except Invalid as exc:
                ends_turn = self.penalize(seat, exc.reason, exc.card)
            await self.resolve_attack()
            self.announce(game.drain_events())
            if ends_turn:
                break
        self.end_turn(seat)

    def end_turn(self, seat: int) -> None:
        game = self.game
        game.end_turn()
        me = seat_name(seat)
        if self.turn_gained:
            self.tell(f"{me} gained {names(self.turn_gained)}")
        if self.turn_played:
            self.tell(f"{me} played {names(self.turn_played)}")
        self.announce(game.drain_events())

    # -- replies to play-turn ----------------------------------------------------------------

    def apply(self, message: str) -> bool:
        """Carry out one play-turn reply; True when it ends the turn."""
        words = message.split()
        if words[:1] != ["play-reply"] or len(words) < 2:
            raise Invalid(f"not a play-reply: {message!r}")
        kind, args = words[1], words[2:]
        if kind == "pass":
            if args:
                raise Invalid(extra_words(words, 2))
            return True
        if kind == "buy":
            # Left to right while buys and coins allow; the first card that cannot be bought
            # ends the buying (and the turn).
            self.game.buy_cards(bought_cards(args))
            return True
        if kind == "action" or (kind == "reply" and args[:1] == ["workshop"]):
            if self.game.actions < 1:
                return True
            self.action(words)
            return False
        raise Invalid(f"unknown play-reply {kind!r}")

    def action(self, words: Sequence[str]) -> None:
        """``play-reply action <card> [args]`` (or ``play-reply reply workshop <card>``)."""
        card = action_card(words)
        if card == CELLAR:
            return self.cellar(words[3:])
        args = action_arguments(words, card)
        try:
            if card in GAIN_BONUS:
                self.game.play_action(card, args[:1], args[1] if len(args) > 1 else None)
            elif card == WORKSHOP:
                self.game.play_action(WORKSHOP, (), args[0] if args else None)
            else:
                self.game.play_action(card)
        except IllegalMove as exc:
            raise Invalid(str(exc), card) from None

    def cellar(self, words: Sequence[str]) -> None:
        """The spec's Cellar: discard the named cards up to the first word that is not a
        card left in the hand; naming none of them is an invalid reply. A list cut short is
        what the spec says Cellar does, not a fault: the replay notes the cut, so the bot's
        author learns of it."""
        game = self.game
        if CELLAR not in game.hand():
            raise Invalid("no cellar in the hand")
        discards, stop = cellar_discards(game.hand(), words)
        if not discards:
            raise Invalid(f"cellar: {stop or 'no card named'}, so nothing to discard", CELLAR)
        if stop is not None:
            self.table.note(
                f"{seat_name(self.turn_seat)}: cellar: {stop}; "
                f"discarded only the cards before it: {names(discards)}"
            )
        game.play_action(CELLAR, discards)

    def penalize(self, seat: int, reason: str, card: int | None = None) -> bool:
        """The spec's rule for an invalid play-turn reply; True when the turn ends."""
        game = self.game
        self.table.fault(seat, FaultKind.ILLEGAL, reason)
        if game.actions < 1:
            return True
        played = card is not None and card in game.hand() and cards.IS_ACTION[card]
        game.forfeit_action(card if played else None)
        return False

    # -- attacks ---------------------------------------------------------------------------

    async def resolve_attack(self) -> None:
        """Every victim of a Militia is asked at once, within one deadline."""
        game = self.game
        if game.phase != ATTACK:
            return
        victims = list(game.pending)
        asked = [v for v in victims if v not in self.out]
        replies = await self.table.ask_many(
            {v: attack_request(len(game.hand(v)) - KEEP_AFTER_ATTACK, game.hand(v)) for v in asked}
        )
        for victim in victims:
            reply = replies.get(victim)
            if reply is not None and not reply.ok:
                self.disqualify(victim, f"no answer to the attack: {reply.fault}")
                reply = None
            self.answer_attack(victim, reply)

    def answer_attack(self, victim: int, reply: Reply | None) -> None:
        game = self.game
        words = reply.message.split() if reply is not None else []
        if words == ["play-reply", "reaction", "moat"]:
            if MOAT in game.hand(victim):
                game.reveal_moat(victim)
                return
            self.table.fault(victim, FaultKind.ILLEGAL, "reacted with a moat it does not hold")
        elif words[:2] == ["play-reply", "discard"]:
            chosen = [cards.lookup(w) for w in words[2:]]
            if None in chosen:
                detail = f"unknown card in the discard: {reply.message!r}"  # type: ignore[union-attr]
                self.table.fault(victim, FaultKind.ILLEGAL, detail)
            else:
                try:
                    game.discard_down(victim, chosen)  # type: ignore[arg-type]
                    return
                except IllegalMove as exc:
                    self.table.fault(victim, FaultKind.ILLEGAL, str(exc))
        elif reply is not None:
            self.table.fault(victim, FaultKind.ILLEGAL, f"not a discard or moat: {reply.message!r}")
        game.discard_down(victim, game.random_discards(victim))

    # -- broadcasts ------------------------------------------------------------------------

    def announce(self, events: list[Event]) -> None:
        """Turn engine events into the protocol's informational lines.

        ``top-discard`` names the card on top of the pile when it is sent, not the one the
        discard left there: the draw that follows a discard (clean-up, Cellar) may have
        shuffled the pile into the deck, and then the line is bare, as the spec writes an
        empty pile."""
        for event in events:
            who = seat_name(event.player)
            if event.kind == EV_PLAY:
                self.turn_played.extend(event.cards)
            elif event.kind in (EV_BUY, EV_GAIN):
                self.turn_gained.extend(event.cards)
            elif event.kind == EV_TRASH:
                self.tell(f"{who} trashed {names(event.cards)}")
            elif event.kind == EV_REVEAL:
                self.tell(f"{who} revealed hand {names(event.cards)}")
            elif event.kind == EV_DISCARD:
                if event.player != self.turn_seat:  # a Militia victim's discard
                    self.tell(f"{who} discarded {names(event.cards)}")
                self.tell(
                    f"{who} top-discard {names(self.game.discards[event.player][-1:])}".rstrip()
                )

    def tell(self, message: str) -> None:
        """An informational line for every player still in the game."""
        self.table.broadcast(message, [s for s in range(len(self.table)) if s not in self.out])

    # -- the end ---------------------------------------------------------------------------

    def disqualify(self, seat: int, why: str) -> None:
        if seat not in self.out:
            self.out.add(seat)
            self.table.note(f"{seat_name(seat)} is disqualified: {why}")

    def outcome(self) -> Outcome:
        players = [seat_name(p) for p in range(len(self.table))]
        return game_outcome(self.game, self.out, players, "disqualified")
