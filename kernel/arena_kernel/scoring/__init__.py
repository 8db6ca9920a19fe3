"""Scorers: turning stored game outcomes into standings tables.

The names below are served on first use (:mod:`arena_kernel.lazy_names`): importing one
scorer's module does not import the others (openskill's among them)."""

from typing import TYPE_CHECKING

from arena_kernel.lazy_names import served_on_first_use

if TYPE_CHECKING:
    from arena_kernel.scoring.base import GameResult as GameResult
    from arena_kernel.scoring.base import Scorer as Scorer
    from arena_kernel.scoring.elo import EloScorer as EloScorer
    from arena_kernel.scoring.elo import Rating as Rating
    from arena_kernel.scoring.elo import fit_elo as fit_elo
    from arena_kernel.scoring.multiplayer import OpenSkillScorer as OpenSkillScorer
    from arena_kernel.scoring.wins import WinsScorer as WinsScorer

_EXPORTS = {
    "EloScorer": "arena_kernel.scoring.elo",
    "GameResult": "arena_kernel.scoring.base",
    "OpenSkillScorer": "arena_kernel.scoring.multiplayer",
    "Rating": "arena_kernel.scoring.elo",
    "Scorer": "arena_kernel.scoring.base",
    "WinsScorer": "arena_kernel.scoring.wins",
    "fit_elo": "arena_kernel.scoring.elo",
}

__all__ = sorted(_EXPORTS)

__getattr__ = served_on_first_use(__name__, _EXPORTS)
