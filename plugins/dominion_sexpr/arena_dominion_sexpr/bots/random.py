"""Dominion S-expression bot: uniformly random legal choices (``--seed N`` to repeat a game)."""

from __future__ import annotations

from arena_dominion_sexpr.player import SexprPlayer, bot_main, make_bot


def make(seed: int | None = None) -> SexprPlayer:
    """The same bot in process, for the game's fast ``inproc`` runs."""
    return make_bot("random", seed)


if __name__ == "__main__":
    bot_main("random", seeded=True)
