"""Whole Speed Clue games in process, in the referee's message order, for tests and benchmarks.

The order matters because players learn from it: ``reset`` to every seat, then per turn
``suggest``, ``disprove`` (only with two or three matching cards), the ``suggestion`` broadcast
to every seat in seat order (the card only for the suggester and the disprover), ``accuse`` and,
after an accusation, the ``accusation`` broadcast. Illegal moves and the contest's two
accusation rules raise :class:`Violation` naming the player: a simulation has no
violation policy, a bug in a built-in player should be loud.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from arena_speedclue.players import Player
from arena_speedclue.rules import RuleError, State, missed_accusation, suicidal_accusation


class Violation(Exception):
    """A player broke a rule; ``player`` is its seat and ``reason`` says how."""

    def __init__(self, player: int, reason: str) -> None:
        super().__init__(f"player {player}: {reason}")
        self.player = player
        self.reason = reason


@dataclass(frozen=True)
class Result:
    """How a game ended."""

    winner: int
    eliminated: frozenset[int]
    by_accusation: bool
    """``True`` if the winner accused correctly, ``False`` if they were the last standing."""


def play_game(
    players: Sequence[Player],
    rng: random.Random,
    *,
    game: State | None = None,
    max_turns: int = 10_000,
) -> Result:
    """Play one game between ``players`` (seat order) and return its result."""
    if game is None:
        game = State.new(len(players), rng)
    for seat, player in enumerate(players):
        player.reset(len(players), seat, game.hands[seat])
    turns = 0
    while not game.over:
        turns += 1
        if turns > max_turns:
            raise RuntimeError(f"no winner after {max_turns} turns")
        active = game.active
        suggestion = players[active].suggest()
        try:
            disproof = game.suggest(active, *suggestion)
        except RuleError as error:
            raise Violation(active, error.reason) from None
        triple = game.last_suggestion
        assert triple is not None
        card = disproof.card
        if disproof.needs_choice:
            disprover = disproof.disprover
            assert disprover is not None
            answer = players[disprover].disprove(active, triple)
            try:
                card = game.show(disprover, answer)
            except RuleError as error:
                raise Violation(disprover, error.reason) from None
        for seat, player in enumerate(players):
            told = card if seat in (active, disproof.disprover) else None
            player.observe_suggestion(active, triple, disproof.disprover, told)
        accusation = players[active].accuse()
        if accusation is None:
            if reason := missed_accusation(game, active):
                raise Violation(active, reason)
            game.decline(active)
            continue
        if reason := suicidal_accusation(game, active, accusation):
            raise Violation(active, reason)
        try:
            correct = game.accuse(active, *accusation)
        except RuleError as error:
            raise Violation(active, error.reason) from None
        for player in players:
            player.observe_accusation(active, accusation, correct)
    assert game.winner is not None
    return Result(
        winner=game.winner,
        eliminated=frozenset(game.eliminated),
        by_accusation=game.by_accusation,
    )
