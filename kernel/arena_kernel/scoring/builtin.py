"""The built-in scorers, registered through the same hook as any third-party scorer (and
imported only when registered)."""

from __future__ import annotations

from arena_kernel.hookspecs import Register
from arena_kernel.markers import hookimpl


@hookimpl
def arena_register_scorers(register: Register) -> None:
    from arena_kernel.scoring.elo import EloScorer
    from arena_kernel.scoring.multiplayer import OpenSkillScorer
    from arena_kernel.scoring.plackett_luce import PlackettLuceScorer
    from arena_kernel.scoring.wins import WinsScorer

    for scorer in (WinsScorer, EloScorer, OpenSkillScorer, PlackettLuceScorer):
        register(scorer)
