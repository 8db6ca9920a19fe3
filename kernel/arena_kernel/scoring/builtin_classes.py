"""The built-in scorers by name, each imported from its module when asked for: what the
built-in plugin registers (:mod:`arena_kernel.scoring.builtin`), and where ``arena
standings`` takes a built-in scorer from when no plugin of the command line is in play
(the registries would hold exactly these then), without loading the plugin machinery."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from arena_kernel.scoring.base import Scorer

BUILTIN_SCORERS: Final = {
    "wins": "arena_kernel.scoring.wins:WinsScorer",
    "elo": "arena_kernel.scoring.elo:EloScorer",
    "openskill": "arena_kernel.scoring.multiplayer:OpenSkillScorer",
    "plackett-luce": "arena_kernel.scoring.plackett_luce:PlackettLuceScorer",
}
"""Each built-in scorer's ``name`` and where its class is, in the order they are registered."""


def builtin_scorer(name: str) -> type[Scorer]:
    """The built-in scorer ``name`` (a key of :data:`BUILTIN_SCORERS`)."""
    module, _, attribute = BUILTIN_SCORERS[name].partition(":")
    scorer: type[Scorer] = getattr(importlib.import_module(module), attribute)
    return scorer
