"""Games between strategies in process, without a referee: the reference tables and the
benchmarks play thousands of them, so this is the engine's hot path.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena_dominion_text.cards import COPPER, GOLD, KEEP_AFTER_ATTACK, KINGDOM, SILVER
from arena_dominion_text.players import Strategy
from arena_dominion_text.rules import ATTACK, DEFAULT_TURN_CAP, OFFICIAL, Dominion, GameResult


class EngineView:
    """A :class:`~arena_dominion_text.players.ScoredView` of one player read from the engine,
    without copies.

    ``hand``, ``owned`` and ``supply`` are the engine's own lists, which it changes in place
    and never replaces; ``actions``, ``buys`` and ``money`` are copied by :meth:`refresh`,
    which :func:`simulate` calls before each decision. Plain attributes, because a decision
    reads them several times and a property would cost a call each time.
    """

    __slots__ = ("actions", "buys", "game", "hand", "money", "owned", "player", "supply")

    def __init__(self, game: Dominion, player: int) -> None:
        self.game = game
        self.player = player
        self.hand: Sequence[int] = game.hands[player]
        self.owned: Sequence[int] = game.owned[player]
        self.supply: Sequence[int] = game.supply
        self.refresh()

    def refresh(self) -> None:
        """Copy the counters and the money the player could spend now."""
        game = self.game
        hand = self.hand
        self.actions = game.actions
        self.buys = game.buys
        # Dominion.money_in_hand's sum, inline: simulate refreshes a view every turn.
        self.money = game.coins + hand.count(COPPER) + 2 * hand.count(SILVER) + 3 * hand.count(GOLD)

    @property
    def seat(self) -> int:
        return self.player

    @property
    def scores(self) -> Sequence[int]:
        game = self.game
        return [game.vp(p) for p in range(game.players)]

    @property
    def turns(self) -> Sequence[int]:
        return self.game.turns

    @property
    def rules(self) -> str:
        return self.game.rules


def simulate(
    strategies: Sequence[Strategy],
    seed: int | None = None,
    *,
    kingdom: Sequence[int] = KINGDOM,
    curses: bool = True,
    rules: str = OFFICIAL,
    turn_cap: int | None = DEFAULT_TURN_CAP,
) -> GameResult:
    """Play one game in process, seat ``i`` played by ``strategies[i]``.

    Buys follow the text protocol: every Treasure is played, then the listed cards are
    bought left to right until one cannot be (:meth:`Dominion.buy_cards`). Events are off,
    as nobody reads them. The loop is the hot path of every benchmark and reference table,
    hence its shortcuts (views refreshed rather than read through properties, no action()
    asked of strategies that cannot play one); tests check that they change no game.
    """
    game = Dominion(
        len(strategies),
        seed,
        kingdom=kingdom,
        curses=curses,
        rules=rules,
        turn_cap=turn_cap,
        record_events=False,
    )
    views = [EngineView(game, p) for p in range(len(strategies))]
    # A strategy that keeps the base class's action() never plays one: not asking saves
    # Big Money a call every turn.
    acts = [type(strategy).action is not Strategy.action for strategy in strategies]
    hands = game.hands
    while game.result is None:
        p = game.current
        strategy = strategies[p]
        view = views[p]
        view.refresh()
        while acts[p] and (play := strategy.action(view)) is not None:
            game.play_action(*play)
            if game.phase == ATTACK:
                for victim in list(game.pending):
                    hand = hands[victim]
                    answer = strategies[victim].attacked(hand, len(hand) - KEEP_AFTER_ATTACK)
                    if answer is None:
                        game.reveal_moat(victim)
                    else:
                        game.discard_down(victim, answer)
            view.refresh()
        game.buy_cards(strategy.buys(view))
        game.end_turn()
    return game.result
