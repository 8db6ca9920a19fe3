"""The line protocol's games in the report: the referee's informational lines read into the
shared Dominion board.

The board is read from lines the referee wrote: the ``supply`` line that opens each turn
(which also lists the piles), the mover's ``play-request play-turn`` (its hand and Actions
left), and the ``gained``/``played``/``trashed``/``discarded``/``revealed`` lines; a bot's
invalid reply shows as the fault the referee recorded, its disqualification as the
referee's note.

One thing those lines do not say: ``gained`` lists a turn's buys and the gains of its
Workshop, Remodel and Mine alike (action gains first: a buy ends the turn). To tell them
apart, the mover's replies are read for one fact only, how many of them were complete
gaining actions (``play-reply action workshop silver``, ``... remodel estate silver``,
``... mine copper silver``) that the referee accepted: made with an Action left and not
followed by a fault. That many cards at the head of the ``gained`` line are gains, the
rest buys. A reply is never trusted for a card's name.

The referee's note ``player1 is <name>`` repeats the name a bot chose, so a note
``player1 is disqualified: ...`` puts the seat out only when it is not that echo of the
bot's answer to the name request.
"""

from __future__ import annotations

import re

from arena_dominion_text import cards
from arena_dominion_text.cards import KINGDOM, MINE, REMODEL, WORKSHOP
from arena_dominion_text.drawing import Board, DominionRenderer, LogReader, card_ids, starting_piles
from arena_kernel.plugin import Event, Replay

PLAYER = re.compile(r"player([1-9])")
DISQUALIFIED = re.compile(r"(player[1-9]) is disqualified: (.*)", re.DOTALL)
GAINING = {WORKSHOP: 1, REMODEL: 2, MINE: 2}
"""The actions that gain a card, and the words that follow them in a reply that does."""


def seat_of(word: str) -> int | None:
    """The seat of a protocol name (``player2`` -> 1), None for any other word."""
    match = PLAYER.fullmatch(word)
    return int(match.group(1)) - 1 if match else None


class TextReader(LogReader):
    def __init__(self, board: Board) -> None:
        super().__init__(board)
        self.actions: int | None = None
        """The Actions the mover's latest play-turn request said it had left."""
        self.gaining = False
        """The mover's latest reply was a gaining action; no fault has come after it yet."""
        self.action_gains = 0
        """Gaining actions of this turn the referee accepted (see the module doc)."""
        self.name_reply: tuple[int | None, str] | None = None
        """The seat and the name of the bot's answer to the name request just before."""

    def opens_turn(self, event: Event) -> bool:
        return (
            event.kind == "send"
            and event.text.startswith("supply")
            and not self.copies.is_copy(event)
        )

    def feed(self, event: Event) -> None:
        copy = self.copies.see(event)
        name_reply, self.name_reply = self.name_reply, None
        if event.kind == "send":
            if self.gaining:
                self.action_gains += 1
                self.gaining = False
            self.sent(event, copy)
        elif event.kind == "recv":
            self.received(event)
        elif event.kind == "fault":
            if self.board.turn is not None and event.seat == self.board.turn.seat:
                self.gaining = False
            self.board.fault(event.seat, event.text)
        elif event.kind == "note":
            self.noted(event.text, name_reply)

    def received(self, event: Event) -> None:
        """A bot's reply: only whether it names the bot, or is a gaining action."""
        words = event.text.split()
        if words[:1] == ["player"] and len(words) > 2:
            self.name_reply = (event.seat, f"{words[1]} is {' '.join(words[2:])}")
        turn = self.board.turn
        if turn is None or turn.seat is None or event.seat != turn.seat or not self.actions:
            return
        action = words[:2] == ["play-reply", "action"]
        if action or words[:3] == ["play-reply", "reply", "workshop"]:
            card = cards.lookup(words[2]) if len(words) > 2 else None
            args = words[3:]
            self.gaining = (
                card in GAINING
                and len(args) == GAINING[card]
                and all(cards.lookup(w) is not None for w in args)
            )

    def noted(self, text: str, name_reply: tuple[int | None, str] | None) -> None:
        """The referee's notes: a disqualification puts the seat out. The note that names a
        bot repeats the name it chose, so it is skipped when it is just that (a bot named
        ``disqualified: ...`` is not out)."""
        match = DISQUALIFIED.fullmatch(text)
        if match is None:
            return
        seat = seat_of(match.group(1))
        if name_reply is not None and name_reply == (seat, text):
            return
        self.board.put_out(seat, match.group(2))

    def sent(self, event: Event, copy: bool) -> None:
        words = event.text.split()
        if not words:
            return
        board = self.board
        head = words[0]
        if head == "play-request":
            if words[1:2] == ["play-turn"]:
                board.set_mover(event.seat)
                turn = board.turn
                if turn is not None and turn.seat == event.seat:
                    self.actions = number_after(words, "actions")
                    if turn.hand is None:
                        turn.hand = card_ids(after(words, "hand"))
            elif words[1:2] == ["attack"]:
                board.attacked(event.seat, len(after(words, "hand")))
            return
        if copy:
            return
        if head == "supply":
            board.begin_turn(None)
            self.actions, self.gaining, self.action_gains = None, False, 0
            board.sync_supply(pile_counts(words[1:]), complete=False)
            return
        seat = seat_of(head)
        verb = words[1] if len(words) > 1 else ""
        named = card_ids(words[2:])
        if verb == "gained":
            mover = board.turn is not None and board.turn.seat == seat
            for index, card in enumerate(named):
                board.gain(seat, card, bought=mover and index >= self.action_gains)
        elif verb == "played":
            board.play(seat, named)
        elif verb == "trashed":
            for card in named:
                board.trash_card(seat, card)
        elif verb == "discarded":
            board.defend(seat, False, named)
        elif verb == "revealed" and "moat" in words[2:]:
            board.defend(seat, True)


def after(words: list[str], marker: str) -> list[str]:
    return words[words.index(marker) + 1 :] if marker in words else []


def number_after(words: list[str], marker: str) -> int | None:
    """The number that follows ``marker`` in ``words``, None if there is none."""
    value = after(words, marker)[:1]
    return count(value[0]) if value else None


def count(word: str) -> int | None:
    """``word`` as a small count (``46``), None if it is not one."""
    return int(word) if word.isascii() and word.isdigit() and len(word) < 6 else None


def pile_counts(words: list[str]) -> dict[int, int]:
    """``curse 10 copper 46 ...`` as card -> copies left (pairs that do not parse are
    skipped)."""
    counts = {}
    for name, left in zip(words[::2], words[1::2], strict=False):
        card, copies = cards.lookup(name), count(left)
        if card is not None and copies is not None:
            counts[card] = copies
    return counts


class DominionTextRenderer(DominionRenderer):
    name = "dominion_text"
    reader = TextReader

    def start_supply(self, replay: Replay) -> dict[int, int]:
        return starting_piles(len(replay.seating), KINGDOM, curses=True)
