"""The built-in scorers, registered through the same hook as any third-party scorer."""

from __future__ import annotations

from kernel import hookimpl
from kernel.hookspecs import Register
from kernel.scoring.elo import EloScorer
from kernel.scoring.multiplayer import OpenSkillScorer
from kernel.scoring.wins import WinsScorer


@hookimpl
def arena_register_scorers(register: Register) -> None:
    for scorer in (WinsScorer, EloScorer, OpenSkillScorer):
        register(scorer)
