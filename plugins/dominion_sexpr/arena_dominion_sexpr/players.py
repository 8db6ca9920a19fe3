"""Strategies this protocol needs beyond :mod:`arena_dominion_text.players`.

Protocol v1 has a single kingdom card, Mine, and none of the shared strategies buys it, so
a v1 game between built-in bots would never exercise ``(act mine ...)``. Mine-BM is Big
Money that also buys and plays Mine; like every strategy it decides from a
:class:`~arena_dominion_text.players.View` only, so it plays in the engine's own
:func:`~arena_dominion_text.simulate.simulate` as well.
"""

from __future__ import annotations

from arena_dominion_text.cards import COPPER, COST, GOLD, MINE, SILVER
from arena_dominion_text.players import BigMoney, Play, View


class MineBigMoney(BigMoney):
    """Mine-BM: Big Money that buys one Mine with exactly $5 while it owns none, and plays it
    to turn a Silver into a Gold (else a Copper into a Silver).

    Only at $5, because $6+ buys Gold, which beats a Mine; only one, because a second Mine
    mostly collides with the first.
    """

    name = "mine"

    def choose(self, view: View, money: int) -> int | None:
        if money == COST[MINE] and view.owned[MINE] == 0 and view.supply[MINE] > 0:
            return MINE
        return super().choose(view, money)

    def action(self, view: View) -> Play | None:
        if not view.actions or MINE not in view.hand:
            return None
        hand = view.hand
        supply = view.supply
        for old, new in ((SILVER, GOLD), (COPPER, SILVER)):
            if old in hand and supply[new] > 0:
                return (MINE, (old,), new)
        return None
