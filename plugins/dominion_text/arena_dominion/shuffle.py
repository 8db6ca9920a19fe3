"""The engine's shuffle: :meth:`random.Random.shuffle`, card for card, at half the cost.

Shuffling is about a quarter of a simulated game. The standard library's Fisher-Yates calls
a Python-level ``_randbelow`` for each card, which works out how many random bits it needs
and then asks for them; here each deck size's ``(index, bits)`` steps are worked out once,
and the loop asks ``getrandbits`` directly. Every draw is the one CPython's ``shuffle``
makes (``getrandbits(n.bit_length())``, drawn again while it is ``>= n``), so a seed deals
exactly the games it always has (golden transcripts and reference figures stay valid), and
the permutations are exactly as uniform as the standard library's.
"""

from __future__ import annotations

import random
from functools import cache


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
