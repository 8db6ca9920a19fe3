"""The rules of Speed Clue as the contest server ran them: a pure, seeded game state.

:class:`State` judges every move and raises :class:`RuleError` with a precise reason for an
illegal one, so a referee only has to translate messages and apply its violation policy. The
turn is a small state machine (``suggest`` -> optional ``show`` -> ``accuse`` or ``decline``)
because the referee must broadcast the suggestion between the disprover's show and the
accusation, and a misordered call is a referee bug worth catching loudly.

The contest's two anti-game-throwing rules, :func:`suicidal_accusation` and
:func:`missed_accusation`, are separate functions returning a reason or ``None``: they are
match options that can be switched off, not rules of the game itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from arena_speedclue.cards import (
    ROOMS,
    SUSPECTS,
    WEAPONS,
    CardError,
    Triple,
    parse_card,
    parse_triple,
)

MIN_PLAYERS = 3
MAX_PLAYERS = 6
DEALT = len(SUSPECTS) + len(WEAPONS) + len(ROOMS) - 3
"""All 18 cards outside the solution are dealt, so hands differ in size by at most one."""


class RuleError(Exception):
    """An illegal move or a call out of turn; ``reason`` says exactly what was wrong."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def hand_size(seat: int, n_players: int) -> int:
    """Cards dealt to ``seat`` of ``n_players``: the earlier seats get the remainder."""
    return DEALT // n_players + (1 if seat < DEALT % n_players else 0)


@dataclass(frozen=True)
class Deal:
    """A game's hidden truth: the solution and every seat's hand."""

    solution: Triple
    hands: tuple[tuple[str, ...], ...]


def deal(players: int, rng: random.Random) -> Deal:
    """Draw a solution uniformly, shuffle the other 18 cards and deal them all by seat."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(f"Speed Clue needs 3 to 6 players, not {players}")
    solution = (rng.choice(SUSPECTS), rng.choice(WEAPONS), rng.choice(ROOMS))
    rest = [card for card in SUSPECTS + WEAPONS + ROOMS if card not in solution]
    rng.shuffle(rest)
    hands = []
    start = 0
    for seat in range(players):
        size = hand_size(seat, players)
        hands.append(tuple(rest[start : start + size]))
        start += size
    return Deal(solution, tuple(hands))


class Phase(Enum):
    """Where the active player's turn stands."""

    SUGGEST = "suggest"
    SHOW = "show"
    ACCUSE = "accuse"
    OVER = "over"


@dataclass(frozen=True)
class Disproof:
    """The outcome of a suggestion's disprover search.

    ``disprover`` is ``None`` when nobody could disprove. ``card`` is the card shown when it is
    already decided (the disprover held exactly one match, shown without asking); ``choices``
    holds the disprover's two or three matching cards when they must be asked with
    ``disprove``.
    """

    disprover: int | None
    card: str | None
    choices: tuple[str, ...] = ()

    @property
    def needs_choice(self) -> bool:
        """Whether the referee must send ``disprove`` and then call :meth:`State.show`."""
        return len(self.choices) > 1


@dataclass
class State:
    """One game's state; seats are 0..n-1, seat 0 moves first."""

    solution: Triple
    hands: tuple[tuple[str, ...], ...]
    eliminated: set[int] = field(default_factory=set)
    winner: int | None = None
    by_accusation: bool = False
    """Whether the winner accused correctly (else they were the last player standing)."""
    active: int = 0
    phase: Phase = Phase.SUGGEST
    suggestions: list[set[Triple]] = field(default_factory=list)
    seen: list[set[str]] = field(default_factory=list)
    """Cards each player has been shown this game, for the suicidal-accusation rule."""
    last_suggestion: Triple | None = None
    last_disproof: Disproof | None = None

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.hands) <= MAX_PLAYERS:
            raise RuleError(f"Speed Clue needs 3 to 6 players, not {len(self.hands)}")
        self.suggestions = [set() for _ in self.hands]
        self.seen = [set() for _ in self.hands]

    @classmethod
    def new(cls, players: int, rng: random.Random) -> State:
        """A freshly dealt game."""
        dealt = deal(players, rng)
        return cls(dealt.solution, dealt.hands)

    @property
    def n_players(self) -> int:
        return len(self.hands)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def remaining(self) -> list[int]:
        """Seats still in the game, in seat order."""
        return [seat for seat in range(self.n_players) if seat not in self.eliminated]

    def _expect(self, player: int, phase: Phase) -> None:
        if self.phase is Phase.OVER:
            raise RuleError("the game is over")
        if self.phase is not phase:
            raise RuleError(f"expected {self.phase.value}, not {phase.value}")
        if phase is not Phase.SHOW and player != self.active:
            raise RuleError(f"it is player {self.active}'s turn, not player {player}'s")

    def _triple(self, cards: Sequence[str]) -> Triple:
        try:
            return parse_triple(cards)
        except CardError as error:
            raise RuleError(str(error)) from None

    def suggest(self, player: int, suspect: str, weapon: str, room: str) -> Disproof:
        """Record ``player``'s suggestion and find who disproves it.

        The walk starts at the seat after the suggester and includes eliminated players: they
        still hold their cards, and the contest server asked them.
        """
        self._expect(player, Phase.SUGGEST)
        triple = self._triple((suspect, weapon, room))
        if triple in self.suggestions[player]:
            raise RuleError(f"player {player} already suggested {' '.join(triple)} this game")
        self.suggestions[player].add(triple)
        self.last_suggestion = triple
        disproof = Disproof(None, None)
        for step in range(1, self.n_players):
            seat = (player + step) % self.n_players
            matches = tuple(card for card in triple if card in self.hands[seat])
            if len(matches) == 1:
                disproof = Disproof(seat, matches[0], matches)
            elif matches:
                disproof = Disproof(seat, None, matches)
            if matches:
                break
        self.last_disproof = disproof
        if disproof.needs_choice:
            self.phase = Phase.SHOW
        else:
            if disproof.card is not None:
                self.seen[player].add(disproof.card)
            self.phase = Phase.ACCUSE
        return disproof

    def show(self, player: int, card: str) -> str:
        """Validate the disprover's chosen card; returns it in canonical spelling."""
        self._expect(player, Phase.SHOW)
        disproof = self.last_disproof
        assert disproof is not None and disproof.disprover is not None
        if player != disproof.disprover:
            raise RuleError(f"player {disproof.disprover} disproves, not player {player}")
        try:
            canonical = parse_card(card)
        except CardError as error:
            raise RuleError(str(error)) from None
        if canonical not in disproof.choices:
            raise RuleError(
                f"{canonical} is not one of the suggested cards player {player} holds "
                f"({' '.join(disproof.choices)})"
            )
        self.last_disproof = Disproof(player, canonical, disproof.choices)
        self.seen[self.active].add(canonical)
        self.phase = Phase.ACCUSE
        return canonical

    def accuse(self, player: int, suspect: str, weapon: str, room: str) -> bool:
        """Judge an accusation: ``True`` wins the game, ``False`` eliminates the player.

        A wrong accusation that leaves one player standing ends the game with that player as
        the winner, since every game has exactly one winner.
        """
        self._expect(player, Phase.ACCUSE)
        triple = self._triple((suspect, weapon, room))
        if triple == self.solution:
            self.winner = player
            self.by_accusation = True
            self.phase = Phase.OVER
            return True
        # The game is not over and the accuser is active, so not yet eliminated.
        self.eliminate(player)
        return False

    def decline(self, player: int) -> None:
        """The active player answered ``-``: the turn passes on."""
        self._expect(player, Phase.ACCUSE)
        self._next_turn()

    def eliminate(self, player: int) -> None:
        """Take ``player`` out (the referee's forfeit policy), ending their turn if active."""
        if self.over or player in self.eliminated:
            return
        self.eliminated.add(player)
        left = self.remaining()
        if len(left) == 1:
            self.winner = left[0]
            self.phase = Phase.OVER
        elif player == self.active:
            self._next_turn()

    def _next_turn(self) -> None:
        seat = self.active
        for _ in range(self.n_players):
            seat = (seat + 1) % self.n_players
            if seat not in self.eliminated:
                break
        self.active = seat
        self.phase = Phase.SUGGEST
        self.last_suggestion = None
        self.last_disproof = None


def suicidal_accusation(game: State, player: int, triple: Sequence[str]) -> str | None:
    """The contest rule against throwing a game: accusing with a card one holds or was shown.

    Call before :meth:`State.accuse`; returns the reason for a violation, else ``None``.
    """
    for card in triple:
        if card in game.hands[player]:
            return f"suicidal accusation: player {player} holds {card}"
        if card in game.seen[player]:
            return f"suicidal accusation: player {player} was shown {card}"
    return None


def missed_accusation(game: State, player: int) -> str | None:
    """The contest rule against a missed certain win, for a player answering ``-``.

    Nobody disproved the player's suggestion this turn and none of its cards is in their hand
    or was shown to them, so it must be the solution: declining throws the game. Call before
    :meth:`State.decline`; returns the reason for a violation, else ``None``.
    """
    if player != game.active or game.last_suggestion is None or game.last_disproof is None:
        return None
    if game.last_disproof.disprover is not None:
        return None
    known = set(game.hands[player]) | game.seen[player]
    if any(card in known for card in game.last_suggestion):
        return None
    return (
        f"missed accusation: nobody disproved {' '.join(game.last_suggestion)} and player "
        f"{player} neither holds nor has seen any of it"
    )
