"""Scorers: turning stored game outcomes into standings tables."""

from arena_kernel.scoring.base import GameResult, Scorer
from arena_kernel.scoring.elo import EloScorer, Rating, fit_elo
from arena_kernel.scoring.multiplayer import OpenSkillScorer
from arena_kernel.scoring.wins import WinsScorer

__all__ = [
    "EloScorer",
    "GameResult",
    "OpenSkillScorer",
    "Rating",
    "Scorer",
    "WinsScorer",
    "fit_elo",
]
